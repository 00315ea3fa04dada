// The parts of blessed's screen that pitwall reaches into and @types/blessed does not declare: the
// cell grid (`lines`), the grid last written to the terminal (`olines`), the program's output
// buffer, the terminal's colour count, leaving and entering the alternate screen. One typed view, so the rest of the code has no casts.
import type { Widgets } from "blessed";

/**
 * One terminal cell: blessed's attribute number and the grapheme shown ('' = right half of a wide
 * one), and, while the attribute has Flag.extras, what it cannot hold (cell-extras.ts).
 */
export type Cell = [attr: number, ch: string, extras?: string];
export type CellRow = Cell[] & { dirty?: boolean };

export interface ProgramInternals {
  _buf: string;
  useBuffer: boolean;
  output: NodeJS.WritableStream & { columns?: number; rows?: number };
  cols: number;
  rows: number;
  _write(text: string): unknown;
  flush(): void;
  clear(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  prependListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

export interface ScreenInternals {
  lines: CellRow[];
  olines: CellRow[];
  cols: number;
  rows: number;
  dattr: number;
  destroyed?: boolean;
  program: ProgramInternals;
  tput: { colors: number };
  draw(start: number, end: number): void;
  render(): void;
  /** Back to the normal screen buffer, cursor shown (before a suspend). */
  leave(): void;
  /** Into the alternate screen buffer, cleared (after a suspend). */
  enter(): void;
}

export function screenInternals(screen: Widgets.Screen): ScreenInternals {
  return screen as unknown as ScreenInternals;
}
