// Widths, word wrap, and program output with escape sequences as panes see them.
import { describe, expect, test } from "vitest";
import { attr, lineText, Palette, PLAIN } from "../../panes/text/styled-text.js";
import { applySgr, sanitizeText, TerminalTextLog } from "../../panes/text/terminal-text.js";
import { graphemeWidth, textWidth, truncateText } from "../../panes/text/text-width.js";
import { wrapLine } from "../../panes/text/wrap.js";

describe("widths", () => {
  test("emoji and CJK take two columns, accents and zero-width characters none of their own", () => {
    expect(textWidth("🚀✅⌛")).toBe(6);
    expect(textWidth("中文")).toBe(4);
    expect(textWidth("e\u0301")).toBe(1);
    expect(textWidth("a\u200bb")).toBe(2);
    // Shown in a form every terminal agrees on: the family's first emoji, the heart without VS16.
    expect(graphemeWidth("👨‍👩‍👧")).toBe(2);
    expect(graphemeWidth("❤️")).toBe(1);
    expect(graphemeWidth("🇫🇷")).toBe(2);
  });

  test("truncation never cuts a wide character in half", () => {
    expect(truncateText("ab中文", 4)).toBe("ab…");
    expect(textWidth(truncateText("🚀🚀🚀🚀", 5))).toBeLessThanOrEqual(5);
  });
});

describe("word wrap", () => {
  test("breaks at spaces, keeps styles, indents continuation rows", () => {
    const bold = attr({ bold: true });
    const rows = wrapLine([{ text: "one two ", attr: PLAIN }, { text: "three four", attr: bold }], 9, { indent: 2 });
    expect(rows.map(lineText)).toEqual(["one two", "  three", "  four"]);
    expect(rows[1]!.find((s) => s.text === "three")?.attr).toBe(bold);
  });

  test("hard-breaks a word longer than the row, and counts wide characters as two", () => {
    expect(wrapLine([{ text: "abcdefghij", attr: PLAIN }], 4).map(lineText)).toEqual(["abcd", "efgh", "ij"]);
    for (const row of wrapLine([{ text: "中文中文中文 and 🚀🚀🚀", attr: PLAIN }], 5)) expect(textWidth(lineText(row))).toBeLessThanOrEqual(5);
  });
});

describe("program output", () => {
  test("keeps colours, drops cursor moves and titles, resolves carriage returns", () => {
    const log = new TerminalTextLog();
    log.write("\x1b]0;title\x07\x1b[31mred\x1b[0m plain\x1b[2K\n");
    log.write("progress 10%\rprogress 50%\rprogress 100%\n");
    log.write("a\tb\n");
    expect(lineText(log.line(0)!)).toBe("red plain");
    expect(log.line(0)![0]).toEqual({ text: "red", attr: attr({ fg: Palette.red }) });
    expect(lineText(log.line(1)!)).toBe("progress 100%");
    expect(lineText(log.line(2)!)).toBe("a       b");
  });

  test("an escape sequence split between chunks is still understood", () => {
    const log = new TerminalTextLog();
    log.write("x\x1b[3");
    log.write("2mgreen\n");
    expect(log.line(0)).toEqual([{ text: "x", attr: PLAIN }, { text: "green", attr: attr({ fg: Palette.green }) }]);
  });

  test("stays bounded: old lines are dropped and counted", () => {
    const log = new TerminalTextLog({ maxLines: 100 });
    for (let i = 0; i < 1000; i++) log.write(`line ${i}\n`);
    expect(log.lineCount).toBeGreaterThanOrEqual(100);
    expect(log.lineCount).toBeLessThanOrEqual(164);
    expect(log.dropped + log.lineCount).toBe(1000);
    expect(lineText(log.line(0)!)).toBe(`line ${log.dropped}`);
    const big = new TerminalTextLog({ maxLines: 5000 });
    for (let i = 0; i < 200; i++) big.write(`${"x\n".repeat(4999)}line ${i} `);
    big.write("end\n");
    expect(big.dropped + big.lineCount).toBe(200 * 4999 + 1);
    expect(lineText(big.line(big.lineCount - 1)!)).toBe("line 199 end");
  });

  test("whole plain lines wait as raw text until read: read after every write, only the bottom rows, or only at the end, the same lines and counts", () => {
    const pieces = ["x", "line", "\n", "\x1b[31m", "\x1b[0m", "\r", "\t", "\b", "\x1b[3", "2m", "ab\ncd\n", "é✓", "y".repeat(50)];
    const plainPieces = ["x", "line", "\n", "ab\ncd\n", "é✓", "y".repeat(50)];
    let seed = 11;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const dump = (log: TerminalTextLog): string => JSON.stringify({ count: log.lineCount, dropped: log.dropped, lines: Array.from({ length: log.lineCount }, (_, i) => log.line(i)) });
    // A line under way that cannot wait as raw text (here an empty segment) ends after the waiting lines.
    const order = new TerminalTextLog();
    order.write("a\nb\nc\n");
    order.write("\nd\n");
    expect(order.line(3)).toEqual([{ text: "", attr: PLAIN }]);
    expect([0, 1, 2, 3, 4].map((i) => lineText(order.line(i) ?? []))).toEqual(["a", "b", "c", "", "d"]);
    // A waiting line longer than a line may be is cut as a made one is, read from either end.
    const long = new TerminalTextLog({ maxLines: 1000 });
    long.write(`a\n${"z".repeat(5000)}\nb\n`);
    expect(lineText(long.line(1)!)).toBe(`${"z".repeat(4000)}…`);
    expect(lineText(long.line(2)!)).toBe("b");
    for (let trial = 0; trial < 600; trial++) {
      const maxLines = [3, 5, 10, 100, 1000][next(5)]!;
      // Mostly plain output (lines wait as raw text) in half the trials, any output in the rest.
      const mostlyPlain = next(2) === 0;
      const atEnd = new TerminalTextLog({ maxLines });
      // Settles on every read: the lines as they were made before any waited as raw text.
      const eager = new TerminalTextLog({ maxLines, tailReadLines: 0 });
      // A pane's bottom rows after every write: read back from the raw text's end.
      const bottom = new TerminalTextLog({ maxLines });
      for (let writes = 1 + next(30); writes > 0; writes--) {
        let chunk = "";
        // Now and then a chunk of many lines, more than the log keeps.
        for (let k = next(5) === 0 ? 50 + next(next(4) === 0 ? 3000 : 400) : 1 + next(12); k > 0; k--) {
          chunk += next(3) === 0 ? "\n" : mostlyPlain && next(30) !== 0 ? plainPieces[next(plainPieces.length)]! : pieces[next(pieces.length)]!;
        }
        for (const log of [atEnd, eager, bottom]) log.write(chunk);
        eager.line(0);
        const rows = next(300);
        const shown = Array.from({ length: Math.min(rows, bottom.lineCount) }, (_, k) => bottom.line(bottom.lineCount - 1 - k));
        const settled = Array.from({ length: shown.length }, (_, k) => eager.line(eager.lineCount - 1 - k));
        expect(JSON.stringify(shown), `trial ${trial}: the bottom ${rows} rows`).toBe(JSON.stringify(settled));
        expect(`${atEnd.lineCount}/${atEnd.dropped}`).toBe(`${eager.lineCount}/${eager.dropped}`);
      }
      expect(dump(atEnd), `trial ${trial}`).toBe(dump(eager));
      expect(dump(bottom), `trial ${trial}`).toBe(dump(eager));
    }
  });

  test("256 colours and truecolour become cell colours; text is cleaned of control characters", () => {
    expect(applySgr(PLAIN, "38;5;208")).toBe(attr({ fg: 208 }));
    expect(applySgr(PLAIN, "1;48;2;255;0;0")).toBe(attr({ bold: true, bg: 196 }));
    expect(sanitizeText("a\x1b[2Jb\x07c\td")).toBe("abc    d");
  });
});
