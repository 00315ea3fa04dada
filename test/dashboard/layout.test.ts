// Where the panes go for a terminal size and what they hold: the chat and the tool output alone at
// full width until a job or a file exists, then a side column whose job terminal is wide enough for
// real logs (or tabs, where a column would be too thin), the tool output growing into the rows the
// chat does not need, nothing moved by a queued message or a taller input, and the small layouts.
import { describe, expect, test } from "vitest";
import { computeLayout, type LayoutInput } from "../../panes/layout.js";

const base = { inputRows: 1, toolOutput: true } as const;

/** The columns of text inside a pane of this width (a border and a margin on each side). */
function innerCols(width: number): number {
  return width - 4;
}

describe("layout", () => {
  test("until a job or a touched file exists, the chat and the tool output take the full width", () => {
    for (const [cols, rows] of [[80, 24], [120, 40], [160, 48], [200, 60]] as const) {
      const layout = computeLayout({ ...base, cols, rows });
      expect(layout.mode).toBe("full");
      expect(Object.keys(layout.main).sort()).toEqual(["chat", "toolOutput"]);
      expect(layout.main.chat!.width).toBe(cols);
      expect(layout.main.toolOutput!.width).toBe(cols);
      expect(layout.jobTerminal).toBeUndefined();
    }
  });

  test("once a job exists, its terminal is at least 80 columns wide at 160, about half the screen", () => {
    const layout = computeLayout({ ...base, cols: 160, rows: 48, jobCount: 1 });
    expect(innerCols(layout.jobTerminal!.width)).toBeGreaterThanOrEqual(80);
    expect(innerCols(layout.main.chat!.width)).toBeGreaterThanOrEqual(72);
    for (const cols of [120, 140, 200, 240]) {
      const wide = computeLayout({ ...base, cols, rows: 48, jobCount: 1 });
      expect(wide.jobTerminal!.width).toBeGreaterThanOrEqual(Math.round(cols / 2));
      expect(wide.main.chat!.width + wide.jobTerminal!.width - 1).toBe(cols);
    }
  });

  test("a touched file alone brings the side column with the files in it; with a job too, the files sit under the terminal", () => {
    const files = computeLayout({ ...base, cols: 160, rows: 48, fileCount: 2 });
    expect(files.main.jobs).toBeUndefined();
    expect(files.main.files).toMatchObject({ top: 0, height: files.main.chat!.height + files.main.toolOutput!.height - 1 });
    const both = computeLayout({ ...base, cols: 120, rows: 40, jobCount: 1, fileCount: 1 });
    const jobs = both.main.jobs!;
    const terminal = both.jobTerminal!;
    const file = both.main.files!;
    expect(terminal.left).toBe(jobs.left);
    expect(terminal.width).toBe(jobs.width);
    expect(terminal.top).toBe(jobs.top + jobs.height - 1);
    expect(file.top).toBe(terminal.top + terminal.height - 1);
    expect(file.top + file.height).toBe(both.main.toolOutput!.top + both.main.toolOutput!.height);
    expect(terminal.height).toBeGreaterThan(file.height);
  });

  test("the tool output grows into the rows the chat's text does not need, up to the chat's share", () => {
    const at = (input: Partial<LayoutInput>) => computeLayout({ ...base, cols: 160, rows: 48, ...input });
    const short = at({ chatRows: () => 4 });
    expect(short.main.chat!.height).toBe(6);
    const long = at({ chatRows: () => 500 });
    expect(long.main.chat!.height).toBe(Math.round(45 * 0.62));
    expect(short.main.toolOutput!.height).toBeGreaterThan(long.main.toolOutput!.height);
    // Both end where the input begins.
    for (const l of [short, long]) expect(l.main.toolOutput!.top + l.main.toolOutput!.height - 1).toBe(l.input.top);
    // Without a call to show, the tool output keeps one row for its hint and the chat the rest.
    const idle = at({ toolOutput: false });
    expect(idle.main.toolOutput!.height).toBe(3);
  });

  test("a taller input takes rows from the bottom panes only; the layout keeps no row for the queue", () => {
    for (const [cols, rows] of [[120, 40], [160, 48], [200, 60]] as const) {
      const input = { ...base, cols, rows, jobCount: 2, fileCount: 1, chatRows: () => 500 };
      const steady = computeLayout(input);
      const tall = computeLayout({ ...input, inputRows: 3 });
      expect(tall.main.chat).toEqual(steady.main.chat);
      expect(tall.main.jobs).toEqual(steady.main.jobs);
      expect(tall.jobTerminal!.top).toBe(steady.jobTerminal!.top);
      expect(tall.input.top).toBe(steady.input.top - 2);
      for (const l of [steady, tall]) {
        expect(l.main.toolOutput!.top + l.main.toolOutput!.height - 1).toBe(l.input.top);
        expect(l.main.files!.top + l.main.files!.height - 1).toBe(l.input.top);
      }
      expect("queue" in steady).toBe(false);
    }
  });

  test("the job list is as tall as its jobs; the terminal gets the rest", () => {
    const rows = (jobCount: number): number => computeLayout({ ...base, cols: 160, rows: 48, jobCount }).main.jobs!.height - 2;
    expect(rows(1)).toBe(1);
    expect(rows(3)).toBe(3);
    expect(rows(40)).toBeLessThan(14);
    // With no job, the list is shown zoomed (or on its tab), two rows for its hint.
    expect(computeLayout({ ...base, cols: 160, rows: 48, zoomed: "jobs" }).main.jobs!.height - 2).toBe(2);
    const one = computeLayout({ ...base, cols: 160, rows: 48, jobCount: 1 });
    const three = computeLayout({ ...base, cols: 160, rows: 48, jobCount: 3 });
    expect(one.jobTerminal!.height - three.jobTerminal!.height).toBe(2);
  });

  test("from 80x24 to below 120 columns a job brings tabs instead of a thin column; the chat tab keeps the tool output under the chat", () => {
    const layout = computeLayout({ ...base, cols: 80, rows: 24, jobCount: 1, tab: "chat" });
    expect(layout.mode).toBe("tabs");
    expect(layout.tabs).toEqual({ left: 0, top: 0, width: 80, height: 1 });
    expect(Object.keys(layout.main).sort()).toEqual(["chat", "toolOutput"]);
    expect(layout.main.chat).toMatchObject({ top: 1, width: 80 });
    const jobs = computeLayout({ ...base, cols: 80, rows: 24, jobCount: 1, tab: "jobs" });
    expect(jobs.jobTerminal!.width).toBe(80);
    expect(jobs.jobTerminal!.height).toBeGreaterThanOrEqual(12);
    expect(computeLayout({ ...base, cols: 119, rows: 40, fileCount: 1 }).mode).toBe("tabs");
    expect(computeLayout({ ...base, cols: 120, rows: 40, fileCount: 1 }).mode).toBe("full");
  });

  test("below 80x24 one pane at a time under a tab bar, down to 40x12; below that nothing but the notice", () => {
    const tabs = computeLayout({ ...base, cols: 50, rows: 15, tab: "toolOutput" });
    expect(tabs.mode).toBe("tabs");
    expect(tabs.tabs).toEqual({ left: 0, top: 0, width: 50, height: 1 });
    expect(Object.keys(tabs.main)).toEqual(["toolOutput"]);
    expect(tabs.main.toolOutput).toEqual({ left: 0, top: 1, width: 50, height: 11 });
    const jobs = computeLayout({ ...base, cols: 40, rows: 12, tab: "jobs", jobCount: 1 });
    expect(jobs.mode).toBe("tabs");
    expect(jobs.main.jobs!.top).toBe(1);
    expect(jobs.jobTerminal!.height).toBeGreaterThanOrEqual(4);
    expect(computeLayout({ ...base, cols: 79, rows: 40 }).mode).toBe("tabs");
    expect(computeLayout({ ...base, cols: 39, rows: 40 }).mode).toBe("tooSmall");
    expect(computeLayout({ ...base, cols: 100, rows: 11 }).mode).toBe("tooSmall");
  });

  test("overlays end above the input's border", () => {
    for (const [cols, rows] of [[80, 24], [50, 15], [160, 48]] as const) {
      const layout = computeLayout({ ...base, cols, rows });
      expect(layout.overlay.top + layout.overlay.height).toBe(layout.input.top);
    }
  });

  test("zoomed, the job list is as tall as its jobs and the terminal takes the rest; other zooms hide it", () => {
    const zoomed = computeLayout({ ...base, cols: 120, rows: 40, zoomed: "jobs", jobCount: 3 });
    expect(zoomed.main.jobs).toEqual({ left: 0, top: 0, width: 120, height: 5 });
    expect(zoomed.jobTerminal).toEqual({ left: 0, top: 4, width: 120, height: 33 });
    expect(computeLayout({ ...base, cols: 120, rows: 40, zoomed: "chat", jobCount: 1 }).jobTerminal).toBeUndefined();
  });
});
