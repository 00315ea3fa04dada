// Automatic compaction against the fake LLM, through both SDKs: when the next request would pass the
// threshold, the older turns are summarised by the model and the request carries summary + the
// newest turns, with every tool result still next to its call.
import { describe, expect, it } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import type { FakeReply, RecordedRequest } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, echoTool, recordEvents } from "../helpers/agent-harness.js";
import { isSummaryRequest, orphanToolResults } from "../helpers/wire-check.js";

const llm = useFakeLlm();

/** A turn that calls echo for ~8 000 characters (about 2 000 tokens), tagged with its number. */
function toolTurn(n: number): FakeReply {
  return { kind: "reply", text: `Step ${n}.`, toolCalls: [{ name: "echo", arguments: { text: `turn-${n}:${"x".repeat(494)}`, times: 16 } }], estimateUsage: true };
}

/** Tool turns until `turns` results came back, then a last answer. */
function longTask(turns: number): (request: RecordedRequest) => FakeReply {
  let n = 0;
  return () => (n < turns ? toolTurn(++n) : { kind: "reply", text: "All done.", estimateUsage: true });
}

const compactions = (events: PitwallEvent[]) => events.filter((e): e is Extract<PitwallEvent, { type: "compaction_end" }> => e.type === "compaction_end");

describe.each(["anthropic", "openai", "responses"] as const)("with %s", (provider) => {
  it("compacts before the request that would pass 80 % of the window, and the next request holds summary + recent turns", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 20_000 } });
    const events = recordEvents(agent);
    llm.setFallback(longTask(10));
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- SUMMARY-OF-EARLIER-WORK: run the long task", estimateUsage: true });
    await agent.prompt("do the long task");

    const ends = compactions(events);
    expect(ends.length).toBeGreaterThanOrEqual(1);
    const first = ends[0]!;
    expect(first).toMatchObject({ reason: "threshold", summary: expect.stringContaining("SUMMARY-OF-EARLIER-WORK") });
    expect(first.error).toBeUndefined();
    expect(first.tokensBefore).toBeGreaterThan(15_000); // the trigger: min(80 % of 20k, 20k − 5k reply reserve)
    expect(first.tokensAfter).toBeLessThan(first.tokensBefore / 2);
    expect(events.findIndex((e) => e.type === "compaction_start")).toBeLessThan(events.indexOf(first));

    const requests = [...llm.requests];
    const summaryAt = requests.findIndex(isSummaryRequest);
    expect(summaryAt).toBeGreaterThan(0);
    // The summary request carries the old turns as a transcript and no tools.
    expect(requests[summaryAt]!.transcript).toContain("do the long task");
    expect(requests[summaryAt]!.transcript).toContain("turn-1:");
    const next = requests[summaryAt + 1]!;
    expect(next.transcript).toContain("[pitwall: summary of the earlier conversation]");
    expect(next.transcript).toContain("SUMMARY-OF-EARLIER-WORK");
    expect(next.transcript).not.toContain("do the long task");
    expect(next.transcript).not.toContain("turn-1:");
    // The newest turn is kept word for word (request k carries the result of turn k).
    expect(next.transcript).toContain(`turn-${summaryAt}:`);
    expect(next.bodyBytes).toBeLessThan(requests[summaryAt - 1]!.bodyBytes / 2);
    for (const request of requests.filter((r) => !isSummaryRequest(r))) expect(orphanToolResults(request)).toEqual([]);

    // The agent holds summary + kept turns, not the history.
    const messages = agent.state.messages;
    expect(messages[0]).toMatchObject({ role: "user", origin: "summary" });
    expect(messages[1]!.role).not.toBe("toolResult");
    const calls = new Set(messages.flatMap((m) => (m.role === "assistant" ? m.content.flatMap((c) => (c.type === "toolCall" ? [c.id] : [])) : [])));
    for (const m of messages) if (m.role === "toolResult") expect(calls.has(m.toolCallId)).toBe(true);
    expect(messages.length).toBeLessThan(14); // of the 22 the run produced
    // agent_end lists only what the run added and is still in the conversation.
    const end = events.find((e) => e.type === "agent_end");
    expect(end?.type === "agent_end" && end.messages.every((m) => messages.includes(m))).toBe(true);
    expect(agent.contextUsage().tokens).toBeLessThan(15_000);
  });

  it("in a small window whose fixed part sits near the threshold, does not summarise a sliver before every request", async () => {
    // 8k window at 50 %: threshold 4k, requests fit up to 6k; the system prompt alone is ~3.5k.
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 8_000, compactAtPercent: 50 }, systemPrompt: "You are a test agent. ".repeat(640) });
    let n = 0;
    llm.setFallback(() => (n < 12 ? { kind: "reply", toolCalls: [{ name: "echo", arguments: { text: `small-${++n}:${"s".repeat(300)}`, times: 2 } }], estimateUsage: true } : { kind: "reply", text: "done", estimateUsage: true }));
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- short", estimateUsage: true });
    await agent.prompt("many small steps");
    const kinds = llm.requests.map((r) => (isSummaryRequest(r) ? "S" : "r")).join("");
    expect(kinds).toContain("S");
    // Every summary is followed by several requests before the next one.
    expect(kinds).not.toMatch(/Sr{0,2}S/);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  });

  it("goes on without compacting when the summary request fails and the request still fits, and says so", async () => {
    // Compacting at 60 % leaves room between the threshold (12k) and what still fits (20k − 5k reserve).
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 20_000, compactAtPercent: 60 } });
    const events = recordEvents(agent);
    llm.setFallback(longTask(6));
    llm.setSummaryReply({ kind: "error", status: 400, message: "summaries are switched off here" });
    await agent.prompt("do the long task");
    const failed = compactions(events).find((e) => e.error);
    expect(failed?.error).toContain("summaries are switched off here");
    // The turn was not lost: the last answer arrived and nothing was summarised.
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
    expect(agent.state.messages[0]).toMatchObject({ role: "user", content: "do the long task" });
    expect(agent.state.error).toBeUndefined();
  });

  it("fails the turn with a clear message when the summary fails and the request no longer fits", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 20_000 } });
    const events = recordEvents(agent);
    llm.setFallback(longTask(12));
    llm.setSummaryReply({ kind: "error", status: 400, message: "summaries are switched off here" });
    await agent.prompt("do the long task");
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(last?.role === "assistant" && last.errorMessage).toMatch(/no longer fits the context window .* compacting it failed \(.*summaries are switched off here.*\)\. Try \/compact again, or \/new/);
    expect(events.some((e) => e.type === "error" && e.source === "provider")).toBe(true);
  });
});
