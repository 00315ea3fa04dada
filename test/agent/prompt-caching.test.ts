// Anthropic prompt caching: breakpoints on the tools, the system prompt, and the stable prefix of
// the conversation (the newest user turn and the one before it), never more than the API's four.
import { Type } from "@sinclair/typebox";
import type { MessageParam } from "@anthropic-ai/sdk/resources/messages/messages";
import { describe, expect, it } from "vitest";
import type { Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { lookupModel } from "../../agent/models.js";
import { buildParams } from "../../agent/providers/anthropic.js";

const model = lookupModel("claude-sonnet-5-5")!;
const tools = [
  { name: "read", description: "Read a file.", parameters: Type.Object({ file_path: Type.String() }) },
  { name: "bash", description: "Run a command.", parameters: Type.Object({ command: Type.String() }) },
];

const reply = (text: string, calls: string[] = []): Message => ({
  role: "assistant",
  content: [{ type: "text", text }, ...calls.map((id) => ({ type: "toolCall" as const, id, name: "read", arguments: { file_path: "a" } }))],
  provider: "anthropic",
  model: model.id,
  usage: emptyUsage(),
  stopReason: calls.length ? "toolUse" : "stop",
  timestamp: 0,
});
const result = (id: string): Message => ({ role: "toolResult", toolCallId: id, toolName: "read", content: `content of ${id}`, isError: false, timestamp: 0 });
const user = (content: string): Message => ({ role: "user", content, timestamp: 0 });

/** "message index/block index" of every block with a breakpoint. */
function breakpoints(messages: MessageParam[]): string[] {
  return messages.flatMap((m, i) => (Array.isArray(m.content) ? m.content.flatMap((b, j) => ("cache_control" in b && b.cache_control ? [`${i}/${j}`] : [])) : []));
}

describe("Anthropic cache breakpoints", () => {
  it("mark the last tool, the system prompt, the newest user turn and the turn before it", () => {
    const history = [user("read a, b and c"), reply("Reading.", ["a", "b", "c"]), result("a"), result("b"), result("c"), reply("Now d.", ["d"]), result("d")];
    const params = buildParams({ model, systemPrompt: "sys", messages: history, tools, thinkingLevel: "off" });
    expect(params.tools?.map((t) => ("cache_control" in t ? t.cache_control : undefined))).toEqual([undefined, { type: "ephemeral" }]);
    expect(params.system).toEqual([{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    // Messages: 0 user, 1 assistant, 2 user (three results), 3 assistant, 4 user (one result).
    expect(breakpoints(params.messages)).toEqual(["2/2", "4/0"]);
    const total = breakpoints(params.messages).length + 2;
    expect(total).toBeLessThanOrEqual(4);
  });

  it("mark only the one user turn of a first request, and no tools when there are none", () => {
    const params = buildParams({ model, systemPrompt: "sys", messages: [user("hi")], tools: [], thinkingLevel: "off" });
    expect(params.tools).toBeUndefined();
    expect(breakpoints(params.messages)).toEqual(["0/0"]);
  });

  it("keep the previous turn's breakpoint where the last request put it, so the prefix is read from the cache", () => {
    const turn1 = [user("first"), reply("One.", ["a"]), result("a")];
    const turn2 = [...turn1, reply("Two.", ["b"]), result("b")];
    const first = buildParams({ model, systemPrompt: "sys", messages: turn1, tools, thinkingLevel: "off" });
    const second = buildParams({ model, systemPrompt: "sys", messages: turn2, tools, thinkingLevel: "off" });
    const newest = breakpoints(first.messages).at(-1);
    expect(breakpoints(second.messages)).toContain(newest);
  });
});
