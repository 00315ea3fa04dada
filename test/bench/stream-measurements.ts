// Bench rows for a large streamed tool argument: a 10 MB `content` argument through the real
// Anthropic SDK and the agent loop, against the time its bytes take to arrive (a plain HTTP read of
// the same stream from the fake LLM), and how long Esc takes to end the turn in the middle of it.
// The fake LLM runs in its own process, as a real server would: in this one it would compete for
// the same thread and count its own cost against the agent.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Type } from "@sinclair/typebox";
import type { FakeLlm, FakeReply } from "../fake-llm/index.js";
import { agentFor } from "../helpers/agent-harness.js";
import type { AgentTool } from "../../tools/tool.js";
import { ms, type Measurement } from "./bench-harness.js";

const SIZE = 10 * 1024 * 1024;
/** Characters per input_json_delta: of the order the API sends. */
const CHUNK = 128;

const sink: AgentTool = {
  name: "write_blob",
  label: "Write blob",
  description: "Takes a large argument.",
  parameters: Type.Object({ content: Type.String() }),
  async execute(_id, params: { content: string }) {
    return { content: `got ${params.content.length}` };
  },
};

/** The fake LLM as a separate process answering `script` in order; resolves with its URL. */
async function fakeLlmProcess(script: FakeReply[]): Promise<{ url: string; stop: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), "pitwall-bench-"));
  const file = join(dir, "script.json");
  writeFileSync(file, JSON.stringify(script));
  const main = fileURLToPath(new URL("../fake-llm/main.js", import.meta.url));
  const child = spawn(process.execPath, [main, file], { stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      if (out.includes("\n")) resolve(out.split("\n")[0]!);
    });
    child.once("exit", () => reject(new Error("the fake LLM exited before it listened")));
  });
  return {
    url,
    stop: () => {
      child.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const largeArgument: Measurement = async () => {
  const reply: FakeReply = { kind: "reply", chunkSize: CHUNK, toolCalls: [{ name: "write_blob", arguments: { content: "x".repeat(SIZE) } }] };
  const server = await fakeLlmProcess([reply, reply, { kind: "reply", text: "done" }, reply]);
  // agentFor needs only the base URLs of the fake LLM.
  const llm = { anthropicBaseUrl: server.url, openaiBaseUrl: `${server.url}/v1` } as FakeLlm;
  try {
    // The bytes alone: read the same SSE stream over HTTP and do nothing with it.
    let started = performance.now();
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "bench", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-5-5", stream: true, messages: [] }),
    });
    for await (const _chunk of response.body!) void _chunk;
    const rawMs = performance.now() - started;

    const agent = agentFor(llm, "anthropic", [sink]);
    let toolAt = 0;
    agent.subscribe((e) => {
      if (e.type === "tool_execution_start" && toolAt === 0) toolAt = performance.now();
    });
    started = performance.now();
    await agent.prompt("write it");
    const agentMs = toolAt - started;
    const ratio = agentMs / rawMs;

    const aborting = agentFor(llm, "anthropic", [sink]);
    let streamed = 0;
    let abortAt = 0;
    aborting.subscribe((e) => {
      if (e.type !== "message_update" || e.delta.kind !== "toolcall_delta") return;
      streamed += e.delta.delta.length;
      if (abortAt === 0 && streamed > SIZE / 2) {
        abortAt = performance.now();
        aborting.abort();
      }
    });
    await aborting.prompt("write it");
    const abortMs = performance.now() - abortAt;
    return [
      { metric: "10 MB tool argument: streamed to the tool / bytes arriving", value: `${(agentMs / 1000).toFixed(1)} s / ${(rawMs / 1000).toFixed(1)} s = ${ratio.toFixed(2)}×`, target: "< 2×", pass: ratio < 2 },
      { metric: "Esc halfway through a 10 MB tool argument → turn ended", value: ms(abortMs), target: "< 200 ms", pass: abortMs < 200 },
    ];
  } finally {
    server.stop();
  }
};
