// The files pane: every file the agent read (R), wrote (W) or edited (M) this session, newest
// first, with the lines an edit added and removed. Fed by tool_execution_end details, which carry
// the absolute path (and for an edit the diff and its counts).
import type { Widgets } from "blessed";
import { relative } from "node:path";
import type { PitwallEvent } from "../agent/events.js";
import type { Message } from "../agent/messages.js";
import type { Canvas } from "./canvas.js";
import { PaneBox } from "./pane-box.js";
import { attr, Color, withStyle, type StyledLine } from "./styled-text.js";
import { sanitizeText } from "./terminal-text.js";
import { fitText, textWidth } from "./text-width.js";

export type FileMark = "R" | "W" | "M";

export interface TouchedFile {
  path: string;
  mark: FileMark;
  added: number;
  removed: number;
  /** The last diff of an edit (for a preview). */
  lastDiff?: string;
  at: number;
}

const MARK_STYLE: Record<FileMark, number> = {
  R: attr({ fg: Color.blue }),
  W: attr({ fg: Color.green }),
  M: attr({ fg: Color.yellow }),
};
const DIM = attr({ fg: Color.grey });

function details(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

export class FilesPane extends PaneBox {
  private readonly files = new Map<string, TouchedFile>();
  selectedPath: string | undefined;
  private scrollTop = 0;

  constructor(
    screen: Widgets.Screen,
    private readonly cwd: string,
  ) {
    super(screen, { title: "files" });
  }

  /** Records a finished read/write/edit call. Returns true when the list changed. */
  record(toolName: string, rawDetails: unknown, isError: boolean, at = Date.now()): boolean {
    if (isError) return false;
    const d = details(rawDetails);
    if (typeof d.path !== "string") return false;
    const mark: FileMark | undefined = toolName === "read" ? "R" : toolName === "write" ? "W" : toolName === "edit" ? "M" : undefined;
    if (!mark) return false;
    const previous = this.files.get(d.path);
    const file: TouchedFile = {
      path: d.path,
      // A file once changed stays marked as changed when it is read again.
      mark: mark === "R" && previous && previous.mark !== "R" ? previous.mark : mark,
      added: (previous?.added ?? 0) + (typeof d.linesAdded === "number" ? d.linesAdded : 0),
      removed: (previous?.removed ?? 0) + (typeof d.linesRemoved === "number" ? d.linesRemoved : 0),
      lastDiff: typeof d.diff === "string" ? d.diff : previous?.lastDiff,
      at,
    };
    this.files.delete(d.path);
    this.files.set(d.path, file);
    return true;
  }

  handle(event: PitwallEvent): boolean {
    if (event.type !== "tool_execution_end") return false;
    return this.record(event.toolName, event.details, event.isError);
  }

  loadMessages(messages: readonly Message[]): void {
    for (const m of messages) if (m.role === "toolResult") this.record(m.toolName, m.details, m.isError, m.timestamp);
  }

  /** Newest first. */
  list(): TouchedFile[] {
    return [...this.files.values()].reverse();
  }

  get selected(): TouchedFile | undefined {
    return this.selectedPath === undefined ? undefined : this.files.get(this.selectedPath);
  }

  move(direction: number): void {
    const files = this.list();
    if (files.length === 0) return;
    const at = this.selectedPath === undefined ? -1 : files.findIndex((f) => f.path === this.selectedPath);
    this.selectedPath = files[Math.min(files.length - 1, Math.max(0, at + direction))]!.path;
  }

  displayPath(path: string): string {
    const rel = relative(this.cwd, path);
    return rel && !rel.startsWith("..") ? rel : path;
  }

  rows(width: number): StyledLine[] {
    return this.list().map((f) => {
      const counts = f.added || f.removed ? ` +${f.added} −${f.removed}` : "";
      const room = Math.max(1, width - 2 - textWidth(counts));
      const row: StyledLine = [
        { text: `${f.mark} `, attr: MARK_STYLE[f.mark] },
        { text: fitText(sanitizeText(this.displayPath(f.path)), room), attr: attr() },
        { text: counts, attr: DIM },
      ];
      return f.path === this.selectedPath && this.focused ? row.map((s) => ({ text: s.text, attr: withStyle(s.attr, { inverse: true }) })) : row;
    });
  }

  protected paintContent(canvas: Canvas): void {
    const rows = this.rows(canvas.width);
    this.titleRight = rows.length ? String(rows.length) : "";
    if (rows.length === 0) {
      canvas.paintMessage("Files the agent reads, writes or edits show here.", DIM);
      return;
    }
    const at = this.list().findIndex((f) => f.path === this.selectedPath);
    if (at >= 0) {
      if (at < this.scrollTop) this.scrollTop = at;
      if (at >= this.scrollTop + canvas.height) this.scrollTop = at - canvas.height + 1;
    }
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - canvas.height));
    canvas.paintRows(rows.slice(this.scrollTop, this.scrollTop + canvas.height));
  }
}
