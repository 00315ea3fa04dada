// The whole screen: every pane, where it goes (layout.ts), which one has focus, which one is
// zoomed, and the overlays. It knows nothing of the agent; the app wires events and keys to it.
import type { Widgets } from "blessed";
import { ChatPane } from "./chat/chat-pane.js";
import { FilesPane } from "./files/files-pane.js";
import { HelpOverlay } from "./overlays/help-overlay.js";
import { InputPane, type ImageFinder } from "./input/input-pane.js";
import { JobsPane } from "./jobs/jobs-pane.js";
import { JobTerminalPane, type JobScreens } from "./jobs/job-terminal-pane.js";
import { screenInternals } from "./screen/blessed-internals.js";
import { joinBorders } from "./screen/border-joints.js";
import { computeLayout, type Layout, type MainPane } from "./layout.js";
import { ListPicker } from "./overlays/list-picker.js";
import type { PaneBox } from "./screen/pane-box.js";
import { PromptOverlay } from "./overlays/prompt-overlay.js";
import { QueueView } from "./input/queue-view.js";
import { StatusBar } from "./status-bar.js";
import { TooSmallNotice } from "./overlays/too-small.js";
import { ToolCallStore } from "./tool-output/tool-calls.js";
import { ToolOutputPane } from "./tool-output/tool-output-pane.js";

export type FocusTarget = MainPane | "input";

export interface DashboardViewOptions {
  /** The working directory: the files pane shows paths relative to it. */
  cwd: string;
  /** Asks for a frame (the render scheduler's request). */
  requestFrame: () => void;
  /** Opens the screens of jobs for the job terminal; undefined until the agent's jobs have loaded. */
  jobScreens: () => JobScreens | undefined;
  /** Finds the image files a paste or an `@path` in the input names. */
  images?: ImageFinder;
}
export const FOCUS_ORDER: FocusTarget[] = ["input", "chat", "toolOutput", "jobs", "files"];

export class DashboardView {
  readonly tools = new ToolCallStore();
  readonly chat: ChatPane;
  readonly toolOutput: ToolOutputPane;
  readonly jobs: JobsPane;
  /** The selected job's terminal: part of the jobs pane (focus and zoom go with the list). */
  readonly jobTerminal: JobTerminalPane;
  readonly files: FilesPane;
  readonly queue: QueueView;
  readonly input: InputPane;
  readonly status: StatusBar;
  readonly help: HelpOverlay;
  readonly picker: ListPicker;
  readonly prompt: PromptOverlay;
  private readonly tooSmall: TooSmallNotice;
  focus: FocusTarget = "input";
  zoomed: MainPane | undefined;
  layout: Layout | undefined;

  constructor(
    readonly screen: Widgets.Screen,
    options: DashboardViewOptions,
  ) {
    this.chat = new ChatPane(screen, this.tools);
    this.toolOutput = new ToolOutputPane(screen, this.tools);
    this.jobs = new JobsPane(screen);
    this.jobTerminal = new JobTerminalPane(screen, options.requestFrame, options.jobScreens);
    this.files = new FilesPane(screen, options.cwd, options.requestFrame);
    this.queue = new QueueView(screen);
    this.input = new InputPane(screen, options.images);
    this.status = new StatusBar(screen);
    this.tooSmall = new TooSmallNotice(screen);
    this.help = new HelpOverlay(screen);
    this.picker = new ListPicker(screen);
    this.prompt = new PromptOverlay(screen);
    this.chat.onSelectionChange((id) => this.toolOutput.select(id));
    // The status line renders after every pane and before the overlays: join the borders then.
    this.status.box.on("render", () => {
      if (!this.layout || this.layout.tooSmall) return;
      const rects = [...Object.values(this.layout.main), ...(this.layout.jobTerminal ? [this.layout.jobTerminal] : []), this.layout.input];
      joinBorders(screenInternals(this.screen).lines, rects);
    });
    this.setFocus("input");
  }

  pane(target: FocusTarget): PaneBox {
    switch (target) {
      case "chat":
        return this.chat;
      case "toolOutput":
        return this.toolOutput;
      case "jobs":
        return this.jobs;
      case "files":
        return this.files;
      case "input":
        return this.input;
    }
  }

  get mainPanes(): Record<MainPane, PaneBox> {
    return { chat: this.chat, toolOutput: this.toolOutput, jobs: this.jobs, files: this.files };
  }

  setFocus(target: FocusTarget): void {
    if (this.zoomed && target !== "input" && target !== this.zoomed) this.zoomed = target;
    this.focus = target;
    for (const t of FOCUS_ORDER) this.pane(t).setFocused(t === target);
    this.jobTerminal.setFocused(target === "jobs");
  }

  cycleFocus(direction: 1 | -1): void {
    const order = this.zoomed ? (["input", this.zoomed] as FocusTarget[]) : FOCUS_ORDER;
    const at = Math.max(0, order.indexOf(this.focus));
    this.setFocus(order[(at + direction + order.length) % order.length]!);
  }

  /** Maximises the focused pane (the chat when the input has focus), or restores the layout. */
  toggleZoom(): void {
    if (this.zoomed) this.zoomed = undefined;
    else this.zoomed = this.focus === "input" ? "chat" : this.focus;
  }

  get overlayOpen(): boolean {
    return this.help.open || this.picker.open || this.prompt.open;
  }

  /** Puts the keys that open the help and start a job into the empty input's and the empty job list's hints. */
  showKeyHints(keys: { help?: string; newJob?: string }): void {
    this.jobs.emptyHint = `No jobs yet: the agent's (bash_stream) and yours (${keys.newJob ? `${keys.newJob} here, ` : ""}/run) show here.`;
    this.input.placeholder = `Ask pitwall to do something · / for commands${keys.help ? ` · ${keys.help} for keys` : ""}`;
  }

  /** Places every pane for the current terminal size. Cheap: call it before each frame. */
  relayout(): void {
    const cols = this.screen.width as number;
    const rows = this.screen.height as number;
    const layout = computeLayout({
      cols,
      rows,
      inputRows: this.input.desiredRows(cols - 2),
      queueRows: this.queue.desiredRows,
      zoomed: this.zoomed,
      jobCount: this.jobs.list().length,
    });
    this.layout = layout;
    this.tooSmall.setVisible(layout.tooSmall);
    if (layout.tooSmall) this.tooSmall.setRect({ left: 0, top: 0, width: cols, height: rows });
    for (const [name, pane] of Object.entries(this.mainPanes) as Array<[MainPane, PaneBox]>) {
      const rect = layout.main[name];
      pane.setVisible(rect !== undefined);
      if (rect) pane.setRect(rect);
    }
    this.jobTerminal.setVisible(layout.jobTerminal !== undefined);
    if (layout.jobTerminal) this.jobTerminal.setRect(layout.jobTerminal);
    // The selected job's terminal is on screen: its output counts as seen.
    this.jobTerminal.jobId = this.jobs.selectedId;
    this.jobs.markViewed(layout.jobTerminal ? this.jobs.selectedId : undefined);
    this.queue.setVisible(!layout.tooSmall && layout.queue.height > 0);
    if (layout.queue.height > 0) this.queue.setRect(layout.queue);
    this.input.setVisible(!layout.tooSmall);
    if (!layout.tooSmall) this.input.setRect(layout.input);
    this.status.setVisible(!layout.tooSmall);
    this.status.setRect(layout.status);
    for (const overlay of [this.help, this.picker]) {
      overlay.setRect(layout.overlay);
      overlay.setVisible(overlay.open && !layout.tooSmall);
    }
    this.prompt.setRect({ left: layout.overlay.left, top: Math.max(0, Math.floor(rows / 3)), width: layout.overlay.width, height: 4 });
    this.prompt.setVisible(this.prompt.open && !layout.tooSmall);
  }

  /** Whether a frame soon would show something new on its own (spinners, running times). */
  get animated(): boolean {
    return this.status.animated || this.chat.animated || this.toolOutput.animated || this.jobs.runningCount > 0;
  }

  /** The focusable pane under a screen cell (the job terminal belongs to the jobs pane). */
  paneAt(x: number, y: number): FocusTarget | undefined {
    if (this.jobTerminal.contains(x, y)) return "jobs";
    return FOCUS_ORDER.find((t) => this.pane(t).contains(x, y));
  }
}
