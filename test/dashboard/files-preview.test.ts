// The files pane's preview: the language from a file's name, reading capped and binary-aware, numbered
// and highlighted rows, and where the job terminal goes in the layout.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FilePreview, fullView, languageOf, readTextFile } from "../../panes/files/files-preview.js";
import { computeLayout } from "../../panes/layout.js";
import { loadHighlighter } from "../../panes/markdown/code-highlight.js";
import { fgOf, lineText } from "../../panes/text/styled-text.js";
import { tempDir } from "../helpers/temp-dir.js";
import { waitFor } from "../helpers/conditions.js";

function folder(): string {
  return tempDir("preview");
}


describe("files preview", () => {
  test("the language comes from the extension or the name", () => {
    expect(languageOf("/a/b/app.ts")).toBe("ts");
    expect(languageOf("/a/b/x.mjs")).toBe("javascript");
    expect(languageOf("/a/Makefile")).toBe("makefile");
    expect(languageOf("/a/README")).toBeUndefined();
  });

  test("reads text capped at whole lines, tells binary files and missing ones", async () => {
    const dir = folder();
    writeFileSync(join(dir, "a.txt"), "one\ntwo\nthree\n");
    writeFileSync(join(dir, "bin.dat"), Buffer.from([1, 2, 0, 3]));
    expect(await readTextFile(join(dir, "a.txt"), 1000)).toEqual({ kind: "text", lines: ["one", "two", "three"], size: 14, truncated: false });
    expect(await readTextFile(join(dir, "a.txt"), 9)).toEqual({ kind: "text", lines: ["one", "two"], size: 14, truncated: true });
    expect(await readTextFile(join(dir, "bin.dat"), 1000)).toEqual({ kind: "binary", size: 4 });
    expect(await readTextFile(join(dir, "gone.txt"), 1000)).toEqual({ kind: "error", message: "The file no longer exists." });
  });

  test("a preview is read once per touch, numbered, highlighted when the highlighter is loaded; a diff is coloured", async () => {
    await loadHighlighter();
    const dir = folder();
    const path = join(dir, "app.ts");
    writeFileSync(path, Array.from({ length: 30 }, (_, i) => `const v${i} = ${i};`).join("\n") + "\n");
    let loads = 0;
    const preview = new FilePreview(() => loads++);
    preview.show({ path, at: 1 }, "file");
    expect(lineText(preview.rows(0, 3)[0]!)).toBe("loading…");
    await waitFor(() => loads > 0, "the file to load");
    preview.show({ path, at: 1 }, "file");
    expect(loads).toBe(1);
    expect(preview.lineCount).toBe(30);
    const rows = preview.rows(10, 3);
    expect(rows.map(lineText)).toEqual(["11 const v10 = 10;", "12 const v11 = 11;", "13 const v12 = 12;"]);
    // "const" is a keyword: coloured, unlike the line number's grey and plain text.
    const keyword = rows[0]!.find((s) => s.text === "const");
    expect(keyword).toBeDefined();
    expect(fgOf(keyword!.attr)).not.toBe(0x1ff);

    preview.show({ path, at: 2, lastDiff: "--- a\n+++ b\n@@ -1,3 +1,3 @@\n one\n-old\n+new\n" }, "diff");
    expect(preview.showingDiff).toBe(true);
    const diff = preview.rows(0, 10);
    // The file headers are left out (the rule above names the file); the preview opens one line above the first change.
    expect(diff.map(lineText)).toEqual(["@@ -1,3 +1,3 @@", " one", "-old", "+new"]);
    expect(fgOf(diff[2]![0]!.attr)).toBe(1);
    expect(fgOf(diff[3]![0]!.attr)).toBe(2);
    expect(preview.startRow).toBe(1);
    expect((await fullView({ path, at: 3 }, "file")).length).toBe(30);
  });
});

describe("layout with the job terminal", () => {
  test("the terminal sits between the job list and the files, sharing their borders", () => {
    const layout = computeLayout({ cols: 120, rows: 40, inputRows: 1, queueRows: 0 });
    const jobs = layout.main.jobs!;
    const terminal = layout.jobTerminal!;
    const files = layout.main.files!;
    expect(terminal.left).toBe(jobs.left);
    expect(terminal.width).toBe(jobs.width);
    expect(terminal.top).toBe(jobs.top + jobs.height - 1);
    expect(files.top).toBe(terminal.top + terminal.height - 1);
    expect(files.top + files.height).toBe(layout.main.toolOutput!.top + layout.main.toolOutput!.height);
    expect(terminal.height).toBeGreaterThan(jobs.height);
  });

  test("both columns split at one row, which a queued message or a taller input does not move", () => {
    for (const [cols, rows] of [[80, 24], [120, 40], [160, 48], [200, 60]] as const) {
      const steady = computeLayout({ cols, rows, inputRows: 1, queueRows: 0, jobCount: 2 });
      expect(steady.mode).toBe("full");
      // The chat's bottom border is the tool output's top border, and the files' top border: one row.
      const split = steady.main.toolOutput!.top;
      expect(steady.main.chat!.top + steady.main.chat!.height - 1).toBe(split);
      expect(steady.main.files!.top).toBe(split);
      expect(steady.jobTerminal!.top + steady.jobTerminal!.height - 1).toBe(split);
      for (const busy of [computeLayout({ cols, rows, inputRows: 1, queueRows: 2, jobCount: 2 }), computeLayout({ cols, rows, inputRows: 3, queueRows: 1, jobCount: 2 })]) {
        expect(busy.main.toolOutput!.top).toBe(split);
        expect(busy.main.files!.top).toBe(split);
        expect(busy.main.files!.top + busy.main.files!.height).toBe(busy.queue.height > 0 ? busy.queue.top : busy.input.top + 1);
      }
    }
  });

  test("the job list is as tall as its jobs; the terminal gets the rest", () => {
    const rows = (jobCount: number): number => computeLayout({ cols: 160, rows: 48, inputRows: 1, queueRows: 0, jobCount }).main.jobs!.height - 2;
    expect(rows(0)).toBe(2);
    expect(rows(1)).toBe(1);
    expect(rows(3)).toBe(3);
    expect(rows(40)).toBeLessThan(14);
    const one = computeLayout({ cols: 160, rows: 48, inputRows: 1, queueRows: 0, jobCount: 1 });
    const three = computeLayout({ cols: 160, rows: 48, inputRows: 1, queueRows: 0, jobCount: 3 });
    expect(one.jobTerminal!.height - three.jobTerminal!.height).toBe(2);
  });

  test("below 80x24 one pane at a time under a tab bar, down to 40x12; below that nothing but the notice", () => {
    const tabs = computeLayout({ cols: 50, rows: 15, inputRows: 1, queueRows: 0, tab: "toolOutput" });
    expect(tabs.mode).toBe("tabs");
    expect(tabs.tabs).toEqual({ left: 0, top: 0, width: 50, height: 1 });
    expect(Object.keys(tabs.main)).toEqual(["toolOutput"]);
    expect(tabs.main.toolOutput).toEqual({ left: 0, top: 1, width: 50, height: 11 });
    const jobs = computeLayout({ cols: 40, rows: 12, inputRows: 1, queueRows: 0, tab: "jobs", jobCount: 1 });
    expect(jobs.mode).toBe("tabs");
    expect(jobs.main.jobs!.top).toBe(1);
    expect(jobs.jobTerminal!.height).toBeGreaterThanOrEqual(4);
    expect(computeLayout({ cols: 79, rows: 40, inputRows: 1, queueRows: 0 }).mode).toBe("tabs");
    expect(computeLayout({ cols: 39, rows: 40, inputRows: 1, queueRows: 0 }).mode).toBe("tooSmall");
    expect(computeLayout({ cols: 100, rows: 11, inputRows: 1, queueRows: 0 }).mode).toBe("tooSmall");
  });

  test("overlays end above the input's border", () => {
    for (const [cols, rows] of [[80, 24], [50, 15], [160, 48]] as const) {
      const layout = computeLayout({ cols, rows, inputRows: 1, queueRows: 0 });
      expect(layout.overlay.top + layout.overlay.height).toBe(layout.input.top);
    }
  });

  test("zoomed, the job list is as tall as its jobs and the terminal takes the rest; other zooms hide it", () => {
    const zoomed = computeLayout({ cols: 120, rows: 40, inputRows: 1, queueRows: 0, zoomed: "jobs", jobCount: 3 });
    expect(zoomed.main.jobs).toEqual({ left: 0, top: 0, width: 120, height: 5 });
    expect(zoomed.jobTerminal).toEqual({ left: 0, top: 4, width: 120, height: 33 });
    expect(computeLayout({ cols: 120, rows: 40, inputRows: 1, queueRows: 0, zoomed: "chat" }).jobTerminal).toBeUndefined();
    const small = computeLayout({ cols: 80, rows: 24, inputRows: 1, queueRows: 0 });
    expect(small.jobTerminal!.height).toBeGreaterThanOrEqual(5);
    expect(small.main.files!.height).toBeGreaterThanOrEqual(4);
  });
});
