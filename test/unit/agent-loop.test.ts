// The agent loop with scripted streams: no network, no SDK. What it sends, what it emits, how it
// runs tools, retries, stops on an abort, and delivers steering after a tool batch.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent.js";
import type { AssistantMessage, ToolResultMessage } from "../../agent/messages.js";
import type { AgentTool } from "../../tools/tool.js";
import { waitFor } from "../helpers/conditions.js";
import { scriptedAgent, type ScriptStep } from "./scripted-provider.js";

const echo: AgentTool = {
  name: "echo",
  label: "Echo",
  description: "Returns its text.",
  parameters: Type.Object({ text: Type.String() }),
  async execute(_id, params: { text: string }) {
    return { content: `echo: ${params.text}` };
  },
};

const scripted = (steps: ScriptStep[], tools: AgentTool[] = [echo]) => scriptedAgent(steps, tools);

const assistants = (agent: Agent): AssistantMessage[] => agent.state.messages.filter((m): m is AssistantMessage => m.role === "assistant");
const results = (agent: Agent): ToolResultMessage[] => agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");

describe("agent loop (scripted provider)", () => {
  it("streams a reply: deltas in order, then the message, in the event order front ends rely on", async () => {
    const { agent, provider, events } = scripted([{ reply: { thinking: "hmm", text: "Hello there, friend." } }]);
    await agent.prompt("hi");
    const types = events.map((e) => e.type).filter((t) => t !== "message_update");
    expect(types).toEqual(["agent_start", "turn_start", "message_start", "message_end", "message_start", "message_end", "turn_end", "agent_end"]);
    const text = events.flatMap((e) => (e.type === "message_update" && e.delta.kind === "text_delta" ? [e.delta.delta] : []));
    expect(text.join("")).toBe("Hello there, friend.");
    expect(assistants(agent)[0]).toMatchObject({ stopReason: "stop", usage: { input: 10, output: 5, totalTokens: 15 } });
    expect(provider.requests[0]!.messages).toEqual([expect.objectContaining({ role: "user", content: "hi" })]);
    expect(provider.requests[0]!.systemPrompt).toBe("You are a test agent.");
  });

  it("runs tool calls and sends their results back, then stops when the model does", async () => {
    const { agent, provider, events } = scripted([
      { reply: { text: "Calling.", toolCalls: [{ id: "c1", name: "echo", arguments: '{"text":"alpha"}' }, { id: "c2", name: "echo", arguments: '{"text":"beta"}' }] } },
      { reply: { text: "Done." } },
    ]);
    await agent.prompt("echo twice");
    expect(results(agent).map((r) => r.content)).toEqual(["echo: alpha", "echo: beta"]);
    expect(assistants(agent).map((m) => m.stopReason)).toEqual(["toolUse", "stop"]);
    const second = provider.requests[1]!.messages;
    expect(second.filter((m) => m.role === "toolResult").map((m) => (m as ToolResultMessage).toolCallId)).toEqual(["c1", "c2"]);
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends.map((e) => e.type === "tool_execution_end" && e.isError)).toEqual([false, false]);
    expect(provider.remaining).toBe(0);
  });

  it("answers arguments that fail the schema or are not JSON with an error result, and goes on", async () => {
    const { agent } = scripted([
      { reply: { toolCalls: [{ id: "c1", name: "echo", arguments: '{"words":"x"}' }, { id: "c2", name: "echo", arguments: "{not json" }, { id: "c3", name: "nope", arguments: "{}" }] } },
      { reply: { text: "Sorry." } },
    ]);
    await agent.prompt("go");
    const [typed, broken, unknown] = results(agent);
    expect(typed).toMatchObject({ isError: true, content: expect.stringContaining("Invalid arguments for echo") });
    expect(broken).toMatchObject({ isError: true, content: expect.stringContaining("not a JSON object") });
    expect(unknown).toMatchObject({ isError: true, content: expect.stringContaining("Unknown tool 'nope'") });
    expect(assistants(agent).at(-1)).toMatchObject({ stopReason: "stop" });
  });

  it("retries a retryable failure (429 with retry-after) and says so, then succeeds", async () => {
    const rateLimited = Object.assign(new Error("429 rate limited"), { status: 429, headers: { "retry-after-ms": "5" } });
    const { agent, events } = scripted([{ fail: rateLimited }, { reply: { text: "Made it." } }]);
    await agent.prompt("try");
    expect(events.filter((e) => e.type === "retry")).toEqual([expect.objectContaining({ attempt: 2, maxAttempts: 3, delayMs: 5 })]);
    expect(assistants(agent)).toHaveLength(1);
    expect(assistants(agent)[0]).toMatchObject({ stopReason: "stop" });
  });

  it("retries a dropped connection whose error text says 'aborted': only our own abort is an abort", async () => {
    const dropped = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    const { agent, events } = scripted([{ fail: dropped }, { reply: { text: "Back." } }]);
    await agent.prompt("try");
    expect(events.some((e) => e.type === "retry")).toBe(true);
    expect(assistants(agent)[0]).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "Back." }] });
  });

  it("gives up on a failure that cannot be retried: an error message a person can act on", async () => {
    const unauthorized = Object.assign(new Error("401 invalid x-api-key"), { status: 401 });
    const { agent, events, provider } = scripted([{ fail: unauthorized }]);
    await agent.prompt("try");
    expect(assistants(agent)[0]).toMatchObject({ stopReason: "error", errorMessage: expect.stringContaining("check SCRIPTED_KEY") });
    expect(events.filter((e) => e.type === "error")).toHaveLength(1);
    expect(provider.requests).toHaveLength(1);
  });

  it("stops after the last attempt, saying how many were made", async () => {
    const down = () => Object.assign(new Error("503 unavailable"), { status: 503 });
    const { agent, events } = scripted([{ fail: down() }, { fail: down() }, { fail: down() }]);
    await agent.prompt("try");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
    expect(assistants(agent)[0]!.errorMessage).toMatch(/gave up after 3 attempts/);
  });

  it("an abort keeps the partial reply, marked aborted", async () => {
    const { agent } = scripted([{ hang: "Partial answ" }]);
    const done = agent.prompt("go");
    await waitFor(() => agent.state.isStreaming && (agent.state.streamMessage?.content.length ?? 0) > 0, "the reply to start");
    agent.abort();
    await done;
    expect(assistants(agent)[0]).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "Partial answ" }] });
  });

  it("delivers a steering message after the tool batch in flight, before the next request", async () => {
    let release!: () => void;
    const gate: AgentTool = {
      name: "gate",
      label: "Gate",
      description: "Waits.",
      parameters: Type.Object({}),
      execute: () => new Promise((resolve) => (release = () => resolve({ content: "opened" }))),
    };
    const { agent, provider } = scripted([{ reply: { toolCalls: [{ id: "g1", name: "gate", arguments: "{}" }] } }, { reply: { text: "Steered." } }], [gate]);
    const done = agent.prompt("start");
    await waitFor(() => release !== undefined, "the tool to start");
    agent.steer("also do this");
    release();
    await done;
    const second = provider.requests[1]!.messages;
    expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "user"]);
    expect(second.at(-1)).toMatchObject({ role: "user", content: "also do this" });
  });
});
