// The tool-output pane: the selected tool call in full, or, when nothing is selected, the call
// running now (its output streaming live) or the last one. bash output keeps its colours; an edit
// shows its diff coloured; a read shows the numbered lines; a write what was written (the result's
// typed `file`, tools/file-touch.ts).
import type { Widgets } from "blessed";
import { BlockScroller } from "../screen/block-scroller.js";
import { diffLines } from "../text/diff-lines.js";
import type { Canvas } from "../screen/canvas.js";
import { formatDuration, spinnerFrame } from "../text/format.js";
import { LineListSource, StaticLines, type LineList } from "../screen/line-list-source.js";
import { ScrollingPane } from "../screen/scrolling-pane.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText, TerminalTextLog } from "../text/terminal-text.js";
import { describeToolCall } from "../../tools/tool-call-summary.js";
import type { ToolCallRecord, ToolCallStore } from "./tool-calls.js";

const DIM = attr({ fg: Color.grey });
const ERROR = attr({ fg: Color.red });

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
  // yielded): its output continues there.
  if (r.result.runningJob !== undefined) parts.push(`still running as job ${r.result.runningJob}: its output goes on in the jobs pane`);
  if (r.durationMs !== undefined) parts.push(formatDuration(r.durationMs));
  if (command?.fullOutputPath !== undefined) parts.push(`full output: ${command.fullOutputPath}`);
  const lines: StyledLine[] = [[], [{ text: `── ${parts.join(" · ") || (r.result.isError ? "failed" : "done")}`, attr: r.result.isError ? ERROR : DIM }]];
  if (r.result.isError && typeof command?.exitCode !== "number") lines.push(...textLines(r.result.content, ERROR));
  return lines;
}

/** A streamed log followed by a few footer lines, as one list. */
class LogWithFooter implements LineList {
  constructor(
    private readonly log: TerminalTextLog,
    private readonly footer: StyledLine[],
  ) {}
  get dropped(): number {
    return this.log.dropped;
  }
  get lineCount(): number {
    return this.log.lineCount + this.footer.length;
  }
  line(i: number): StyledLine | undefined {
    return i < this.log.lineCount ? this.log.line(i) : this.footer[i - this.log.lineCount];
  }
}

export class ToolOutputPane extends ScrollingPane {
  /** The call picked in the chat; undefined shows the running or latest call. */
  private selectedId: string | undefined;
  private shownId: string | undefined;
  private shownVersion = -1;
  private readonly source = new LineListSource(new StaticLines([]));
  protected readonly scroller = new BlockScroller(this.source);

  constructor(
    screen: Widgets.Screen,
    private readonly tools: ToolCallStore,
  ) {
    super(screen, { title: "tool output" });
  }

  select(id: string | undefined): void {
    this.selectedId = id;
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
      // A running call's log is shown live; the list is rebuilt only when the call's shape changes.
      if (r.lines) this.source.setList(new StaticLines(r.lines));
      else if (streamed) this.source.setList(r.status === "running" ? r.output : new LogWithFooter(r.output, footerLines(r)));
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
      canvas.paintMessage("Tool calls show their output here. Select one in the chat with Alt+Up / Alt+Down.", DIM);
      return;
    }
    this.title = r.title ?? `tool output: ${describeToolCall(r.name, r.args, 200).replace(/\s+/g, " ")}`;
    const state = r.lines ? "" : r.status === "running" ? `${spinnerFrame()} running` : r.status === "error" ? (r.result?.command?.aborted ? "■ stopped" : "✗ failed") : r.status === "done" ? "✓ done" : "waiting";
    const view = this.scroller.view(canvas.width, canvas.height);
    const parts = [state, this.scroller.following ? "" : "paused · End", this.selectedId && !r.personal ? "selected" : ""].filter((p) => p);
    this.titleRight = parts.join(" · ");
    canvas.paintRows(view.rows);
  }
}
