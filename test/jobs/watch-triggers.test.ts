// The trigger engine without a process: lines in, firings out, time from a fake clock. What a person
// watching a job expects: one firing per burst with context, at most one per window, nothing lost,
// bad patterns refused with a way forward, and no pattern able to freeze anything.
import { describe, expect, it } from "vitest";
import type { Clock } from "../../tools/jobs/watch/clock.js";
import { firingLines, firingText, foldFirings } from "../../tools/jobs/watch/firing-text.js";
import { JobWatches } from "../../tools/jobs/watch/job-watches.js";
import { GATHER_MS, SETTLE_MS, TriggerSet } from "../../tools/jobs/watch/trigger-set.js";
import { MAX_TRIGGERS_PER_JOB, WatchError, type TriggerSpec } from "../../tools/jobs/watch/trigger-spec.js";
import { JobNotices } from "../../tools/jobs/registry/job-notices.js";
import { noticeTexts } from "./helpers.js";
import type { LogLine, TriggerFiring, JobTriggeredEvent, WatchEvent } from "../../tools/jobs/events.js";

class FakeClock implements Clock {
  time = 1_000_000;
  private timers: Array<{ at: number; run: () => void; live: boolean }> = [];

  now(): number {
    return this.time;
  }

  schedule(run: () => void, ms: number): () => void {
    const timer = { at: this.time + Math.max(0, ms), run, live: true };
    this.timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  /** Moves time forward, running each timer when its time comes. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.live && t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.time = Math.max(this.time, next.at);
      next.live = false;
      next.run();
    }
    this.time = end;
    this.timers = this.timers.filter((t) => t.live);
  }
}

function engine(debounceMs = 10_000) {
  const clock = new FakeClock();
  const firings: TriggerFiring[] = [];
  const set = new TriggerSet({ debounceMs, clock, onFire: (f) => firings.push(f) });
  let n = 0;
  const print = (...texts: string[]): void => set.feed(texts.map((text): LogLine => ({ n: ++n, text })));
  const spec = (pattern: string, extra: Partial<TriggerSpec> = {}): TriggerSpec => ({ pattern, action: "steer", setBy: "agent", ...extra });
  return { clock, firings, set, print, spec };
}

describe("a watch trigger", () => {
  it("fires once the burst settles, with the matching line and 3 lines of context before and after", () => {
    const { clock, firings, set, print, spec } = engine();
    set.add(spec("FAIL"));
    print("RUN  v4", "✓ adds", "✓ subtracts", "✓ multiplies", "FAIL test/app.test.ts > sums", "  expected 2", "  received 3", "  at sum.ts:3", "Tests: 1 failed");
    expect(firings).toEqual([]);
    clock.advance(SETTLE_MS);
    expect(firings).toHaveLength(1);
    const [firing] = firings;
    expect(firing!.matches).toBe(1);
    expect(firing!.lines.map((l) => [l.n, l.match])).toEqual([
      [2, false],
      [3, false],
      [4, false],
      [5, true],
      [6, false],
      [7, false],
      [8, false],
    ]);
    expect(firingLines(firing!.lines)).toEqual([
      "  2 | ✓ adds",
      "  3 | ✓ subtracts",
      "  4 | ✓ multiplies",
      "> 5 | FAIL test/app.test.ts > sums",
      "  6 |   expected 2",
      "  7 |   received 3",
      "  8 |   at sum.ts:3",
    ]);
    expect(firing!.trigger).toMatchObject({ id: 1, pattern: "FAIL", action: "steer", fired: 1 });
  });

  it("takes context before a match from earlier chunks of output, and after it from later ones", () => {
    const { clock, firings, set, print, spec } = engine();
    set.add(spec("boom"));
    print("one", "two");
    print("three");
    print("boom");
    print("after 1");
    print("after 2", "after 3", "after 4");
    clock.advance(SETTLE_MS);
    expect(firings[0]!.lines.map((l) => l.text)).toEqual(["one", "two", "three", "boom", "after 1", "after 2", "after 3"]);
  });

  it("does not show again the lines its previous firing showed: the next firing's context starts after them", () => {
    const { clock, firings, set, print, spec } = engine(1_000);
    set.add(spec("FAIL"));
    print("l1", "l2", "l3", "FAIL 4", "l5", "l6", "l7");
    clock.advance(SETTLE_MS);
    print("FAIL 8", "l9");
    clock.advance(1_000);
    expect(firings.map((f) => f.lines.map((l) => l.n))).toEqual([
      [1, 2, 3, 4, 5, 6, 7],
      [8, 9],
    ]);
    // After a restart the lines are numbered anew: context is shown again.
    set.restarted();
    print("r1", "FAIL r2");
    clock.advance(1_000);
    expect(firings[2]!.lines.map((l) => l.text)).toEqual(["r1", "FAIL r2"]);
  });

  it("merges overlapping context and marks gaps between separate matches", () => {
    const { clock, firings, set, print, spec } = engine();
    set.add(spec("ERR"));
    print("a", "ERR 1", "b", "ERR 2", "c", "d", "e", "f", "g", "h", "i", "ERR 3", "j");
    clock.advance(SETTLE_MS);
    expect(firingLines(firings[0]!.lines)).toEqual([
      "   1 | a",
      ">  2 | ERR 1",
      "   3 | b",
      ">  4 | ERR 2",
      "   5 | c",
      "   6 | d",
      "   7 | e",
      "  …",
      "   9 | g",
      "  10 | h",
      "  11 | i",
      "> 12 | ERR 3",
      "  13 | j",
    ]);
    expect(firings[0]!.matches).toBe(3);
  });

  it("debounces: a flood of matches gives one firing per window, each batching what came meanwhile, nothing lost", () => {
    const { clock, firings, set, print, spec } = engine(5_000);
    set.add(spec("FAIL"));
    // A first burst: 3 failures within a few ms.
    print("FAIL a", "FAIL b", "FAIL c");
    clock.advance(SETTLE_MS);
    expect(firings).toHaveLength(1);
    expect(firings[0]!.matches).toBe(3);
    // For the next 12 s, a failure every 100 ms: 120 of them.
    for (let i = 0; i < 120; i++) {
      print(`FAIL flood ${i}`);
      clock.advance(100);
    }
    clock.advance(5_000);
    const times = firings.map((f) => f.firedAt);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5_000);
    // 12 s of flood after the first firing at 0.25 s: windows end at 5.25 s, 10.25 s, then the rest.
    expect(firings).toHaveLength(4);
    expect(firings.reduce((sum, f) => sum + f.matches, 0)).toBe(123);
    // Each firing shows the first matches whole and says where the others are.
    const second = firings[1]!;
    expect(second.lines.filter((l) => l.match)).toHaveLength(8);
    expect(second.omitted).toEqual({ count: second.matches - 8, fromLine: 12, toLine: 3 + second.matches });
    expect(firingText({ type: "job_triggered", jobId: "2", command: "npm test", ...second })).toMatch(
      new RegExp(`\\[${second.matches - 8} more matching lines not shown \\(lines 12–${3 + second.matches}\\): get_process_log with jobId "2" and offset 12 reads them\\.\\]$`),
    );
  });

  it("fires a burst that keeps going after a second at most, not when it stops", () => {
    const { clock, firings, set, print, spec } = engine(60_000);
    set.add(spec("tick"));
    for (let i = 0; i < 30; i++) {
      print(`tick ${i}`);
      clock.advance(100);
    }
    expect(firings).toHaveLength(1);
    expect(firings[0]!.firedAt - 1_000_000).toBeLessThanOrEqual(GATHER_MS + 100);
  });

  it("uses smart case: lower-case patterns ignore case, one with a capital letter does not; ignoreCase overrides", () => {
    const { clock, firings, set, print, spec } = engine();
    expect(set.add(spec("error")).ignoreCase).toBe(true);
    expect(set.add(spec("FAIL")).ignoreCase).toBe(false);
    expect(set.add(spec("\\Wpanic\\S", {})).ignoreCase).toBe(true);
    expect(set.add(spec("warn", { ignoreCase: false })).ignoreCase).toBe(false);
    print("Error: x", "fail y", " panic!", "WARN z");
    clock.advance(SETTLE_MS);
    expect(firings.map((f) => f.trigger.id).sort()).toEqual([1, 3]);
  });

  it("refuses an invalid pattern, lookaround and backreferences with a message that says what to do", () => {
    const { set, spec } = engine();
    expect(() => set.add(spec("FAIL ("))).toThrow(WatchError);
    expect(() => set.add(spec("FAIL ("))).toThrow(/"FAIL \(" is not a valid regular expression \(missing closing \).*Escape special characters/);
    expect(() => set.add(spec("(?<!not )ok"))).toThrow(/lookahead or lookbehind, which is not supported.*Watch for the main part without the assertion instead: every firing shows 3 lines of context/);
    expect(() => set.add(spec("(\\w+) \\1"))).toThrow(/backreference, which is not supported.*Spell the repeated text out instead, e\.g\. \(FAIL\|ERROR\)/);
    expect(() => set.add(spec("  "))).toThrow(/empty/);
    expect(set.size).toBe(0);
  });

  it(`allows at most ${MAX_TRIGGERS_PER_JOB} triggers on a job`, () => {
    const { set, spec } = engine();
    for (let i = 0; i < MAX_TRIGGERS_PER_JOB; i++) set.add(spec(`p${i}`));
    expect(() => set.add(spec("one more"))).toThrow(/already has 32 triggers.*combine patterns with \|/);
  });

  it("runs a catastrophic pattern in linear time: the lines after it still reach the other triggers", () => {
    const { clock, firings, set, print, spec } = engine();
    set.add(spec("(a+)+$"));
    set.add(spec("(x+x+)+y"));
    set.add(spec("FAIL"));
    // Backtracking engines take exponential time on these; RE2 reads each line once.
    print("a".repeat(16_000) + "!", "x".repeat(16_000), "FAIL after the hard lines");
    clock.advance(SETTLE_MS);
    expect(firings.map((f) => f.trigger.pattern)).toEqual(["FAIL"]);
  });

  it("never misses a line because of the batch pre-test, even with absolute anchors", () => {
    const { clock, firings, set, print, spec } = engine();
    set.add(spec("\\Adone\\z"));
    set.add(spec("^exit (\\d+)$"));
    print("working", "done", "exit 3", "more");
    clock.advance(SETTLE_MS);
    expect(firings.map((f) => f.lines.find((l) => l.match)!.text)).toEqual(["done", "exit 3"]);
  });

  it("drops a removed trigger's pending firing; a restart fires the old run's batch at once", () => {
    const { clock, firings, set, print, spec } = engine();
    const first = set.add(spec("gone"));
    set.add(spec("kept"));
    print("gone 1", "kept 1");
    expect(set.remove(first.id).map((t) => t.id)).toEqual([first.id]);
    set.restarted();
    expect(firings.map((f) => f.trigger.pattern)).toEqual(["kept"]);
    clock.advance(60_000);
    expect(firings).toHaveLength(1);
    expect(set.remove().map((t) => t.pattern)).toEqual(["kept"]);
  });
});

describe("the watches of a registry's jobs", () => {
  it("feed a job's lines to its triggers in batches and publish firings and changes as plain JSON events", async () => {
    const clock = new FakeClock();
    const events: WatchEvent[] = [];
    const watches = new JobWatches({ debounceMs: 10_000, clock, emit: (e) => events.push(e) });
    let listener: ((line: string, n: number) => void) | undefined;
    watches.attach({ id: "2", command: "npm test -- --watch", log: { onLine: (l) => ((listener = l), () => (listener = undefined)) } });
    expect(() => watches.add("9", { pattern: "x", action: "wake", setBy: "person" })).toThrow(/No job with id "9"\. Known jobs: 2\./);
    const added = watches.add("2", { pattern: "FAIL", action: "wake", setBy: "person" });
    expect(events.at(-1)).toEqual({ type: "job_triggers_changed", jobId: "2", triggers: [added], added, by: "person" });
    listener!("ok", 1);
    listener!("FAIL x", 2);
    await Promise.resolve();
    clock.advance(SETTLE_MS);
    const fired = events.at(-1)!;
    expect(fired).toMatchObject({ type: "job_triggered", jobId: "2", command: "npm test -- --watch", matches: 1 });
    expect(JSON.parse(JSON.stringify(fired))).toEqual(fired);
    expect(() => watches.remove("2", 7, "person")).toThrow(/Job 2 has no trigger 7\. Its triggers: 1\./);
    watches.forget("2");
    expect(events.at(-1)).toEqual({ type: "job_triggers_changed", jobId: "2", triggers: [] });
    expect(listener).toBeUndefined();
  });
});

describe("notify firings waiting for the model's next request", () => {
  const notifyFiring = (triggerId: number, n: number, text: string): JobTriggeredEvent => ({
    type: "job_triggered",
    jobId: "3",
    command: "npm run dev",
    trigger: { id: triggerId, pattern: "Error", action: "notify", ignoreCase: false, debounceMs: 10_000, setBy: "person", fired: 1 },
    lines: [{ n, text, match: true }],
    matches: 1,
    firedAt: 0,
  });

  it("merge per trigger, in the order they first fired, with the other notices", () => {
    const notices = new JobNotices();
    notices.triggerFired(notifyFiring(1, 5, "Error: first"));
    notices.personAction("The person started job 4: make");
    notices.triggerFired(notifyFiring(2, 6, "Error: other trigger"));
    for (const n of [9, 14, 20]) notices.triggerFired(notifyFiring(1, n, `Error: at ${n}`));
    const drained = noticeTexts(notices.drain());
    expect(drained).toHaveLength(3);
    expect(drained[0]).toContain("> 5 | Error: first\n[Trigger 1 fired 4 times before this message was read: the first firing is above, the latest below. The 2 between are left out (lines 9–14: get_process_log with jobId \"3\" and offset 9 reads them).]");
    expect(drained[0]).toMatch(/> 20 \| Error: at 20$/);
    expect(drained.slice(1)).toEqual(["The person started job 4: make", firingText(notifyFiring(2, 6, "Error: other trigger"))]);
    // Once drained, a firing is a notice of its own again.
    notices.triggerFired(notifyFiring(1, 30, "Error: later"));
    expect(noticeTexts(notices.drain())).toEqual([firingText(notifyFiring(1, 30, "Error: later"))]);
  });

  it("do not point at line numbers of an earlier run once the job restarted", () => {
    const notices = new JobNotices();
    for (const n of [50, 60, 70, 3, 8]) notices.triggerFired(notifyFiring(1, n, `Error: at ${n}`));
    expect(noticeTexts(notices.drain())[0]).toContain("The 3 between are left out.]");
  });

  it("fold to their headlines for the chat, which showed their lines when they fired, naming whose trigger as the person reads it; other notices stay whole", () => {
    const notices = new JobNotices();
    notices.personAction("The person started job 4: make");
    for (const n of [5, 9, 14]) notices.triggerFired(notifyFiring(1, n, `Error: at ${n}`));
    const agents = notifyFiring(2, 20, "Error: the agent's");
    notices.triggerFired({ ...agents, trigger: { ...agents.trigger, setBy: "agent" } });
    notices.personAction("The person stopped job 4 (make).");
    const drained = noticeTexts(notices.drain()).join("\n");
    // The model reads them from its side: the agent's trigger is "set by you".
    expect(drained).toContain("job 3 printed (watch trigger 2 /Error/, set by you, on: npm run dev):");
    expect(foldFirings(drained)).toBe(
      [
        "The person started job 4: make",
        "job 3 printed (watch trigger 1 /Error/, set by you, on: npm run dev): 1 line, shown above when it fired",
        "job 3 printed (watch trigger 1 /Error/, set by you, on: npm run dev): 1 line, shown above when it fired",
        "job 3 printed (watch trigger 2 /Error/, set by the agent, on: npm run dev): 1 line, shown above when it fired",
        "The person stopped job 4 (make).",
      ].join("\n"),
    );
  });
});
