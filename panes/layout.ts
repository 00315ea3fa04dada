// Where each pane goes for a terminal size: chat over tool output on the left; on the right the job
// list, the selected job's terminal under it, then the files; the queue and the input across the
// bottom, the status line last. Neighbouring panes share a border row or column (blessed docks the
// joints). A zoomed pane takes the whole upper area; a zoomed jobs pane keeps its terminal, which
// gets every row the list does not need.
import type { Rect } from "./screen/canvas.js";

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
  /** Jobs in the list (a zoomed jobs pane sizes its list to them). */
  jobCount?: number;
}

export interface Layout {
  tooSmall: boolean;
  main: Partial<Record<MainPane, Rect>>;
  /** The selected job's terminal, shown whenever the job list is. */
  jobTerminal?: Rect;
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
  let jobTerminal: Rect | undefined;
  if (input.zoomed === "jobs") {
    // The list as tall as its jobs (within a third of the height), the terminal below it.
    const listHeight = Math.min(Math.max(4, (input.jobCount ?? 0) + 2), Math.max(4, Math.round(mainHeight / 3)));
    main.jobs = { left: 0, top: 0, width: cols, height: listHeight };
    jobTerminal = { left: 0, top: listHeight - 1, width: cols, height: mainHeight - listHeight + 1 };
  } else if (input.zoomed) {
    main[input.zoomed] = { left: 0, top: 0, width: cols, height: mainHeight };
  } else {
    const split = Math.round(cols * (cols >= 140 ? 0.64 : 0.6));
    const chatHeight = Math.max(5, Math.round(mainHeight * 0.62));
    const jobsHeight = Math.max(4, Math.round(mainHeight * 0.25));
    const terminalHeight = Math.max(5, Math.round(mainHeight * 0.42));
    const filesTop = jobsHeight - 1 + terminalHeight - 1;
    main.chat = { left: 0, top: 0, width: split + 1, height: chatHeight };
    main.toolOutput = { left: 0, top: chatHeight - 1, width: split + 1, height: mainHeight - chatHeight + 1 };
    main.jobs = { left: split, top: 0, width: cols - split, height: jobsHeight };
    jobTerminal = { left: split, top: jobsHeight - 1, width: cols - split, height: terminalHeight };
    main.files = { left: split, top: filesTop, width: cols - split, height: mainHeight - filesTop };
  }
  return { tooSmall: false, main, ...(jobTerminal ? { jobTerminal } : {}), queue, input: inputRect, status, overlay };
}
