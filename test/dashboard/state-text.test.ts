// The words on screen match the state, on a headless screen: a started job reads as running and a
// moved bash as moved, until the job ends; retry waits count down; the abort notice speaks of a
// reply only when some had arrived; overlays fit their content and dim what is behind; hints fit
// their pane; a row cut by a pane's edge ends with "…"; the queue sits in the input's border.
import { afterEach, describe, expect, test } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { screenInternals } from "../../panes/screen/blessed-internals.js";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { StatusBar } from "../../panes/status-bar.js";
import { formatRetry } from "../../panes/text/format.js";
import { attr, Flag, flagsOf, lineText } from "../../panes/text/styled-text.js";
import type { JobInfo } from "../../tools/jobs/index.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";

let h: HeadlessScreen | undefined;
afterEach(() => {
  h?.destroy();
  h = undefined;
});

function setup(cols = 120, rows = 40): { view: DashboardView; emit: (e: PitwallEvent) => void; show: () => Promise<string[]> } {
  h = headlessScreen(cols, rows);
  const view = new DashboardView(h.screen, { cwd: "/work", requestFrame: () => undefined, jobScreens: () => undefined });
  const scheduler = new RenderScheduler(h.screen, { beforeFrame: () => view.relayout() });
  const screen = h;
  return {
    view,
    emit: (e) => {
      view.tools.handle(e);
      view.chat.handle(e);
      view.files.handle(e);
      view.jobs.handle(e);
    },
    show: async () => {
      scheduler.frameNow();
      await screen.settle();
      return screen.text();
    },
  };
}

function job(id: string, status: JobInfo["status"], extra: Partial<JobInfo> = {}): JobInfo {
  return { id, command: "npm run dev", cwd: "/work", pid: 4242, startedAt: Date.now() - 5000, status, startedBy: "agent", stdinMode: "pty", restarts: 0, ...extra };
}

function callAndEnd(emit: (e: PitwallEvent) => void, id: string, toolName: string, command: string, runningJob: string): void {
  emit({ type: "tool_execution_start", toolCallId: id, toolName, args: { command } });
  emit({ type: "tool_execution_end", toolCallId: id, toolName, content: "running", isError: false, durationMs: 120, runningJob });
}

function aborted(content: AssistantMessage["content"]): AssistantMessage {
  return { role: "assistant", content, provider: "anthropic", model: "m", usage: emptyUsage(), stopReason: "aborted", timestamp: 0 };
}

describe("state text", () => {
  test("a started job reads \"▶ job 1 up\" until it ends, then how it ended; restarted, up again", async () => {
    const { emit, show } = setup();
    emit({ type: "message_start", message: aborted([]) });
    callAndEnd(emit, "call-1", "bash_stream", "npm run dev", "1");
    emit({ type: "job_started", job: job("1", "running") });
    let rows = await show();
    expect(rows.find((r) => r.includes("bash_stream npm run dev"))).toMatch(/▶ job 1 up\s*│/);
    expect(rows.join("\n")).not.toMatch(/bash_stream npm run dev\s+✓/);
    // The tool output's title says the same.
    expect(rows.find((r) => r.includes("─ tool output: bash_stream"))).toContain("▶ job 1 up");
    emit({ type: "job_exited", job: job("1", "exited", { exitCode: 1, endedAt: Date.now() }) });
    rows = await show();
    expect(rows.find((r) => r.includes("bash_stream npm run dev"))).toMatch(/job 1 exit 1\s*│/);
    emit({ type: "job_started", job: job("1", "running", { restarts: 1 }) });
    rows = await show();
    expect(rows.find((r) => r.includes("bash_stream npm run dev"))).toMatch(/▶ job 1 up\s*│/);
  });

  test("a bash call that outlived its wait reads as moved to its job", async () => {
    const { emit, show } = setup();
    callAndEnd(emit, "call-2", "bash", "npm test -- --watch", "2");
    const rows = await show();
    expect(rows.find((r) => r.includes("bash npm test"))).toMatch(/↷ moved to job 2\s*│/);
  });

  test("Esc before any reply arrived says so; after some arrived, the reply above is what arrived", async () => {
    const nothing = setup();
    nothing.emit({ type: "message_end", message: aborted([]) });
    expect((await nothing.show()).join("\n")).toContain("Aborted before any reply arrived.");
    h?.destroy();
    const some = setup();
    some.emit({ type: "message_end", message: aborted([{ type: "text", text: "Looking at the" }]) });
    const screen = (await some.show()).join("\n");
    expect(screen).toContain("Aborted: the reply above is what arrived before Esc.");
    expect(screen).not.toContain("before any reply");
  });

  test("a retry wait counts down to the next attempt", () => {
    const retry = { at: 10_000, attempt: 2, maxAttempts: 5 };
    expect(formatRetry(retry, 6_000)).toBe("retrying in 4 s, attempt 2/5");
    expect(formatRetry(retry, 8_500)).toBe("retrying in 2 s, attempt 2/5");
    expect(formatRetry(retry, 9_700)).toBe("retrying in 300 ms, attempt 2/5");
    expect(formatRetry(retry, 10_100)).toBe("retrying now, attempt 2/5");
    h = headlessScreen(120, 5);
    const bar = new StatusBar(h.screen);
    bar.state = { ...bar.state, phase: "working", model: "m", retry };
    expect(lineText(bar.line(120, 6_000))).toContain("retrying in 4 s");
    expect(lineText(bar.line(120, 9_000))).toContain("retrying in 1 s");
  });

  test("an overlay is as large as what it holds and dims the panes behind it", async () => {
    const { view, show } = setup();
    view.chat.notice("info", "something behind the overlay");
    view.picker.show("pick one", [[{ text: "first choice", attr: attr() }], [{ text: "second choice", attr: attr() }]], "Enter pick · Esc cancel", { pick: () => undefined, cancel: () => undefined });
    const rows = await show();
    const top = rows.findIndex((r) => r.includes("─ pick one"));
    const box = rows[top]!;
    // Its width: the footer and the items, not the 110 columns overlays may take.
    expect(box.lastIndexOf("┐") - box.indexOf("┌")).toBeLessThan(40);
    // Its height: the items, a blank row and the footer.
    expect(rows[top + 5]).toMatch(/└─+┘/);
    const lines = screenInternals(h!.screen).lines;
    const behind = rows.findIndex((r) => r.includes("something behind"));
    const x = rows[behind]!.indexOf("something");
    expect(flagsOf(lines[behind]![x]![0]) & Flag.dim).toBe(Flag.dim);
    const item = rows.findIndex((r) => r.includes("first choice"));
    expect(flagsOf(lines[item]![rows[item]!.indexOf("first")]![0]) & Flag.dim).toBe(0);
    view.picker.hide();
    await show();
    expect(flagsOf(lines[behind]![x]![0]) & Flag.dim).toBe(0);
  });

  test("an empty pane's hint is a wording that fits it whole", async () => {
    const { view, show } = setup(40, 12);
    view.showKeyHints({ newJob: "Alt+N" });
    view.setFocus("jobs");
    const rows = await show();
    const list = rows.slice(rows.findIndex((r) => r.includes("─ jobs")) + 1, rows.findIndex((r) => r.includes("─ terminal"))).join("\n");
    expect(list).toMatch(/No jobs yet(\.|: | \(\/run starts one\)\.)/);
    expect(list).not.toMatch(/yours \(n\b|…/);
    // The input's placeholder, a hint too, is a shorter wording rather than a cut one.
    expect(rows.find((r) => r.includes("› Ask pitwall"))).not.toContain("…");
  });

  test("a diff line cut by the files pane's edge ends with \"…\"", async () => {
    const { emit, show } = setup(120, 40);
    const long = `export const message = "${"x".repeat(120)}";`;
    emit({
      type: "tool_execution_end",
      toolCallId: "edit-1",
      toolName: "edit",
      content: "edited",
      isError: false,
      durationMs: 5,
      file: { kind: "edit", path: "/work/app.ts", diff: `--- a/app.ts\n+++ b/app.ts\n@@ -1 +1 @@\n-old\n+${long}\n`, linesAdded: 1, linesRemoved: 1 },
    });
    const rows = await show();
    // The files pane is the side column, from the middle of the screen.
    const cut = rows.map((r) => r.slice(60)).filter((r) => r.includes('+export const message = "xxx'));
    expect(cut.length).toBeGreaterThan(0);
    for (const row of cut) expect(row).toMatch(/x…\s*│$/);
  });

  test("a queued message shows in the input's border: no row of the screen moves", async () => {
    const { view, show } = setup();
    const before = await show();
    view.queue.set({ steering: ["also run the linter"], followUp: ["then commit"] });
    const after = await show();
    const border = (rows: string[]): string[] => rows.map((r) => r.replace(/[^─│┌┐└┘├┤┬┴┼]/g, " "));
    const inputTop = after.findIndex((r) => r.includes("↳ steer: also run the linter"));
    expect(after[inputTop]).toContain("↳ follow-up: then commit");
    expect(before[inputTop]).toContain("─ input");
    border(after).forEach((row, y) => {
      if (y !== inputTop) expect(row).toBe(border(before)[y]);
    });
  });
});
