// Paints a job's screen (the rows its emulator has already parsed, tools/jobs/terminal/screen-state.ts) into
// the screen's cell grid: each cell with its colours and styles, and each grapheme whole (a ZWJ
// sequence's parts, an emoji with its variation selector, a letter with its marks) at the width
// the job's emulator gave it, a wide one as its cell and the empty right half (the frame writer
// expects ''). The attribute holds the 256-colour form of a 24-bit colour; the exact colour, blink,
// overline and an underline's style go with the cell as extras (screen/cell-extras.ts), for the
// frame writer to send as far as the outer terminal shows them. A cell that did not change does
// not mark its row dirty (Canvas.cell), so a frame costs the pane's size, never the job's output.
import type { Canvas } from "../screen/canvas.js";
import { extrasKey } from "../screen/cell-extras.js";
import { attr, DEFAULT_COLOR, Flag, PLAIN } from "../text/styled-text.js";
import { rgbTo256 } from "../text/terminal-text.js";
import { graphemeWidth } from "../text/text-width.js";
import { CellFlag, DEFAULT_CELL_COLOR, type ScreenRun, type ScreenState, TRUE_COLOR, underlineStyleOf } from "../../tools/jobs/index.js";

function colour(value: number): number {
  if (value === DEFAULT_CELL_COLOR) return DEFAULT_COLOR;
  if (value >= TRUE_COLOR) {
    const rgb = value - TRUE_COLOR;
    return rgbTo256((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
  }
  return value & 0xff;
}

/** A run's style as the grid holds it: the attribute, and the extras when it has any. */
interface CellStyle {
  attr: number;
  extras: string | undefined;
}

const PLAIN_STYLE: CellStyle = { attr: PLAIN, extras: undefined };
const styleCache = new Map<string, CellStyle>();

function styleOf(run: ScreenRun): CellStyle {
  const [fg, bg, flags] = run;
  if (fg === DEFAULT_CELL_COLOR && bg === DEFAULT_CELL_COLOR && flags === 0) return PLAIN_STYLE;
  const key = `${fg},${bg},${flags}`;
  let style = styleCache.get(key);
  if (style === undefined) {
    const extras = extrasKey({
      fg: fg >= TRUE_COLOR ? fg - TRUE_COLOR : undefined,
      bg: bg >= TRUE_COLOR ? bg - TRUE_COLOR : undefined,
      blink: (flags & CellFlag.blink) !== 0,
      overline: (flags & CellFlag.overline) !== 0,
      underlineStyle: underlineStyleOf(flags),
    });
    let a = attr({
      fg: colour(fg),
      bg: colour(bg),
      bold: (flags & CellFlag.bold) !== 0,
      dim: (flags & CellFlag.dim) !== 0,
      italic: (flags & CellFlag.italic) !== 0,
      underline: (flags & CellFlag.underline) !== 0,
      inverse: (flags & CellFlag.inverse) !== 0,
      strike: (flags & CellFlag.strike) !== 0,
    });
    if (extras !== undefined) a |= Flag.extras << 18;
    style = { attr: a, extras };
    if (styleCache.size > 4096) styleCache.clear();
    styleCache.set(key, style);
  }
  return style;
}

/** The screen attribute of a run's style (24-bit colours as their nearest of the 256). */
export function runAttr(run: ScreenRun): number {
  return styleOf(run).attr;
}

/** Paints one cell of text `chars` the emulator counted `width` columns wide (`limit`: the last column + 1). */
function paintCell(canvas: Canvas, x: number, y: number, width: number, style: CellStyle, chars: string, limit: number): void {
  if (width === 2) {
    if (x + 1 >= limit) {
      // A wide character cut by the pane's edge is shown as a space, never half.
      canvas.cell(x, y, style.attr, " ", style.extras);
      return;
    }
    canvas.cell(x, y, style.attr, chars, style.extras);
    canvas.cell(x + 1, y, style.attr, "", style.extras);
    return;
  }
  canvas.cell(x, y, style.attr, chars, style.extras);
}

/**
 * Paints the screen's rows into the canvas; rows and columns past the emulator's size are cleared.
 * Returns the rows painted.
 */
export function paintScreen(canvas: Canvas, state: ScreenState): number {
  const limit = Math.min(canvas.width, state.cols);
  let painted = 0;
  for (let y = 0; y < canvas.height; y++) {
    const row = y < state.rows ? state.lines[y] : undefined;
    let x = 0;
    if (row) {
      painted++;
      for (const run of row) {
        if (x >= limit) break;
        const style = styleOf(run);
        const text = run[3];
        if (run.length === 5) {
          const width = run[4];
          paintCell(canvas, x, y, width, style, text, limit);
          if (width === 2 && x + 1 >= limit) x = limit;
          else x += width;
          continue;
        }
        // Each UTF-16 unit is a cell of its own (the encoder puts anything else in a run of its own);
        // one that takes no column by itself (a lone mark, a format character) is shown as a space.
        const n = Math.min(text.length, limit - x);
        for (let i = 0; i < n; i++) {
          const ch = text[i]!;
          const code = ch.charCodeAt(0);
          canvas.cell(x + i, y, style.attr, (code >= 0x20 && code < 0x7f) || graphemeWidth(ch) > 0 ? ch : " ", style.extras);
        }
        x += n;
      }
    }
    for (; x < canvas.width; x++) canvas.cell(x, y, PLAIN, " ");
  }
  return painted;
}
