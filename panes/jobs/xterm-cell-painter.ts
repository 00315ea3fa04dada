// Paints a job's headless terminal (an @xterm/headless buffer) into the screen's cell grid: each
// emulator cell becomes one screen cell with its colours and styles, wide characters take their two
// cells (the right half painted as '', as the frame writer expects). Only the rows on screen are
// read, and a cell that did not change does not mark its row dirty (Canvas.cell), so a frame's cost
// is the pane's size, never the job's output.
import type { IBufferCell, Terminal } from "@xterm/headless";
import type { Canvas } from "../screen/canvas.js";
import { attr, DEFAULT_COLOR, PLAIN } from "../text/styled-text.js";
import { rgbTo256 } from "../text/terminal-text.js";
import { displayGrapheme, graphemeWidth } from "../text/text-width.js";

/** The colour of a cell's foreground or background as a blessed colour number (0–255, or default). */
function colorOf(mode: "fg" | "bg", cell: IBufferCell): number {
  if (mode === "fg") {
    if (cell.isFgDefault()) return DEFAULT_COLOR;
    const c = cell.getFgColor();
    return cell.isFgRGB() ? rgbTo256((c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff) : c & 0xff;
  }
  if (cell.isBgDefault()) return DEFAULT_COLOR;
  const c = cell.getBgColor();
  return cell.isBgRGB() ? rgbTo256((c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff) : c & 0xff;
}

/** The screen attribute for an emulator cell: colours (24-bit rounded to 256) and styles. */
export function cellAttr(cell: IBufferCell): number {
  if (cell.isAttributeDefault()) return PLAIN;
  return attr({
    fg: colorOf("fg", cell),
    bg: colorOf("bg", cell),
    bold: cell.isBold() !== 0,
    dim: cell.isDim() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    inverse: cell.isInverse() !== 0,
    strike: cell.isStrikethrough() !== 0,
  });
}

/**
 * Paints the emulator's rows from buffer line `top` (absolute, e.g. the viewport's first line)
 * into the canvas; rows and columns past the emulator's size are cleared. Returns the rows painted.
 */
export function paintTerminal(canvas: Canvas, terminal: Terminal, top: number): number {
  const buffer = terminal.buffer.active;
  const width = Math.min(canvas.width, terminal.cols);
  let cell: IBufferCell | undefined;
  let painted = 0;
  for (let y = 0; y < canvas.height; y++) {
    const line = y < terminal.rows ? buffer.getLine(top + y) : undefined;
    let x = 0;
    if (line) {
      painted++;
      while (x < width) {
        cell = line.getCell(x, cell);
        if (!cell) break;
        const w = cell.getWidth();
        if (w === 0) {
          // The right half of a wide character whose left half was clipped or already painted.
          x++;
          continue;
        }
        const a = cellAttr(cell);
        const chars = cell.isInvisible() ? "" : cell.getChars();
        if (chars === "" || chars === " ") {
          canvas.cell(x, y, a, " ");
          for (let i = 1; i < w; i++) canvas.cell(x + i, y, a, " ");
          x += w;
          continue;
        }
        const shown = displayGrapheme(chars);
        const ours = graphemeWidth(shown);
        if (w === 2) {
          if (x + 1 >= width) {
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
          x += 2;
          continue;
        }
        canvas.cell(x, y, a, ours === 1 ? shown : " ");
        x++;
      }
    }
    for (; x < canvas.width; x++) canvas.cell(x, y, PLAIN, " ");
  }
  return painted;
}

/** The visible rows of the emulator from `top`, as plain text (right-trimmed): what a copy takes. */
export function terminalText(terminal: Terminal, top: number, rows: number = terminal.rows): string[] {
  const buffer = terminal.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < rows; y++) out.push(buffer.getLine(top + y)?.translateToString(true) ?? "");
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}
