// The files pane: every file the agent read (R), wrote (W) or edited (M) this session, newest
// first, with the lines an edit added and removed, and under the list a preview of the selected one
// (highlighted) or of its last edit's diff (files-preview.ts). Fed by the typed `file` of
// tool_execution_end events and tool result messages (tools/file-touch.ts): the absolute path, and
// for an edit the diff and its counts.
import type { Widgets } from "blessed";
import { relative } from "node:path";
import type { PitwallEvent } from "../../agent/events.js";
import type { Message } from "../../agent/messages.js";
import type { FileTouch } from "../../tools/file-touch.js";
import type { Canvas } from "../screen/canvas.js";
import { FilePreview } from "./files-preview.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { selectedRow } from "../text/selection.js";
import { sanitizeText } from "../text/terminal-text.js";
import { fitText, textWidth } from "../text/text-width.js";

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
  R: attr({ fg: Color.brightBlue }),
  W: attr({ fg: Color.green }),
  M: attr({ fg: Color.yellow }),
};
const DIM = attr({ fg: Color.grey });

const MARK_OF: Record<FileTouch["kind"], FileMark> = { read: "R", write: "W", edit: "M" };

const RULE = attr({ fg: Color.grey });

export class FilesPane extends PaneBox {
  private readonly files = new Map<string, TouchedFile>();
  /** The file picked with the keys; until then the newest one is previewed. */
  selectedPath: string | undefined;
  /** Show an edited file's last diff (true) or the file itself. */
  preferDiff = true;
  private scrollTop = 0;
  private previewTop = 0;
  private previewHeight = 0;
  private previewedKey: string | undefined;
  readonly preview: FilePreview;

  constructor(
    screen: Widgets.Screen,
    private readonly cwd: string,
    requestFrame: () => void = () => undefined,
  ) {
    super(screen, { title: "files" });
    this.preview = new FilePreview(requestFrame);
  }

  /** Records the file a finished call touched. Returns true when the list changed. */
  record(touch: FileTouch | undefined, isError: boolean, at = Date.now()): boolean {
    if (isError || !touch) return false;
    const mark = MARK_OF[touch.kind];
    const previous = this.files.get(touch.path);
    const edit = touch.kind === "edit" ? touch : undefined;
    const file: TouchedFile = {
      path: touch.path,
      // A file once changed stays marked as changed when it is read again.
      mark: mark === "R" && previous && previous.mark !== "R" ? previous.mark : mark,
      added: (previous?.added ?? 0) + (edit?.linesAdded ?? 0),
      removed: (previous?.removed ?? 0) + (edit?.linesRemoved ?? 0),
      lastDiff: edit?.diff ?? previous?.lastDiff,
      at,
    };
    this.files.delete(touch.path);
    this.files.set(touch.path, file);
    return true;
  }

  handle(event: PitwallEvent): boolean {
    if (event.type !== "tool_execution_end") return false;
    return this.record(event.file, event.isError);
  }

  loadMessages(messages: readonly Message[]): void {
    for (const m of messages) if (m.role === "toolResult") this.record(m.file, m.isError, m.timestamp);
  }

  /** Forgets every file (a new conversation, or another branch of this one shown). */
  clear(): void {
    this.files.clear();
    this.selectedPath = undefined;
    this.previewedKey = undefined;
    this.scrollTop = 0;
    this.previewTop = 0;
  }

  /** Newest first. */
  list(): TouchedFile[] {
    return [...this.files.values()].reverse();
  }

  /** The selected file, or the newest one when none was picked. */
  get selected(): TouchedFile | undefined {
    return this.selectedPath === undefined ? this.list()[0] : this.files.get(this.selectedPath);
  }

  move(direction: number): void {
    const files = this.list();
    if (files.length === 0) return;
    const current = this.selected?.path;
    const at = current === undefined ? 0 : files.findIndex((f) => f.path === current);
    this.selectedPath = files[Math.min(files.length - 1, Math.max(0, at + direction))]!.path;
  }

  /** The view the preview shows for a file: its last diff when it has one (and diffs are preferred). */
  modeFor(file: TouchedFile): "file" | "diff" {
    return this.preferDiff && file.lastDiff !== undefined ? "diff" : "file";
  }

  /** Switches an edited file's preview between its diff and its content. */
  toggleDiff(): void {
    this.preferDiff = !this.preferDiff;
  }

  scrollPreview(rows: number): void {
    const max = Math.max(0, this.preview.lineCount - Math.max(1, this.previewHeight));
    this.previewTop = Math.max(0, Math.min(max, this.previewTop + rows));
  }

  pagePreview(direction: 1 | -1): void {
    this.scrollPreview(direction * Math.max(1, this.previewHeight - 1));
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
      return f.path === this.selected?.path && this.focused ? selectedRow(row, width) : row;
    });
  }

  protected paintContent(canvas: Canvas): void {
    const rows = this.rows(canvas.width);
    this.titleRight = rows.length ? String(rows.length) : "";
    if (rows.length === 0) {
      canvas.paintMessage(["Files the agent reads, writes or edits show here.", "Files touched show here."], DIM);
      return;
    }
    // The list takes up to a third of the rows; a rule and the preview the rest.
    const withPreview = canvas.height >= 5;
    const listHeight = withPreview ? Math.min(rows.length, Math.max(1, Math.floor(canvas.height / 3))) : canvas.height;
    const selected = this.selected;
    const at = selected ? this.list().indexOf(selected) : -1;
    if (at >= 0) {
      if (at < this.scrollTop) this.scrollTop = at;
      if (at >= this.scrollTop + listHeight) this.scrollTop = at - listHeight + 1;
    }
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - listHeight));
    canvas.sub(0, 0, canvas.width, listHeight).paintRows(rows.slice(this.scrollTop, this.scrollTop + listHeight));
    if (!withPreview || !selected) return;
    const mode = this.modeFor(selected);
    const key = `${selected.path}\0${selected.at}\0${mode}`;
    this.preview.show(selected, mode);
    if (key !== this.previewedKey) {
      this.previewedKey = key;
      // A small preview would show a diff's hunk header and context, not what changed.
      this.previewTop = this.preview.startRow;
    }
    const label = `${mode === "diff" ? "last edit" : "preview"}: ${sanitizeText(this.displayPath(selected.path))}`;
    canvas.paintLine(listHeight, [{ text: `── ${label} `, attr: RULE }, { text: "─".repeat(Math.max(0, canvas.width)), attr: RULE }]);
    this.previewHeight = canvas.height - listHeight - 1;
    canvas.sub(0, listHeight + 1, canvas.width, this.previewHeight).paintRows(this.preview.rows(this.previewTop, this.previewHeight));
  }
}
