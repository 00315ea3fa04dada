// The tool-output pane: the selected tool call in full, or, when nothing is selected, the call
// running now (its output streaming live) or the last one. bash output keeps its colours; an edit
// shows its diff coloured; a read shows the numbered lines; a write what was written (the result's
// typed `file`, tools/file-touch.ts). A selection holds the pane only while the person is reading
// it (see `reading`): the view then says that a newer call started and that End goes to it.
import type { Widgets } from "blessed";
import { BlockScroller } from "../screen/block-scroller.js";
import { diffLines } from "../text/diff-lines.js";
import type { Canvas } from "../screen/canvas.js";
import { formatDuration, spinnerFrame } from "../text/format.js";
import { LineListSource, StaticLines, type LineList } from "../screen/line-list-source.js";
import { ScrollingPane } from "../screen/scrolling-pane.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText, TerminalTextLog } from "../text/terminal-text.js";
import { truncateText } from "../text/text-width.js";
import { describeToolCall } from "../../tools/tool-call-summary.js";
import { describeStatus } from "../../tools/jobs/index.js";
import { groupDigits } from "../../tools/digit-groups.js";
import { jobState, type ToolCallRecord, type ToolCallStore } from "./tool-calls.js";

const DIM = attr({ fg: Color.grey });
const ERROR = attr({ fg: Color.red });
/** The empty pane's hint, the first wording that fits (the pane is one row high until a call runs). */
const EMPTY_HINT = [
  "Tool calls show their output here. Select one in the chat with Alt+Up / Alt+Down.",
  "Tool calls show their output here (Alt+Up / Alt+Down select one).",
  "Tool output shows here.",
];
/** A selected call holds the pane this long after the person last selected or scrolled it (unless Settings.readingHoldMs says otherwise). */
export const READING_HOLD_MS = 15_000;

function textLines(text: string, a = attr()): StyledLine[] {
  return sanitizeText(text).replace(/\n$/, "").split("\n").map((l) => (l ? [{ text: l, attr: a }] : []));
}

/** What a finished call shows when it streamed no output. */
export function resultLines(r: ToolCallRecord): StyledLine[] {
  const result = r.result;
  if (!result) return [[{ text: r.status === "pending" ? "waiting to run…" : "running…", attr: DIM }]];
  if (result.isError) return textLines(result.content, ERROR);
  const file = result.file;
  if (file?.kind === "edit") return diffLines(file.diff);
  if (file?.kind === "write") {
    const head: StyledLine = [{ text: `${file.created ? "Created" : "Wrote"} ${file.path} (${file.bytes} bytes)`, attr: DIM }];
    const content = typeof r.args.content === "string" ? textLines(r.args.content) : [];
    return [head, [], ...content];
  }
  return textLines(result.content);
}

/** What became of the job a call's command ran on as: still running, or how it ended. */
function runOnText(id: string, end: ToolCallRecord["jobEnd"]): string {
  if (!end) return `still running as job ${id}: its output goes on in the jobs pane`;
  // In the words the chat's notices use for a job's end ("exited with code 3", "killed by SIGTERM").
  return `ran on as job ${id}, which ${end.status === "killed" ? "was " : ""}${describeStatus(end)}: its output is in the jobs pane`;
}

/** The footer of a call that streamed output: how it ended. */
function footerLines(r: ToolCallRecord): StyledLine[] {
  if (!r.result) return [];
  const command = r.result.command;
  const parts: string[] = [];
  if (typeof command?.exitCode === "number") parts.push(`exit ${command.exitCode}`);
  if (command?.signal !== undefined) parts.push(`killed by ${command.signal}`);
  if (command?.timedOut) parts.push("timed out");
  if (command?.aborted) parts.push("aborted");
  // A call whose command runs on as a job (a bash call that outlived its wait, a bash_stream that
  // yielded): its output continues there, and once the job has ended the footer says how.
  if (r.result.runningJob !== undefined) parts.push(runOnText(r.result.runningJob, r.jobEnd));
  if (r.durationMs !== undefined) parts.push(formatDuration(r.durationMs));
  if (command?.fullOutputPath !== undefined) parts.push(`full output: ${command.fullOutputPath}`);
  const lines: StyledLine[] = [[], [{ text: `── ${parts.join(" · ") || (r.result.isError ? "failed" : "done")}`, attr: r.result.isError ? ERROR : DIM }]];
  if (r.result.isError && typeof command?.exitCode !== "number") lines.push(...textLines(r.result.content, ERROR));
  return lines;
}

/** Where the whole output of a call is, for the line that says earlier lines were let go. */
function fullOutputNote(r: ToolCallRecord): string {
  const path = r.result?.command?.fullOutputPath;
  if (path !== undefined) return ` · full output: ${path}`;
  if (r.jobId !== undefined) return ` · the whole log: /tail ${r.jobId} <lines>`;
  return r.name === "bash" && r.status === "running" ? " · the full output is saved when it ends" : "";
}

/**
 * A streamed log as one list: a first line saying how many earlier lines the pane let go (it
 * keeps the last few thousand) and where the whole output is, the log, then a few footer lines.
 */
class OutputView implements LineList {
  constructor(
    private readonly r: ToolCallRecord,
    private readonly footer: StyledLine[],
  ) {}
  private get log(): TerminalTextLog {
    return this.r.output;
  }
  private get header(): number {
    return this.log.dropped > 0 ? 1 : 0;
  }
  get dropped(): number {
    return this.log.dropped;
  }
  get lineCount(): number {
    return this.header + this.log.lineCount + this.footer.length;
  }
  line(i: number): StyledLine | undefined {
    if (this.header && i === 0) return [{ text: `… ${groupDigits(this.log.dropped)} earlier lines${fullOutputNote(this.r)}`, attr: DIM }];
    const at = i - this.header;
    return at < this.log.lineCount ? this.log.line(at) : this.footer[at - this.log.lineCount];
  }
}

export class ToolOutputPane extends ScrollingPane {
  /** The call picked in the chat; undefined shows the running or latest call. */
  private selectedId: string | undefined;
  /** When the person last picked or scrolled what the pane shows. */
  private lastInteraction = -Infinity;
  /** The latest call when the selection was made: a later one is "new". */
  private latestAtSelection: string | undefined;
  private shownId: string | undefined;
  private shownVersion = -1;
  private liveView: { record: ToolCallRecord; list: OutputView } | undefined;
  private readonly source = new LineListSource(new StaticLines([]));
  /** How long a pick or scroll holds the pane: READING_HOLD_MS, or the person's readingHoldMs. */
  holdMs = READING_HOLD_MS;
  protected readonly scroller = new BlockScroller(this.source);

  constructor(
    screen: Widgets.Screen,
    private readonly tools: ToolCallStore,
  ) {
    super(screen, { title: "tool output" });
  }

  select(id: string | undefined): void {
    this.selectedId = id;
    this.latestAtSelection = this.tools.latestId;
    this.lastInteraction = Date.now();
  }

  /** Whether the pane shows a picked call (or a view of the person's) instead of following the live one. */
  get held(): boolean {
    return this.selectedId !== undefined;
  }

  /**
   * Whether the person is reading what the pane holds: they picked or scrolled it within the last
   * holdMs, or the pane has focus and is scrolled away from the end.
   */
  reading(now: number, focused: boolean): boolean {
    return this.held && (now - this.lastInteraction < this.holdMs || (focused && !this.scroller.following));
  }

  /** How long until the last pick or scroll stops holding the pane (0: it no longer does). */
  holdLeft(now: number): number {
    return Math.max(0, this.lastInteraction + this.holdMs - now);
  }

  /** A call that started after the held one was picked, if any. */
  get newerCall(): ToolCallRecord | undefined {
    const latest = this.tools.latestId;
    if (!this.held || latest === undefined || latest === this.selectedId || latest === this.latestAtSelection) return undefined;
    return this.tools.get(latest);
  }

  override scrollBy(rows: number): void {
    this.lastInteraction = Date.now();
    super.scrollBy(rows);
  }

  override toTop(): void {
    this.lastInteraction = Date.now();
    super.toTop();
  }

  override toBottom(): void {
    this.lastInteraction = Date.now();
    super.toBottom();
  }

  get currentId(): string | undefined {
    return this.selectedId ?? this.tools.latestId;
  }

  get animated(): boolean {
    const id = this.currentId;
    return id !== undefined && this.tools.get(id)?.status === "running";
  }

  clear(): void {
    this.selectedId = undefined;
    this.shownId = undefined;
    this.source.setList(new StaticLines([]));
  }

  private refresh(): ToolCallRecord | undefined {
    const id = this.currentId;
    const r = id === undefined ? undefined : this.tools.get(id);
    if (!r) {
      if (this.shownId !== undefined) this.source.setList(new StaticLines([]));
      this.shownId = undefined;
      return undefined;
    }
    if (r.id !== this.shownId) {
      this.scroller.toBottom();
      // A picked call reads from its start; the person's own views say where they start.
      if (this.selectedId !== undefined && !(r.personal && r.followEnd)) this.scroller.toTop();
    }
    if (r.id !== this.shownId || r.version !== this.shownVersion) {
      const streamed = r.output.lineCount > 0;
      // A running call's log is shown live: one list for as long as it runs, so its wrapped rows stay cached.
      const live = r.status === "running";
      if (r.lines) this.source.setList(new StaticLines(r.lines));
      else if (streamed && live) {
        if (this.liveView?.record !== r) this.liveView = { record: r, list: new OutputView(r, []) };
        this.source.setList(this.liveView.list);
      } else if (streamed) this.source.setList(new OutputView(r, footerLines(r)));
      else this.source.setList(new StaticLines(r.personal && !r.result ? [[{ text: "running…", attr: DIM }]] : resultLines(r)));
      this.shownId = r.id;
      this.shownVersion = r.version;
    }
    return r;
  }

  protected paintContent(canvas: Canvas): void {
    const r = this.refresh();
    if (!r) {
      this.title = "tool output";
      this.titleRight = "";
      canvas.paintMessage(EMPTY_HINT, DIM);
      return;
    }
    this.title = r.title ?? `tool output: ${describeToolCall(r.name, r.args, 200).replace(/\s+/g, " ")}`;
    const state = r.lines ? "" : r.status === "running" ? `${spinnerFrame()} running` : r.status === "error" ? (r.result?.command?.aborted ? "■ stopped" : "✗ failed") : r.status === "done" ? (jobState(r)?.text ?? "✓ done") : "waiting";
    const view = this.scroller.view(canvas.width, canvas.height);
    const newer = this.newerCall;
    const parts = newer
      ? [state, `new: ${truncateText(describeToolCall(newer.name, newer.args, 80).replace(/\s+/g, " "), 24)} · End`]
      : [state, this.scroller.following ? "" : "paused · End", this.selectedId && !r.personal ? "selected" : ""];
    this.titleRight = parts.filter((p) => p).join(" · ");
    canvas.paintRows(view.rows);
  }
}
