// Where each pane goes for a terminal size and for what the panes hold. From 80x24 up the cockpit:
// the chat over the tool output, full width until a job or a touched file exists; then, from
// SIDE_BY_SIDE_COLS up, a side column on the right with the job list (as tall as its jobs), the
// selected job's terminal under it and the files, the terminal at least 80 columns wide once there
// is room for a readable chat beside it (about half the screen). Narrower than that, the side panes
// get tabs instead of a column too thin for a log line: the chat tab keeps the tool output under
// the chat. Focusing the jobs or the files pane shows the side column even empty, with its hints.
// In the chat column the tool output takes every row the chat's text does not need yet, up to the
// chat's share. Smaller than 80x24, down to 40x12, one pane at a time under a tab bar.
// Below that, only a notice. The queue of messages shows in the input's border, so queuing one
// moves nothing; a taller input takes rows from the bottom panes only. Neighbouring panes share a
// border row or column (border-joints.ts joins them). A zoomed pane takes the whole upper area; a
// zoomed (or tabbed) jobs pane keeps its terminal, which gets every row the list does not need.
import type { Rect } from "./screen/canvas.js";

/** The cockpit from this size up. */
export const FULL_COLS = 80;
export const FULL_ROWS = 24;
/** The side column beside the chat from this width up; narrower, the side panes are tabs. */
export const SIDE_BY_SIDE_COLS = 120;
/** One pane at a time from this size up; below it, only the too-small notice. */
export const MIN_COLS = 40;
export const MIN_ROWS = 12;
/** A job's terminal this wide (inside its border and margins) once the chat keeps CHAT_MIN_COLS. */
export const JOB_TERMINAL_COLS = 80;
const CHAT_MIN_COLS = 76;
/** The job terminal's border and margins: a border and a column of space on each side. */
const TERMINAL_FRAME_COLS = 4;

export type MainPane = "chat" | "toolOutput" | "jobs" | "files";
export const MAIN_PANES: readonly MainPane[] = ["chat", "toolOutput", "jobs", "files"];

export type LayoutMode = "full" | "tabs" | "tooSmall";

export interface LayoutInput {
  cols: number;
  rows: number;
  /** Rows of text the input wants (without its border). */
  inputRows: number;
  zoomed?: MainPane;
  /** The pane a tabbed layout shows. */
  tab?: MainPane;
  /** Jobs in the list (the list is sized to them; with none, no side column). */
  jobCount?: number;
  /** Files touched (with none and no job, no side column). */
  fileCount?: number;
  /** The person has the jobs or the files pane focused: the side column shows even with neither. */
  sideFocused?: boolean;
  /** Whether the tool output has a call to show (without one it keeps a single row for its hint). */
  toolOutput?: boolean;
  /** Rows the chat's content takes at a text width (the tool output gets the rest of its share). */
  chatRows?: (width: number) => number;
}

export interface Layout {
  mode: LayoutMode;
  main: Partial<Record<MainPane, Rect>>;
  /** The selected job's terminal, shown whenever the job list is. */
  jobTerminal?: Rect;
  /** The tab bar of the tabbed layouts. */
  tabs?: Rect;
  input: Rect;
  status: Rect;
  /** Where overlays go: over the panes, clear of the input. */
  overlay: Rect;
}

const NONE: Rect = { left: 0, top: 0, width: 0, height: 0 };
/** Share of the chat column the chat takes once its text needs it. */
const CHAT_SHARE = 0.62;
/** The chat's and the tool output's least heights (with borders). */
const CHAT_MIN_ROWS = 5;
const TOOL_MIN_ROWS = 3;
/** Share of the side column the files take under a job's terminal. */
const FILES_SHARE = 0.38;
const FILES_MIN_ROWS = 6;
/** The job list's rows when there is no job (its hint). */
const EMPTY_LIST_ROWS = 2;
/** The chat's text is inside a border and one column of margin on each side. */
const PANE_FRAME_COLS = 4;

/** A job list (with borders) as tall as its jobs, within `max` rows. */
function listHeight(jobCount: number, max: number): number {
  return Math.max(3, Math.min(Math.max(jobCount, jobCount === 0 ? EMPTY_LIST_ROWS : 1) + 2, max));
}

/** The side column's width: about half, and wide enough for an 80-column terminal when the chat keeps 76. */
export function sideWidth(cols: number): number {
  return Math.max(Math.round(cols / 2), Math.min(JOB_TERMINAL_COLS + TERMINAL_FRAME_COLS, cols - CHAT_MIN_COLS));
}

/** The job list over the terminal in `area`, the list as tall as its jobs (within `listMax` rows). */
function jobsColumn(area: Rect, jobCount: number, listMax: number): { jobs: Rect; jobTerminal: Rect } {
  const list = listHeight(jobCount, Math.max(3, listMax));
  return {
    jobs: { left: area.left, top: area.top, width: area.width, height: list },
    jobTerminal: { left: area.left, top: area.top + list - 1, width: area.width, height: area.height - list + 1 },
  };
}

/**
 * The chat over the tool output in `area`: the chat as tall as its text (at least CHAT_MIN_ROWS,
 * at most `chatMax` rows), the tool output the rest; without a call to show, the tool output keeps
 * one row for its hint. They share a border row.
 */
function chatColumn(area: Rect, chatMax: number, input: LayoutInput): { chat: Rect; toolOutput: Rect } {
  const most = Math.max(CHAT_MIN_ROWS, Math.min(chatMax, area.height - TOOL_MIN_ROWS + 1));
  let chat: number;
  if (!input.toolOutput) chat = area.height - TOOL_MIN_ROWS + 1;
  else {
    const text = input.chatRows ? input.chatRows(Math.max(1, area.width - PANE_FRAME_COLS)) : Number.POSITIVE_INFINITY;
    chat = Math.max(CHAT_MIN_ROWS, Math.min(most, text + 2));
  }
  return {
    chat: { left: area.left, top: area.top, width: area.width, height: chat },
    toolOutput: { left: area.left, top: area.top + chat - 1, width: area.width, height: area.height - chat + 1 },
  };
}

export function computeLayout(input: LayoutInput): Layout {
  const { cols, rows } = input;
  const status: Rect = { left: 0, top: rows - 1, width: cols, height: 1 };
  if (cols < MIN_COLS || rows < MIN_ROWS) {
    return { mode: "tooSmall", main: {}, input: NONE, status, overlay: overlayRect(cols, 0, rows - 1) };
  }
  const jobCount = input.jobCount ?? 0;
  const side = jobCount > 0 || (input.fileCount ?? 0) > 0 || input.sideFocused === true;
  const small = cols < FULL_COLS || rows < FULL_ROWS;
  // Between 80 and SIDE_BY_SIDE_COLS a side column would squeeze a job's log lines: tabs instead.
  const mode: LayoutMode = small || (side && cols < SIDE_BY_SIDE_COLS && !input.zoomed) ? "tabs" : "full";
  const inputHeight = Math.max(1, Math.min(input.inputRows, Math.floor(rows / 4))) + 2;
  const inputTop = rows - 1 - inputHeight;
  const inputRect: Rect = { left: 0, top: inputTop, width: cols, height: inputHeight };
  const top = mode === "tabs" ? 1 : 0;
  // The input's top border is the main area's bottom border.
  const mainHeight = inputTop + 1 - top;
  const area: Rect = { left: 0, top, width: cols, height: mainHeight };
  const overlay = overlayRect(cols, top, inputTop);
  const base = { input: inputRect, status, overlay, ...(mode === "tabs" ? { tabs: { left: 0, top: 0, width: cols, height: 1 } } : {}) };
  // The chat's share of its column, from the terminal's height alone: a taller input takes rows
  // from the tool output, never from the chat.
  const chatMax = Math.round((rows - 3 - top) * CHAT_SHARE);

  const single = mode === "tabs" ? (input.tab ?? "chat") : input.zoomed;
  if (single === "jobs") {
    const { jobs, jobTerminal } = jobsColumn(area, jobCount, Math.round(mainHeight / 3));
    return { mode, ...base, main: { jobs }, jobTerminal };
  }
  // The cockpit's tabs keep the tool output under the chat.
  if (mode === "tabs" && !small && (single === "chat" || single === "toolOutput")) {
    return { mode, ...base, main: chatColumn(area, chatMax, input) };
  }
  if (single) return { mode, ...base, main: { [single]: area } };

  if (!side) return { mode, ...base, main: chatColumn(area, chatMax, input) };
  const width = sideWidth(cols);
  const column = cols - width;
  const left = chatColumn({ left: 0, top: 0, width: column + 1, height: mainHeight }, chatMax, input);
  const right: Rect = { left: column, top: 0, width, height: mainHeight };
  if (jobCount === 0 && (input.fileCount ?? 0) > 0) return { mode, ...base, main: { ...left, files: right } };
  // The files share the column with the jobs when there are any (or neither is, but one is focused).
  const filesHeight = (input.fileCount ?? 0) > 0 || jobCount === 0 ? Math.max(FILES_MIN_ROWS, Math.round(mainHeight * FILES_SHARE)) : 0;
  const jobsArea: Rect = { ...right, height: mainHeight - filesHeight + (filesHeight > 0 ? 1 : 0) };
  const { jobs, jobTerminal } = jobsColumn(jobsArea, jobCount, Math.floor(jobsArea.height / 3));
  const main: Partial<Record<MainPane, Rect>> = { ...left, jobs };
  if (filesHeight > 0) main.files = { left: column, top: mainHeight - filesHeight, width, height: filesHeight };
  return { mode, ...base, main, jobTerminal };
}

/** Overlays: centred, at most 110 columns, from just under `top` to just above the input's border. */
function overlayRect(cols: number, top: number, inputTop: number): Rect {
  const width = Math.max(1, Math.min(cols - 4, 110));
  const overlayTop = Math.min(top + 1, Math.max(0, inputTop - 3));
  return { left: Math.max(0, Math.floor((cols - width) / 2)), top: overlayTop, width, height: Math.max(3, inputTop - overlayTop) };
}
