// Where each pane goes for a terminal size: chat over tool output on the left, jobs over files on
// the right, the queue and the input across the bottom, the status line last. Neighbouring panes
// share a border row or column (blessed docks the joints). A zoomed pane takes the whole upper area.
import type { Rect } from "./canvas.js";

export const MIN_COLS = 80;
export const MIN_ROWS = 24;

export type MainPane = "chat" | "toolOutput" | "jobs" | "files";

export interface LayoutInput {
  cols: number;
  rows: number;
  /** Rows of text the input wants (without its border). */
  inputRows: number;
  queueRows: number;
  zoomed?: MainPane;
}

export interface Layout {
  tooSmall: boolean;
  main: Partial<Record<MainPane, Rect>>;
  queue: Rect;
  input: Rect;
  status: Rect;
  overlay: Rect;
}

export function computeLayout(input: LayoutInput): Layout {
  const { cols, rows } = input;
  const status: Rect = { left: 0, top: rows - 1, width: cols, height: 1 };
  const overlayWidth = Math.min(cols - 4, 110);
  const overlay: Rect = {
    left: Math.max(0, Math.floor((cols - overlayWidth) / 2)),
    top: Math.min(2, Math.max(0, rows - 3)),
    width: Math.max(1, overlayWidth),
    height: Math.max(3, rows - 5),
  };
  if (cols < MIN_COLS || rows < MIN_ROWS) {
    const none: Rect = { left: 0, top: 0, width: 0, height: 0 };
    return { tooSmall: true, main: {}, queue: none, input: none, status, overlay };
  }
  const inputHeight = Math.max(1, Math.min(input.inputRows, Math.floor(rows / 4))) + 2;
  const queueRows = Math.min(input.queueRows, 4);
  const inputTop = rows - 1 - inputHeight;
  const queue: Rect = { left: 0, top: inputTop - queueRows, width: cols, height: queueRows };
  // Without a queue line the input's top border is the main area's bottom border.
  const mainHeight = queueRows > 0 ? inputTop - queueRows : inputTop + 1;
  const inputRect: Rect = { left: 0, top: inputTop, width: cols, height: inputHeight };

  const main: Partial<Record<MainPane, Rect>> = {};
  if (input.zoomed) {
    main[input.zoomed] = { left: 0, top: 0, width: cols, height: mainHeight };
  } else {
    const split = Math.round(cols * (cols >= 140 ? 0.64 : 0.6));
    const chatHeight = Math.max(5, Math.round(mainHeight * 0.62));
    const jobsHeight = Math.max(4, Math.round(mainHeight * 0.45));
    main.chat = { left: 0, top: 0, width: split + 1, height: chatHeight };
    main.toolOutput = { left: 0, top: chatHeight - 1, width: split + 1, height: mainHeight - chatHeight + 1 };
    main.jobs = { left: split, top: 0, width: cols - split, height: jobsHeight };
    main.files = { left: split, top: jobsHeight - 1, width: cols - split, height: mainHeight - jobsHeight + 1 };
  }
  return { tooSmall: false, main, queue, input: inputRect, status, overlay };
}
