// Paints a job's screen (the rows its emulator has already parsed, tools/jobs/terminal/screen-state.ts) into
// the screen's cell grid: each cell with its colours and styles (24-bit colours rounded to the 256
// palette), a wide character as its cell and the empty right half (the frame writer expects '').
// A cell that did not change does not mark its row dirty (Canvas.cell), so a frame costs the
// pane's size, never the job's output.
import type { Canvas } from "../screen/canvas.js";
import { attr, DEFAULT_COLOR, PLAIN } from "../text/styled-text.js";
import { rgbTo256 } from "../text/terminal-text.js";
import { displayGrapheme, graphemeWidth } from "../text/text-width.js";
import { CellFlag, DEFAULT_CELL_COLOR, type ScreenRun, type ScreenState, TRUE_COLOR } from "../../tools/jobs/index.js";

function colour(value: number): number {
  if (value === DEFAULT_CELL_COLOR) return DEFAULT_COLOR;
  if (value >= TRUE_COLOR) {
    const rgb = value - TRUE_COLOR;
    return rgbTo256((rgb >> 16) & 0xff, (rgb >> 8) & 0xff, rgb & 0xff);
  }
  return value & 0xff;
}

const attrCache = new Map<string, number>();

/** The screen attribute of a run's style. */
export function runAttr(run: ScreenRun): number {
  const [fg, bg, flags] = run;
  if (fg === DEFAULT_CELL_COLOR && bg === DEFAULT_CELL_COLOR && flags === 0) return PLAIN;
  const key = `${fg},${bg},${flags}`;
  let a = attrCache.get(key);
  if (a === undefined) {
    a = attr({
      fg: colour(fg),
      bg: colour(bg),
      bold: (flags & CellFlag.bold) !== 0,
      dim: (flags & CellFlag.dim) !== 0,
      italic: (flags & CellFlag.italic) !== 0,
      underline: (flags & CellFlag.underline) !== 0,
      inverse: (flags & CellFlag.inverse) !== 0,
      strike: (flags & CellFlag.strike) !== 0,
    });
    if (attrCache.size > 4096) attrCache.clear();
    attrCache.set(key, a);
  }
  return a;
}

/** Paints one cell of text `chars` the emulator counted `width` columns wide (`limit`: the last column + 1). */
function paintCell(canvas: Canvas, x: number, y: number, width: number, a: number, chars: string, limit: number): void {
  if (chars === " ") {
    canvas.cell(x, y, a, " ");
    return;
  }
  const shown = displayGrapheme(chars);
  const ours = graphemeWidth(shown);
  if (width === 2) {
    if (x + 1 >= limit) {
      // A wide character cut by the pane's edge is shown as a space, never half.
      canvas.cell(x, y, a, " ");
    } else if (ours === 2) {
      canvas.cell(x, y, a, shown);
      canvas.cell(x + 1, y, a, "");
    } else {
      // The emulator and our width table disagree: keep the columns the emulator counted.
      canvas.cell(x, y, a, ours === 1 ? shown : " ");
      canvas.cell(x + 1, y, a, " ");
    }
    return;
  }
  canvas.cell(x, y, a, ours === 1 ? shown : " ");
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
        const a = runAttr(run);
        const text = run[3];
        if (run.length === 5) {
          const width = run[4];
          paintCell(canvas, x, y, width, a, text, limit);
          if (width === 2 && x + 1 >= limit) x = limit;
          else x += width;
          continue;
        }
        const n = Math.min(text.length, limit - x);
        for (let i = 0; i < n; i++) {
          const code = text.charCodeAt(i);
          if (code >= 0x20 && code < 0x7f) canvas.cell(x + i, y, a, text[i]!);
          else paintCell(canvas, x + i, y, 1, a, text[i]!, limit);
        }
        x += n;
      }
    }
    for (; x < canvas.width; x++) canvas.cell(x, y, PLAIN, " ");
  }
  return painted;
}
