// The files pane's preview: the language from a file's name, reading capped and binary-aware, numbered
// and highlighted rows. (Where the panes go: layout.test.ts.)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FilePreview, fullView, languageOf, readTextFile } from "../../panes/files/files-preview.js";
import { loadHighlighter } from "../../panes/markdown/code-highlight.js";
import { Color, fgOf, lineText } from "../../panes/text/styled-text.js";
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
    expect(fgOf(diff[2]![0]!.attr)).toBe(Color.red);
    expect(fgOf(diff[3]![0]!.attr)).toBe(Color.green);
    expect(preview.startRow).toBe(1);
    expect((await fullView({ path, at: 3 }, "file")).length).toBe(30);
  });
});
