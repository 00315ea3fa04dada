// The job terminal's screen: the emulator's rows encoded as plain data (as the job host sends them,
// through JSON), painted into the screen's cell grid with colours and styles kept (24-bit colours
// and the rarer styles as the cell's extras), graphemes whole, wide characters as a cell and its
// empty right half, the pane's edges respected. (The watch that sends only the rows
// that changed is test/jobs/screen-watch.test.ts.)
import xtermHeadless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";
import { afterEach, describe, expect, test } from "vitest";
import type { CellRow } from "../../panes/screen/blessed-internals.js";
import { Canvas } from "../../panes/screen/canvas.js";
import { attr, bgOf, DEFAULT_COLOR, fgOf, Flag, flagsOf, Palette, PLAIN } from "../../panes/text/styled-text.js";
import { parseExtras } from "../../panes/screen/cell-extras.js";
import { paintScreen } from "../../panes/jobs/screen-painter.js";
import { encodeRows, screenMeta, type ScreenState, screenText, terminalText } from "../../tools/jobs/index.js";

const terminals: Terminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.dispose();
});

async function emulator(cols: number, rows: number, text: string, scrollback = 100): Promise<Terminal> {
  const t = new xtermHeadless.Terminal({ cols, rows, scrollback, allowProposedApi: true });
  t.loadAddon(new unicode11.Unicode11Addon());
  t.unicode.activeVersion = "11";
  terminals.push(t);
  await new Promise<void>((resolve) => t.write(text, resolve));
  return t;
}

function grid(width: number, height: number): CellRow[] {
  return Array.from({ length: height }, () => Array.from({ length: width }, () => [attr({ fg: Palette.magenta }), "#"] as [number, string]) as CellRow);
}

/** The extras a painted cell carries (24-bit colours, rarer styles), if its attribute says it has any. */
function extrasOf(cell: CellRow[number]): ReturnType<typeof parseExtras> | undefined {
  return (flagsOf(cell[0]) & Flag.extras) !== 0 && cell[2] !== undefined ? parseExtras(cell[2]) : undefined;
}

/** What the job host would send for the view from buffer line `top`, through JSON as on the socket. */
function stateOf(t: Terminal, top: number): ScreenState {
  return JSON.parse(JSON.stringify({ ...screenMeta(t), lines: encodeRows(t, top) })) as ScreenState;
}

function paintTerminal(canvas: Canvas, t: Terminal, top: number): number {
  return paintScreen(canvas, stateOf(t, top));
}

function rowText(row: CellRow, from = 0, to = row.length): string {
  return row.slice(from, to).map((c) => c[1]).join("");
}

describe("the job screen painter", () => {
  test("text, palette colours, 256 colours, 24-bit colours rounded to 256, and every style", async () => {
    const t = await emulator(30, 3, "\x1b[31mR\x1b[0m\x1b[38;5;208mO\x1b[0m\x1b[38;2;0;200;0mG\x1b[0m\x1b[44mB\x1b[0m\x1b[1;2;3;4;7;9mS\x1b[0mplain");
    const lines = grid(40, 5);
    const painted = paintTerminal(new Canvas(lines, { left: 2, top: 1, width: 30, height: 3 }), t, 0);
    expect(painted).toBe(3);
    const row = lines[1]!;
    // The canvas starts at column 2; what is outside it is untouched.
    expect(row[0]![1]).toBe("#");
    expect(rowText(row, 2, 12)).toBe("ROGBSplain");
    expect(fgOf(row[2]![0])).toBe(Palette.red);
    expect(fgOf(row[3]![0])).toBe(208);
    expect(fgOf(row[4]![0])).toBe(40);
    expect(bgOf(row[5]![0])).toBe(Palette.blue);
    expect(fgOf(row[5]![0])).toBe(DEFAULT_COLOR);
    const flags = flagsOf(row[6]![0]);
    for (const flag of [Flag.bold, Flag.dim, Flag.italic, Flag.underline, Flag.inverse, Flag.strike]) expect(flags & flag).toBe(flag);
    expect(row[7]![0]).toBe(PLAIN);
    // The rest of the row and the rows below are blanked in the default attribute.
    expect(rowText(row, 12, 32)).toBe(" ".repeat(20));
    expect(rowText(lines[3]!, 2, 32)).toBe(" ".repeat(30));
    expect(lines[3]![2]![0]).toBe(PLAIN);
    expect(rowText(lines[4]!)).toBe("#".repeat(40));
  });

  test("wide characters take a cell and its empty right half; one cut by the edge is a space", async () => {
    const t = await emulator(10, 2, "中文x🚀y\r\nab中");
    const lines = grid(10, 2);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 10, height: 2 }), t, 0);
    expect(lines[0]!.map((c) => c[1])).toEqual(["中", "", "文", "", "x", "🚀", "", "y", " ", " "]);
    // A canvas narrower than the emulator: the wide character at its edge would be cut in half.
    const narrow = grid(3, 2);
    paintTerminal(new Canvas(narrow, { left: 0, top: 0, width: 3, height: 2 }), t, 0);
    expect(narrow[1]!.map((c) => c[1])).toEqual(["a", "b", " "]);
    expect(narrow[0]!.map((c) => c[1])).toEqual(["中", "", " "]);
  });

  test("from a scrolled-back line it paints the scrollback; the plain text of the view is what a copy takes", async () => {
    const t = await emulator(12, 3, Array.from({ length: 10 }, (_, i) => `line ${i}`).join("\r\n"));
    const buffer = t.buffer.active;
    expect(buffer.baseY).toBe(7);
    const lines = grid(12, 3);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 12, height: 3 }), t, buffer.baseY);
    expect(lines.map((r) => rowText(r).trimEnd())).toEqual(["line 7", "line 8", "line 9"]);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 12, height: 3 }), t, 2);
    expect(lines.map((r) => rowText(r).trimEnd())).toEqual(["line 2", "line 3", "line 4"]);
    expect(terminalText(t, 2)).toEqual(["line 2", "line 3", "line 4"]);
    expect(screenText(stateOf(t, 2))).toEqual(["line 2", "line 3", "line 4"]);
  });

  test("an unchanged cell does not mark its row dirty", async () => {
    const t = await emulator(5, 1, "hello");
    const lines = grid(5, 1);
    const canvas = new Canvas(lines, { left: 0, top: 0, width: 5, height: 1 });
    paintTerminal(canvas, t, 0);
    expect(lines[0]!.dirty).toBe(true);
    lines[0]!.dirty = false;
    paintTerminal(canvas, t, 0);
    expect(lines[0]!.dirty).toBe(false);
  });

  test("hidden text (SGR 8) is painted as spaces", async () => {
    const t = await emulator(10, 1, "a\x1b[8msecret\x1b[0mb");
    const lines = grid(10, 1);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 10, height: 1 }), t, 0);
    expect(rowText(lines[0]!)).toBe("a      b  ");
  });
  test("a grapheme is painted whole at the emulator's width: a ZWJ sequence's joiners, VS16 and combining marks stay", async () => {
    const family = "\u{1F468}\u200d\u{1F469}\u200d\u{1F467}";
    const t = await emulator(20, 1, `a${family}b\u2764\ufe0fce\u0301\u{1F44B}\u{1F3FD}`);
    const lines = grid(20, 1);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 20, height: 1 }), t, 0);
    // The emulator keeps each joiner with the emoji before it, each emoji two columns wide.
    expect(lines[0]!.slice(0, 15).map((c) => c[1])).toEqual(["a", "\u{1F468}\u200d", "", "\u{1F469}\u200d", "", "\u{1F467}", "", "b", "\u2764\ufe0f", "c", "e\u0301", "\u{1F44B}", "", "\u{1F3FD}", ""]);
    expect(rowText(lines[0]!)).toContain(family);
  });

  test("24-bit colours keep their exact value beside the rounded one; blink, overline and underline styles go with the cell", async () => {
    const t = await emulator(10, 1, "\x1b[38;2;255;128;0;48;2;1;2;3mT\x1b[0m\x1b[5mB\x1b[0m\x1b[53mO\x1b[0m\x1b[4:3mC\x1b[4:2mD\x1b[0m\x1b[4mU\x1b[0mp");
    const lines = grid(10, 1);
    paintTerminal(new Canvas(lines, { left: 0, top: 0, width: 10, height: 1 }), t, 0);
    const row = lines[0]!;
    expect(rowText(row, 0, 7)).toBe("TBOCDUp");
    // What a terminal without 24-bit colour gets, and the exact colours for one that has it.
    expect(fgOf(row[0]![0])).toBe(208);
    expect(extrasOf(row[0]!)).toEqual({ fg: 0xff8000, bg: 0x010203 });
    expect(extrasOf(row[1]!)).toEqual({ blink: true });
    expect(extrasOf(row[2]!)).toEqual({ overline: true });
    expect(extrasOf(row[3]!)).toEqual({ underlineStyle: 3 });
    expect(flagsOf(row[3]![0]) & Flag.underline).toBe(Flag.underline);
    expect(extrasOf(row[4]!)).toEqual({ underlineStyle: 2 });
    // A plain underline and plain text need nothing beyond the attribute.
    expect(extrasOf(row[5]!)).toBeUndefined();
    expect(flagsOf(row[5]![0])).toBe(Flag.underline);
    expect(row[6]![0]).toBe(PLAIN);
  });
});
