// Builds an Agent wired to the fake LLM server through the real SDK clients, plus small tools whose
// timing a test controls, and a recorder of bus events.
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { Agent, type AgentOptions } from "../../agent/agent.js";
import { createCodingAgent, type CodingAgent, type CodingAgentOptions } from "../../agent/coding-agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import { resolveModel, type ProviderName } from "../../agent/models.js";
import { createProviderResolver } from "../../agent/providers/connections.js";
import type { AgentTool } from "../../tools/tool.js";
import type { FakeLlm } from "../fake-llm/index.js";
import { tempDir } from "./temp-dir.js";

/** A provider, or "responses": OpenAI through the Responses API (what --api responses asks for). */
export type TestApi = ProviderName | "responses";

export function agentFor(
  llm: FakeLlm,
  api: TestApi,
  tools: AgentTool[] = [],
  extra: Partial<AgentOptions> = {},
  modelId = api === "anthropic" ? "claude-sonnet-5-5" : "gpt-5.4",
): Agent {
  const provider: ProviderName = api === "responses" ? "openai" : api;
  const connections = {
    anthropic: { apiKey: "test-anthropic-key-123", baseUrl: llm.anthropicBaseUrl },
    openai: { apiKey: "test-openai-key-123", baseUrl: llm.openaiBaseUrl, ...(api === "responses" ? { api: "responses" as const } : {}) },
  };
  return new Agent({
    model: resolveModel(modelId, provider, provider),
    getProvider: createProviderResolver(connections),
    systemPrompt: "You are a test agent.",
    tools,
    retry: { baseDelayMs: 5, maxAttempts: 3 },
    ...extra,
  });
}

export function recordEvents(agent: Agent): PitwallEvent[] {
  const events: PitwallEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return events;
}

export const echoTool: AgentTool = {
  name: "echo",
  label: "Echo",
  description: "Returns its text.",
  parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Number()) }),
  async execute(_id, params: { text: string; times?: number }) {
    return { content: `echo: ${params.text.repeat(params.times ?? 1)}`, details: { length: params.text.length } };
  },
};

/** A tool that runs until the test calls release(); records that it started. */
export function gateTool(name = "slow"): { tool: AgentTool; started: () => boolean; release: () => void; sawAbort: () => boolean } {
  let started = false;
  let aborted = false;
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tool: AgentTool = {
    name,
    label: "Slow",
    description: "Waits until released.",
    parameters: Type.Object({}),
    async execute(_id, _params, signal, onUpdate) {
      started = true;
      onUpdate({ chunk: "working…\n" });
      await Promise.race([gate, new Promise<void>((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve()), { once: true }))]);
      return aborted ? { content: "slow: aborted", isError: true } : { content: "slow: done" };
    },
  };
  return { tool, started: () => started, release: () => release(), sawAbort: () => aborted };
}

/** A whole coding agent (tools, jobs, bus) in a fresh temp folder, talking to the fake LLM as Anthropic, with its bus events recorded. */
export function codingAgentFor(
  llm: FakeLlm,
  purpose: string,
  jobs?: CodingAgentOptions["jobs"],
): { coding: CodingAgent; events: PitwallEvent[]; cwd: string } {
  const cwd = tempDir(purpose);
  const coding = createCodingAgent({
    ...(jobs ? { jobs } : {}),
    cwd,
    model: resolveModel(undefined, "anthropic", "anthropic"),
    connections: { anthropic: { apiKey: "sk-test-0123456789", baseUrl: llm.anthropicBaseUrl }, openai: {} },
    pitwallHome: join(cwd, ".pitwall-home"),
    settings: { retry: { baseDelayMs: 5 } },
  });
  const events: PitwallEvent[] = [];
  coding.bus.subscribe((e) => events.push(e));
  return { coding, events, cwd };
}
