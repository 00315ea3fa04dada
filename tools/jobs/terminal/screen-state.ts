// What a job's terminal looks like, as plain data: the rows in view as runs of styled text, where the
// view is in the scrollback, the cursor, and the modes keys are encoded by. The emulator (in the job
// host, or in this process) produces it (screen-encoder.ts, screen-watch.ts); the jobs pane paints
// it without knowing anything of xterm. It crosses the job host's socket as JSON, so it is compact:
// a row sends only what differs from a blank row, and an update only the rows that changed.
import type { MouseEncoding, MouseTracking } from "./emulator-modes.js";

export type { MouseEncoding, MouseTracking } from "./emulator-modes.js";

/** A colour: -1 the terminal's default, 0–255 the palette, TRUE_COLOR + 0xRRGGBB a 24-bit colour. */
export const DEFAULT_CELL_COLOR = -1;
export const TRUE_COLOR = 0x1000000;

/** Style bits of a run. */
export const CellFlag = {
  bold: 1,
  dim: 2,
  italic: 4,
  underline: 8,
  inverse: 16,
  strike: 32,
  blink: 64,
  overline: 128,
} as const;

/**
 * An underline's style sits above the flags, as SGR 4's sub-parameter (2 double, 3 curly, 4 dotted,
 * 5 dashed); 0 there is a plain underline (or none, without CellFlag.underline).
 */
export const UNDERLINE_STYLE_SHIFT = 8;

export function underlineStyleOf(flags: number): number {
  if ((flags & CellFlag.underline) === 0) return 0;
  return (flags >> UNDERLINE_STYLE_SHIFT) & 7 || 1;
}

/**
 * Cells of one style (flags: CellFlag, and the underline's style). [fg, bg, flags, text]: each UTF-16 unit of `text` is one column. [fg, bg,
 * flags, text, width]: one cell whose text is a grapheme (several code units, or a wide character)
 * taking `width` columns (1 or 2).
 */
export type ScreenRun = [fg: number, bg: number, flags: number, text: string] | [fg: number, bg: number, flags: number, text: string, width: number];

/** A row: its runs from column 0; columns after the last run are blank in the default style. */
export type ScreenRow = ScreenRun[];

export interface ScreenMeta {
  /** The emulator's size (the job's pty). */
  cols: number;
  rows: number;
  /** The buffer line at the top of the view, and the one at the top of the live screen. */
  viewportY: number;
  baseY: number;
  /** The cursor on the live screen (column, row from its top). */
  cursorX: number;
  cursorY: number;
  /** Whether the job shows its cursor (it hides it with `?25l`), and its shape (DECSCUSR's parameter, 0: the terminal's own). */
  cursorVisible: boolean;
  cursorShape: number;
  /** The modes keys are encoded by while the person types into the job. */
  applicationCursorKeys: boolean;
  bracketedPaste: boolean;
  /** The mouse reports the job asked for, and their encoding (emulator-modes.ts). */
  mouseTracking: MouseTracking;
  mouseEncoding: MouseEncoding;
}

export interface ScreenState extends ScreenMeta {
  /** The rows in view, `rows` of them. */
  lines: ScreenRow[];
}

/** What changed since the last update a watcher got: the new meta and the rows that differ. */
export interface ScreenUpdate extends ScreenMeta {
  changed: Array<[row: number, runs: ScreenRow]>;
}

export type ScrollRequest = { by: number } | { to: "top" | "bottom" };

/** The view's plain text, right-trimmed, trailing blank rows dropped: what "copy the screen" takes. */
export function screenText(state: ScreenState, rows: number = state.rows): string[] {
  const out = state.lines.slice(0, rows).map((row) => row.map((run) => run[3]).join("").trimEnd());
  while (out.length > 0 && out[out.length - 1] === "") out.pop();
  return out;
}

/** Applies an update to a state (or makes the first state from it). */
export function applyScreenUpdate(state: ScreenState | undefined, update: ScreenUpdate): ScreenState {
  const { changed, ...meta } = update;
  const lines = state && state.rows === meta.rows ? state.lines : Array.from({ length: meta.rows }, (): ScreenRow => []);
  for (const [row, runs] of changed) if (row >= 0 && row < lines.length) lines[row] = runs;
  return { ...meta, lines };
}
