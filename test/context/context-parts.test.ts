// The context machinery's small parts on their own: the budget (window, reply room, threshold, kept
// tokens), measuring the next request (provider counts + estimates, counts from before a
// compaction ignored) and the cut point (never just before a tool result).
import { describe, expect, it } from "vitest";
import { contextBudget, DEFAULT_CONTEXT_WINDOW } from "../../agent/context/context-budget.js";
import { measureContext } from "../../agent/context/context-usage.js";
import { findCutPoint } from "../../agent/context/cut-point.js";
import { emptyUsage, type AssistantMessage, type Message } from "../../agent/messages.js";
import { lookupModel, resolveModel } from "../../agent/models.js";

const user = (content: string, timestamp = 1): Message => ({ role: "user", content, timestamp });
const reply = (text: string, input: number, timestamp = 2, calls: string[] = []): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }, ...calls.map((id) => ({ type: "toolCall" as const, id, name: "read", arguments: { file_path: "a" } }))],
  provider: "anthropic",
  model: "m",
  usage: { ...emptyUsage(), input, output: 10 },
  stopReason: calls.length ? "toolUse" : "stop",
  timestamp,
});
const result = (id: string, chars: number): Message => ({ role: "toolResult", toolCallId: id, toolName: "read", content: "r".repeat(chars), isError: false, timestamp: 3 });

describe("the budget", () => {
  it("takes the model's window, a smaller setting, or the default for an unknown model", () => {
    const sonnet = lookupModel("claude-sonnet-4-5")!;
    expect(contextBudget(sonnet)).toMatchObject({ window: 200_000, windowSource: "model", reserve: 32_000, triggerAt: 160_000, keepRecent: 20_000 });
    expect(contextBudget(sonnet, { contextWindow: 64_000 })).toMatchObject({ window: 64_000, windowSource: "setting", reserve: 16_000, triggerAt: 48_000 });
    expect(contextBudget(sonnet, { contextWindow: 500_000 })).toMatchObject({ window: 200_000, windowSource: "model" });
    const local = resolveModel("qwen2.5-coder", "openai", "openai");
    expect(contextBudget(local)).toMatchObject({ window: DEFAULT_CONTEXT_WINDOW, windowSource: "default", reserve: 16_384 });
    expect(contextBudget(local, { compactAtPercent: 50 }).triggerAt).toBe(64_000);
  });
});

describe("measuring the next request", () => {
  const input = (messages: Message[]) => ({ systemPrompt: "s".repeat(400), tools: [], messages });

  it("is the last reply's count plus an estimate of what came after it", () => {
    const m = measureContext(input([user("hi"), reply("hello", 5_000), user("x".repeat(400))]));
    expect(m.counted).toBe(5_010);
    expect(m.estimated).toBe(104);
    expect(m.tokens).toBe(5_114);
  });

  it("ignores counts made before the conversation's summary, and when told to", () => {
    const summary: Message = { role: "user", content: "summary", origin: "summary", timestamp: 100 };
    const stale = measureContext(input([summary, reply("kept from before", 90_000, 50), user("next", 120)]));
    expect(stale.counted).toBe(0);
    expect(stale.tokens).toBeLessThan(200);
    const fresh = measureContext(input([summary, reply("kept", 90_000, 50), reply("after", 3_000, 150)]));
    expect(fresh.counted).toBe(3_010);
    expect(measureContext(input([user("hi"), reply("hello", 5_000)]), false).counted).toBe(0);
  });
});

describe("the cut point", () => {
  it("keeps the newest messages within the budget and never starts at a tool result", () => {
    const messages = [user("a"), reply("call", 0, 2, ["c1"]), result("c1", 4_000), reply("call", 0, 2, ["c2"]), result("c2", 4_000), reply("done", 0)];
    // ~1 000 tokens a result: a 1 500-token budget is reached inside the last result, so the cut is at its call.
    expect(findCutPoint(messages, 0, 1_500)).toBe(3);
    expect(findCutPoint(messages, 0, 100_000)).toBe(0);
  });

  it("keeps the newest turn whole when it alone is larger than the budget", () => {
    const messages = [user("a"), reply("call", 0, 2, ["c1", "c2"]), result("c1", 40_000), result("c2", 40_000)];
    expect(findCutPoint(messages, 0, 1_000)).toBe(1);
  });
});
