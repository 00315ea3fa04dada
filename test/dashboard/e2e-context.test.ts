// End to end: the context window in the dashboard. The status bar's meter fills as the conversation
// grows, /compact with instructions compacts it (the instructions reach the summary request, the
// chat shows the compaction, the meter drops), /context shows where the tokens go, and a reply cut
// at the output limit says so.
import { describe, expect, test } from "vitest";
import type { FakeReply } from "../fake-llm/index.js";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import { isSummaryRequest } from "../helpers/wire-check.js";

endDashboardsAfterEach();

/** A bash call printing 12 000 characters (about 3 000 tokens). */
const bigTurn = (n: number): FakeReply => ({ kind: "reply", text: `Step ${n}.`, toolCalls: [{ name: "bash", arguments: { command: `printf 'out-${n}:%.0s' $(seq 1 2000)` } }], estimateUsage: true });

const meterPercent = (screen: string): number => Number(/(\d+)% of 40k/.exec(screen)?.[1] ?? NaN);

describe("the context window in the dashboard", () => {
  test("the meter fills, /compact <instructions> compacts, /context shows the breakdown", async () => {
    const session = await startDashboard({
      args: ["--context-window", "40k"],
      replies: [bigTurn(1), bigTurn(2), bigTurn(3), { kind: "reply", text: "Three commands ran.", estimateUsage: true }],
    });
    const { t, llm } = session;
    // A slow summary, so a message can be typed while /compact runs.
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- Run three commands (DASHBOARD-SUMMARY)", estimateUsage: true, delayMs: 100 });
    await t.waitForText(/\d+% of 40k/);
    t.type("run three commands");
    t.press("Enter");
    await t.waitForText("Three commands ran.", 30_000);
    const before = meterPercent(await t.waitForText(/● ready.*\d+% of 40k/));
    expect(before).toBeGreaterThan(20);

    t.type("/compact keep the command outputs");
    t.press("Enter");
    await t.waitForText("Compacting the conversation");
    // Typed while compacting: sent once it ends, as a new prompt.
    llm.enqueue({ kind: "reply", text: "Still here.", estimateUsage: true });
    t.type("anything left?");
    t.press("Enter");
    await t.waitForText('Sent once compacting ends: "anything left?"');
    await t.waitForText(/compacted [\d.]+k → [\d.]+k? tokens \(\d+ earlier messages summarised, \d+ kept\)/, 20_000);
    await t.waitForText("Still here.");
    const summaryRequest = llm.requests.find(isSummaryRequest)!;
    expect(summaryRequest.transcript).toContain("focus on: keep the command outputs");
    expect(summaryRequest.transcript).toContain("run three commands");
    const after = meterPercent(await t.waitForText(/● ready.*\d+% of 40k/));
    expect(after).toBeLessThan(before);
    // The prompt sent after compacting carries the summary, not the old turns.
    const last = llm.requests.at(-1)!;
    expect(last.transcript).toContain("DASHBOARD-SUMMARY");
    expect(last.transcript).toContain("anything left?");
    expect(last.transcript).not.toContain("run three commands");

    t.type("/context");
    t.press("Enter");
    const report = await t.waitForText("tool results");
    expect(report).toMatch(/Context: \d+% of 40k tokens \(your --context-window/);
    expect(report).toMatch(/summary\s+[\d.]+k?/);
    expect(report).toContain("tool definitions");
  }, 60_000);

  test("a reply cut at the output limit says so", async () => {
    const session = await startDashboard({ replies: [{ kind: "reply", text: "Half an answer", stopReason: "length" }] });
    const { t } = session;
    t.type("write a book");
    t.press("Enter");
    await t.waitForText("The reply hit the model's output limit and was cut off.");
  }, 30_000);
});
