// Where each pane goes for a terminal size. From 80x24 up, the full cockpit: chat over tool output
// on the left; on the right the job list (as tall as its jobs), the selected job's terminal under
// it, then the files. Both columns split at the same row, so the horizontal borders meet in one
// line, and that row depends only on the terminal's height: a queued message or a taller input
// takes rows from the lower panes, never moves the split. Smaller, down to 40x12, one pane at a
// time under a tab bar (chat / tool / jobs / files), the input and status line still there. Below
// that, only a notice. Neighbouring panes share a border row or column (border-joints.ts joins
// them). A zoomed pane takes the whole upper area; a zoomed (or tabbed) jobs pane keeps its
// terminal, which gets every row the list does not need.
import type { Rect } from "./screen/canvas.js";

/** The full cockpit from this size up. */
export const FULL_COLS = 80;
export const FULL_ROWS = 24;
/** One pane at a time from this size up; below it, only the too-small notice. */
export const MIN_COLS = 40;
export const MIN_ROWS = 12;

export type MainPane = "chat" | "toolOutput" | "jobs" | "files";
export const MAIN_PANES: readonly MainPane[] = ["chat", "toolOutput", "jobs", "files"];

export type LayoutMode = "full" | "tabs" | "tooSmall";

export interface LayoutInput {
  cols: number;
  rows: number;
  /** Rows of text the input wants (without its border). */
  inputRows: number;
  queueRows: number;
  zoomed?: MainPane;
  /** The pane a tabbed layout shows. */
  tab?: MainPane;
  /** Jobs in the list (the list is sized to them). */
  jobCount?: number;
}

export interface Layout {
  mode: LayoutMode;
  main: Partial<Record<MainPane, Rect>>;
  /** The selected job's terminal, shown whenever the job list is. */
  jobTerminal?: Rect;
  /** The tab bar of the tabbed layout. */
  tabs?: Rect;
  queue: Rect;
  input: Rect;
  status: Rect;
  /** Where overlays go: over the panes, clear of the input. */
  overlay: Rect;
}

const NONE: Rect = { left: 0, top: 0, width: 0, height: 0 };
/** Share of the upper area the chat (and the job list with its terminal) takes. */
const UPPER_SHARE = 0.62;
/** The job list's rows when there is no job (its hint). */
const EMPTY_LIST_ROWS = 2;

/** A job list (with borders) as tall as its jobs, within `max` rows. */
function listHeight(jobCount: number, max: number): number {
  return Math.max(3, Math.min(Math.max(jobCount, jobCount === 0 ? EMPTY_LIST_ROWS : 1) + 2, max));
}

export function computeLayout(input: LayoutInput): Layout {
  const { cols, rows } = input;
  const status: Rect = { left: 0, top: rows - 1, width: cols, height: 1 };
  if (cols < MIN_COLS || rows < MIN_ROWS) {
    return { mode: "tooSmall", main: {}, queue: NONE, input: NONE, status, overlay: overlayRect(cols, 0, rows - 1) };
  }
  const mode: LayoutMode = cols < FULL_COLS || rows < FULL_ROWS ? "tabs" : "full";
  const inputHeight = Math.max(1, Math.min(input.inputRows, Math.floor(rows / 4))) + 2;
  const queueRows = Math.min(input.queueRows, mode === "tabs" ? 2 : 4);
  const inputTop = rows - 1 - inputHeight;
  const queue: Rect = { left: 0, top: inputTop - queueRows, width: cols, height: queueRows };
  const inputRect: Rect = { left: 0, top: inputTop, width: cols, height: inputHeight };
  const top = mode === "tabs" ? 1 : 0;
  // Without a queue line the input's top border is the main area's bottom border.
  const mainHeight = (queueRows > 0 ? inputTop - queueRows : inputTop + 1) - top;
  const overlay = overlayRect(cols, top, inputTop);
  const base = { queue, input: inputRect, status, overlay };
  const jobCount = input.jobCount ?? 0;

  const single = mode === "tabs" ? (input.tab ?? "chat") : input.zoomed;
  if (single === "jobs") {
    const list = listHeight(jobCount, Math.max(3, Math.round(mainHeight / 3)));
    return {
      mode,
      ...base,
      ...(mode === "tabs" ? { tabs: { left: 0, top: 0, width: cols, height: 1 } } : {}),
      main: { jobs: { left: 0, top, width: cols, height: list } },
      jobTerminal: { left: 0, top: top + list - 1, width: cols, height: mainHeight - list + 1 },
    };
  }
  if (single) {
    return {
      mode,
      ...base,
      ...(mode === "tabs" ? { tabs: { left: 0, top: 0, width: cols, height: 1 } } : {}),
      main: { [single]: { left: 0, top, width: cols, height: mainHeight } },
    };
  }

  // The shared split row, from the height alone: the main area's height with a one-line input and
  // no queue, so it stays put while the person types or queues; it only moves up when the lower
  // panes would get fewer than three rows.
  const steadyHeight = rows - 3;
  const split = Math.min(Math.round(steadyHeight * UPPER_SHARE) - 1, mainHeight - 3);
  const column = Math.round(cols * (cols >= 140 ? 0.64 : 0.6));
  const list = listHeight(jobCount, Math.max(3, Math.floor((split + 1) * 0.4)));
  const main: Partial<Record<MainPane, Rect>> = {
    chat: { left: 0, top: 0, width: column + 1, height: split + 1 },
    toolOutput: { left: 0, top: split, width: column + 1, height: mainHeight - split },
    jobs: { left: column, top: 0, width: cols - column, height: list },
    files: { left: column, top: split, width: cols - column, height: mainHeight - split },
  };
  const jobTerminal: Rect = { left: column, top: list - 1, width: cols - column, height: split - list + 2 };
  return { mode, ...base, main, jobTerminal };
}

/** Overlays: centred, at most 110 columns, from just under `top` to just above the input's border. */
function overlayRect(cols: number, top: number, inputTop: number): Rect {
  const width = Math.max(1, Math.min(cols - 4, 110));
  const overlayTop = Math.min(top + 1, Math.max(0, inputTop - 3));
  return { left: Math.max(0, Math.floor((cols - width) / 2)), top: overlayTop, width, height: Math.max(3, inputTop - overlayTop) };
}
