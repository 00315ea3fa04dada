// A resumed session whose older part did not fit in memory: before the first request, that part is
// read again from the file and summarised chunk by chunk, every summary request within the window,
// the summary so far carried into the next; the compaction is recorded, so the next resume loads
// summary + kept turns only.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import { loadSession, olderHistoryOf } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, recordEvents } from "../helpers/agent-harness.js";
import { writeLongSession } from "../helpers/session-files.js";
import { isSummaryRequest, orphanToolResults } from "../helpers/wire-check.js";

const llm = useFakeLlm();
const folder = mkdtempSync(join(tmpdir(), "pitwall-resume-older-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const WINDOW = 64_000;

describe.each(["anthropic", "openai"] as const)("with %s", (provider) => {
  it("summarises the older part from disk in window-sized chunks before the first request, and records it", async () => {
    const path = join(folder, `${provider}.jsonl`);
    writeLongSession(path, { turns: 250, resultChars: 20_000, withoutIds: true });
    const budgetFor = (): number => WINDOW - 16_000;
    const { store, session } = await SessionStore.open(path, { budgetFor });
    expect(session.older!.count).toBeGreaterThan(900);
    expect(session.older!.omitted).toBeUndefined();

    const agent = agentFor(llm, provider, [], { messages: session.messages, olderHistory: olderHistoryOf(session), context: { contextWindow: WINDOW } });
    store.attach(agent.bus);
    const events = recordEvents(agent);
    let n = 0;
    llm.setSummaryReply(() => ({ kind: "reply", text: `## Goal\n- CHUNK-SUMMARY-${++n}`, estimateUsage: true }));
    llm.enqueue({ kind: "reply", text: "Picking up from the summary.", estimateUsage: true });
    expect(agent.olderPending).toBe(session.older!.count);
    await agent.prompt("carry on");

    const summaries = llm.requests.filter(isSummaryRequest);
    expect(summaries.length).toBeGreaterThan(2);
    for (const request of summaries) expect(request.bodyBytes / 4).toBeLessThan(WINDOW);
    expect(summaries[0]!.transcript).toContain("task 0: look at part 0");
    expect(summaries[0]!.transcript).not.toContain("<previous-summary>");
    expect(summaries[1]!.transcript).toContain("<previous-summary>\n## Goal\n- CHUNK-SUMMARY-1");
    expect(events.find((e) => e.type === "compaction_end")).toMatchObject({ reason: "resume", summary: `## Goal\n- CHUNK-SUMMARY-${summaries.length}` });

    const main = llm.requests.at(-1)!;
    expect(isSummaryRequest(main)).toBe(false);
    expect(main.transcript).toContain(`CHUNK-SUMMARY-${summaries.length}`);
    expect(main.transcript).not.toContain("task 0: look at part 0");
    expect(main.transcript).toContain("task 249: look at part 249");
    expect(main.transcript).toContain("carry on");
    expect(main.bodyBytes / 4).toBeLessThan(WINDOW);
    expect(orphanToolResults(main)).toEqual([]);
    expect(agent.olderPending).toBe(0);

    store.close();
    const again = await loadSession(path, { budgetFor });
    expect(again.older).toBeUndefined();
    expect(again.messages[0]).toMatchObject({ origin: "summary", content: expect.stringContaining(`CHUNK-SUMMARY-${summaries.length}`) });
    expect(again.messages.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Picking up from the summary." }] });
  }, 60_000);

  it("tells the summary which oldest messages were left out when the older part passes the cost cap", async () => {
    const path = join(folder, `${provider}-capped.jsonl`);
    writeLongSession(path, { turns: 250, resultChars: 20_000 });
    const { store, session } = await SessionStore.open(path, { budgetFor: () => WINDOW - 16_000, olderCapTokens: 30_000 });
    store.close();
    expect(session.older!.omitted!.count).toBeGreaterThan(0);
    const agent = agentFor(llm, provider, [], { messages: session.messages, olderHistory: olderHistoryOf(session), context: { contextWindow: WINDOW } });
    const events: PitwallEvent[] = recordEvents(agent);
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- CAPPED", estimateUsage: true });
    llm.enqueue({ kind: "reply", text: "ok", estimateUsage: true });
    await agent.prompt("carry on");
    const first = llm.requests.find(isSummaryRequest)!;
    expect(first.transcript).toMatch(/<omitted>\nThe \d+ oldest messages of this session \(lines 2–\d+ of .*\) are left out .* began with the request: "task 0: look at part 0"/);
    expect(first.transcript).not.toContain("task 0: look at part 0\n");
    expect(events.some((e) => e.type === "compaction_end" && e.reason === "resume" && !e.error)).toBe(true);
  }, 60_000);
});
