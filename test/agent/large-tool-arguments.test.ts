// A 10 MB tool argument streams through the provider into the tool intact, and Esc during it ends the
// turn promptly (the partial JSON is not re-parsed on every few KB).
import { createHash } from "node:crypto";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AgentTool } from "../../tools/tool.js";
import type { ProviderName } from "../../agent/models.js";
import { agentFor, recordEvents } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();
const TEN_MB = 10 * 1024 * 1024;

/** 10 MB of text with every kind of character JSON must escape now and then. */
function bigContent(): string {
  const line = 'const value = "quoted \\\\ text";\tindent ünïcödé 😀\n';
  return line.repeat(Math.ceil(TEN_MB / line.length)).slice(0, TEN_MB);
}

function digest(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function writeTool(received: string[]): AgentTool {
  return {
    name: "write_blob",
    label: "Write blob",
    description: "Receives a large content argument.",
    parameters: Type.Object({ path: Type.String(), content: Type.String() }),
    async execute(_id, params: { path: string; content: string }) {
      received.push(params.content);
      return { content: `received ${params.content.length} chars for ${params.path}` };
    },
  };
}

describe("a 10 MB streamed tool argument", () => {
  for (const provider of ["anthropic", "openai"] as ProviderName[]) {
    it(`arrives intact in the tool (${provider})`, async () => {
      const content = bigContent();
      llm.enqueue({ kind: "reply", chunkSize: 4096, toolCalls: [{ name: "write_blob", arguments: { path: "big.txt", content } }] }, { kind: "reply", text: "written" });
      const received: string[] = [];
      const agent = agentFor(llm, provider, [writeTool(received)]);
      await agent.prompt("write it");
      expect(received).toHaveLength(1);
      expect(received[0]!.length).toBe(content.length);
      expect(digest(received[0]!)).toBe(digest(content));
      // The 10 MB call is far past any context window, so a compaction may come first: the result
      // still reaches the model, in the request after it.
      expect(llm.requests.slice(1).some((r) => r.transcript.includes(`received ${content.length} chars for big.txt`))).toBe(true);
    }, 60_000);
  }

  it("Esc in the middle of it ends the turn promptly, keeping the partial reply", async () => {
    const content = bigContent();
    llm.enqueue({ kind: "reply", chunkSize: 2048, delayMs: 1, toolCalls: [{ name: "write_blob", arguments: { path: "big.txt", content } }] });
    const received: string[] = [];
    const agent = agentFor(llm, "anthropic", [writeTool(received)]);
    const events = recordEvents(agent);
    let streamed = 0;
    let abortedAt = 0;
    agent.subscribe((event) => {
      if (event.type !== "message_update" || event.delta.kind !== "toolcall_delta") return;
      streamed += event.delta.delta.length;
      if (abortedAt === 0 && streamed > TEN_MB / 2) {
        abortedAt = performance.now();
        agent.abort();
      }
    });
    await agent.prompt("write it");
    const tookMs = performance.now() - abortedAt;
    expect(abortedAt).toBeGreaterThan(0);
    // Generous: the bound that matters is "not seconds"; the bench measures it.
    expect(tookMs).toBeLessThan(2_000);
    expect(received).toEqual([]);
    const end = events.filter((e) => e.type === "message_end").at(-1);
    expect(end).toMatchObject({ message: { role: "assistant", stopReason: "aborted" } });
  }, 60_000);
});
