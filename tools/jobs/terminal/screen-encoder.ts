// Reads a job's headless emulator into the plain screen data the jobs pane paints (screen-state.ts):
// one row at a time, cell by cell, cells of one style joined into a run, a wide or composed
// character (a ZWJ sequence's part, an emoji with VS16, a letter with its marks: every code point
// the emulator keeps in the cell) a run of its own with its width, trailing blanks left out. Only the rows in view are
// read, so the cost is the view's size, never the job's output.
import type { IBufferCell, IBufferLine, Terminal } from "@xterm/headless";
import { emulatorModes, underlineStyle } from "./emulator-modes.js";
import { CellFlag, DEFAULT_CELL_COLOR, TRUE_COLOR, UNDERLINE_STYLE_SHIFT, type ScreenMeta, type ScreenRow, type ScreenState } from "./screen-state.js";

function colorOf(isDefault: boolean, isRgb: boolean, value: number): number {
  if (isDefault) return DEFAULT_CELL_COLOR;
  return isRgb ? TRUE_COLOR + (value & 0xffffff) : value & 0xff;
}

function flagsOf(cell: IBufferCell): number {
  let flags = 0;
  if (cell.isBold()) flags |= CellFlag.bold;
  if (cell.isDim()) flags |= CellFlag.dim;
  if (cell.isItalic()) flags |= CellFlag.italic;
  if (cell.isUnderline()) {
    flags |= CellFlag.underline;
    const style = underlineStyle(cell);
    if (style > 1) flags |= style << UNDERLINE_STYLE_SHIFT;
  }
  if (cell.isInverse()) flags |= CellFlag.inverse;
  if (cell.isStrikethrough()) flags |= CellFlag.strike;
  if (cell.isBlink()) flags |= CellFlag.blink;
  if (cell.isOverline()) flags |= CellFlag.overline;
  return flags;
}

/** One buffer line as runs, `cols` columns of it. */
export function encodeRow(line: IBufferLine | undefined, cols: number, scratch?: IBufferCell): ScreenRow {
  const runs: ScreenRow = [];
  if (!line) return runs;
  let cell = scratch;
  let fg = DEFAULT_CELL_COLOR;
  let bg = DEFAULT_CELL_COLOR;
  let flags = 0;
  let text = "";
  const flush = (): void => {
    if (text !== "") runs.push([fg, bg, flags, text]);
    text = "";
  };
  for (let x = 0; x < cols; ) {
    cell = line.getCell(x, cell);
    if (!cell) break;
    const width = cell.getWidth();
    if (width === 0) {
      // The right half of a wide character, covered by its left half.
      x++;
      continue;
    }
    let f = DEFAULT_CELL_COLOR;
    let b = DEFAULT_CELL_COLOR;
    let fl = 0;
    if (!cell.isAttributeDefault()) {
      f = colorOf(cell.isFgDefault(), cell.isFgRGB(), cell.getFgColor());
      b = colorOf(cell.isBgDefault(), cell.isBgRGB(), cell.getBgColor());
      fl = flagsOf(cell);
    }
    const chars = cell.isInvisible() ? "" : cell.getChars();
    if (f !== fg || b !== bg || fl !== flags) {
      flush();
      fg = f;
      bg = b;
      flags = fl;
    }
    if (chars === "" || (width === 1 && chars.length === 1)) {
      text += chars === "" ? " ".repeat(width) : chars;
    } else {
      flush();
      runs.push([f, b, fl, chars, width]);
    }
    x += width;
  }
  flush();
  // Blanks in the default style at the end are what the painter fills with anyway.
  const last = runs[runs.length - 1];
  if (last && last.length === 4 && last[0] === DEFAULT_CELL_COLOR && last[1] === DEFAULT_CELL_COLOR && last[2] === 0) {
    const trimmed = last[3].trimEnd();
    if (trimmed === "") runs.pop();
    else last[3] = trimmed;
  }
  return runs;
}

export function screenMeta(terminal: Terminal): ScreenMeta {
  const buffer = terminal.buffer.active;
  return {
    cols: terminal.cols,
    rows: terminal.rows,
    viewportY: buffer.viewportY,
    baseY: buffer.baseY,
    cursorX: buffer.cursorX,
    cursorY: buffer.cursorY,
    applicationCursorKeys: terminal.modes.applicationCursorKeysMode,
    bracketedPaste: terminal.modes.bracketedPasteMode,
    ...emulatorModes(terminal),
  };
}

/** The rows of the view from buffer line `top` (the viewport's first line by default). */
export function encodeRows(terminal: Terminal, top: number = terminal.buffer.active.viewportY): ScreenRow[] {
  const buffer = terminal.buffer.active;
  const rows: ScreenRow[] = [];
  let scratch: IBufferCell | undefined;
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(top + y);
    scratch ??= line?.getCell(0);
    rows.push(encodeRow(line, terminal.cols, scratch));
  }
  return rows;
}

export function encodeScreen(terminal: Terminal): ScreenState {
  return { ...screenMeta(terminal), lines: encodeRows(terminal) };
}

/** The visible rows of the emulator from `top`, as plain text (right-trimmed): what a copy takes. */
export function terminalText(terminal: Terminal, top: number, rows: number = terminal.rows): string[] {
  const buffer = terminal.buffer.active;
  const out: string[] = [];
  for (let y = 0; y < rows; y++) out.push(buffer.getLine(top + y)?.translateToString(true) ?? "");
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}
