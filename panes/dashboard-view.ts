// The whole screen: every pane, where it goes (layout.ts), which one has focus, which one is
// zoomed (or, on a small terminal, which tab is shown), and the overlays. It knows nothing of the
// agent; the app wires events and keys to it.
import type { Widgets } from "blessed";
import { ChatPane } from "./chat/chat-pane.js";
import { CompletionMenu } from "./input/completion-menu.js";
import { FilesPane } from "./files/files-pane.js";
import { HelpOverlay } from "./overlays/help-overlay.js";
import { InputPane, type ImageFinder } from "./input/input-pane.js";
import { JobsPane } from "./jobs/jobs-pane.js";
import { JobTerminalPane, type JobScreens } from "./jobs/job-terminal-pane.js";
import { screenInternals } from "./screen/blessed-internals.js";
import { joinBorders } from "./screen/border-joints.js";
import { dimRows } from "./screen/dim.js";
import { computeLayout, MAIN_PANES, type Layout, type MainPane } from "./layout.js";
import { ListPicker } from "./overlays/list-picker.js";
import type { PaneBox } from "./screen/pane-box.js";
import type { Rect } from "./screen/canvas.js";
import { PromptOverlay } from "./overlays/prompt-overlay.js";
import { QueueView } from "./input/queue-view.js";
import { StatusBar } from "./status-bar.js";
import { TabBar } from "./tab-bar.js";
import { TooSmallNotice } from "./overlays/too-small.js";
import { ToolCallStore } from "./tool-output/tool-calls.js";
import { ToolOutputPane } from "./tool-output/tool-output-pane.js";
import { spinnerFrame } from "./text/format.js";
import { Color } from "./text/styled-text.js";

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
/** A box of `size` (inner columns and rows, without border and margins) centred in `area`, within it. */
function fitted(area: Rect, size: { cols: number; rows: number }): Rect {
  const width = Math.min(area.width, size.cols + 4);
  const height = Math.min(area.height, size.rows + 2);
  return { left: area.left + Math.floor((area.width - width) / 2), top: area.top + Math.max(0, Math.floor((area.height - height) / 3)), width, height };
}

export const FOCUS_ORDER: FocusTarget[] = ["input", "chat", "toolOutput", "jobs", "files"];
/** How often a held tool-output pane checks whether the person still reads it while a newer call runs. */
const HOLD_CHECK_MS = 1_000;

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
  /** Tab's candidates above the input; not modal (the input keeps the keys and the cursor). */
  readonly completion: CompletionMenu;
  readonly tabBar: TabBar;
  private readonly tooSmall: TooSmallNotice;
  focus: FocusTarget = "input";
  zoomed: MainPane | undefined;
  /** The pane a small terminal shows: the last main pane that had focus. */
  tab: MainPane = "chat";
  layout: Layout | undefined;
  private readonly requestFrame: () => void;
  /** Looks again whether the person still reads the call that holds the tool-output pane. */
  private holdCheck: NodeJS.Timeout | undefined;

  constructor(
    readonly screen: Widgets.Screen,
    options: DashboardViewOptions,
  ) {
    this.requestFrame = options.requestFrame;
    this.chat = new ChatPane(screen, this.tools);
    this.toolOutput = new ToolOutputPane(screen, this.tools);
    this.jobs = new JobsPane(screen);
    this.jobTerminal = new JobTerminalPane(screen, options.requestFrame, options.jobScreens);
    this.files = new FilesPane(screen, options.cwd, options.requestFrame);
    this.queue = new QueueView();
    this.input = new InputPane(screen, options.images, this.queue);
    this.status = new StatusBar(screen);
    this.tabBar = new TabBar(screen, MAIN_PANES);
    this.tooSmall = new TooSmallNotice(screen);
    this.help = new HelpOverlay(screen);
    this.picker = new ListPicker(screen);
    this.prompt = new PromptOverlay(screen);
    this.completion = new CompletionMenu(screen);
    this.chat.onSelectionChange((id) => this.toolOutput.select(id));
    this.tabBar.state = (tab) => ({ mark: this.tabMark(tab), key: this.tabKeys[tab] });
    // The status line renders after every pane and before the overlays: join the borders then,
    // and dim what an open overlay covers.
    this.status.box.on("render", () => {
      if (!this.layout || this.layout.mode === "tooSmall") return;
      const rects = [...Object.values(this.layout.main), ...(this.layout.jobTerminal ? [this.layout.jobTerminal] : []), this.layout.input];
      const lines = screenInternals(this.screen).lines;
      joinBorders(lines, rects);
      if (this.overlayOpen) dimRows(lines, 0, this.layout.status.top);
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
    if (target !== "input") this.tab = target;
    this.focus = target;
    for (const t of FOCUS_ORDER) this.pane(t).setFocused(t === target);
    this.jobTerminal.setFocused(target === "jobs");
  }

  /**
   * The person's keys go to the selected job (a hint says how to leave) or, with undefined, no
   * longer: the whole jobs pane, list and terminal, is drawn in the attach colour meanwhile.
   */
  showAttached(hint: string | undefined): void {
    this.jobTerminal.attachedHint = hint;
    const accent = hint === undefined ? undefined : Color.yellow;
    this.jobTerminal.setAccent(accent);
    this.jobs.setAccent(accent);
  }

  /** Back to the live tool call: the chat's selection and the tool-output pane's hold are dropped. */
  followLiveTool(): void {
    clearTimeout(this.holdCheck);
    this.holdCheck = undefined;
    this.chat.select(undefined);
    this.toolOutput.select(undefined);
  }

  /**
   * A new tool call started: the tool-output pane goes to it, unless the person is reading another
   * call; then it looks again every second (and when the hold ends), and goes to it once the reading
   * is over (README: 15 s after the last pick or scroll, or while the pane has focus and is scrolled up).
   */
  toolCallStarted(now = Date.now()): void {
    clearTimeout(this.holdCheck);
    this.holdCheck = undefined;
    if (!this.toolOutput.held || !this.toolOutput.newerCall) return;
    if (!this.toolOutput.reading(now, this.focus === "toolOutput")) {
      this.followLiveTool();
      this.requestFrame();
      return;
    }
    const holdLeft = this.toolOutput.holdLeft(now);
    this.holdCheck = setTimeout(() => this.toolCallStarted(), holdLeft > 0 ? Math.min(holdLeft, HOLD_CHECK_MS) : HOLD_CHECK_MS);
    this.holdCheck.unref();
  }

  /** Whether the terminal is small enough for one pane at a time. */
  get tabbed(): boolean {
    return this.layout?.mode === "tabs";
  }

  cycleFocus(direction: 1 | -1): void {
    const order = this.zoomed && !this.tabbed ? (["input", this.zoomed] as FocusTarget[]) : FOCUS_ORDER;
    const at = Math.max(0, order.indexOf(this.focus));
    this.setFocus(order[(at + direction + order.length) % order.length]!);
  }

  /** Maximises the focused pane (the chat when the input has focus), or restores the layout; tabs show one pane anyway. */
  toggleZoom(): void {
    if (this.tabbed) return;
    if (this.zoomed) this.zoomed = undefined;
    else this.zoomed = this.focus === "input" ? "chat" : this.focus;
  }

  get overlayOpen(): boolean {
    return this.help.open || this.picker.open || this.prompt.open;
  }

  /** What a tab says besides its name: a tool running, jobs up and unseen output, files touched. */
  private tabMark(tab: MainPane): string {
    switch (tab) {
      case "chat":
        return this.chat.log.news > this.chatNewsSeen ? "•" : "";
      case "toolOutput":
        return this.toolOutput.animated ? spinnerFrame() : "";
      case "jobs":
        return `${this.jobs.runningCount > 0 ? `${this.jobs.runningCount}↑` : ""}${this.jobs.anyUnseen ? "•" : ""}`;
      case "files": {
        const n = this.files.list().length;
        return n > 0 ? String(n) : "";
      }
    }
  }

  private tabKeys: Partial<Record<MainPane, string>> = {};
  /** The chat's `news` when it was last on screen: a reply that comes while another tab is shown marks the chat tab. */
  private chatNewsSeen = 0;

  /** Puts the keys that open the help, start a job and show each pane into the hints and the tab bar. */
  showKeyHints(keys: { help?: string; newJob?: string; panes?: Partial<Record<MainPane, string>> }): void {
    this.tabKeys = keys.panes ?? {};
    const newJob = keys.newJob ? `${keys.newJob} here, ` : "";
    this.jobs.emptyHint = [
      `No jobs yet: the agent's (bash_stream) and yours (${newJob}/run) show here.`,
      `No jobs yet. Start one: ${newJob}/run <command>.`,
      "No jobs yet (/run starts one).",
      "No jobs yet.",
    ];
    this.input.placeholder = [`Ask pitwall to do something · / for commands${keys.help ? ` · ${keys.help} for keys` : ""}`, "Ask pitwall to do something · / for commands", "Ask pitwall to do something"];
  }

  private computeLayout(jobCount = this.jobs.list().length, zoomed = this.zoomed, tab = this.tab): Layout {
    const cols = this.screen.width as number;
    const rows = this.screen.height as number;
    return computeLayout({
      cols,
      rows,
      inputRows: this.input.desiredRows(cols - 2),
      zoomed,
      tab,
      jobCount,
      fileCount: this.files.list().length,
      sideFocused: this.focus === "jobs" || this.focus === "files",
      toolOutput: this.toolOutput.currentId !== undefined,
      chatRows: (width) => this.chat.contentRows(width, rows),
    });
  }

  /**
   * The job terminal's inner size once the list holds `jobCount` jobs (the list is as tall as its
   * jobs), where the person will see it (unzoomed, or on the jobs tab): a job the person starts
   * begins at the size it will be shown at, since programs such as vim read their size once.
   */
  jobTerminalSize(jobCount: number): { cols: number; rows: number } | undefined {
    const unzoomed = this.computeLayout(jobCount, undefined);
    const rect = unzoomed.jobTerminal ?? (unzoomed.mode === "tabs" ? this.computeLayout(jobCount, undefined, "jobs").jobTerminal : undefined);
    if (!rect) return undefined;
    const inner = this.jobTerminal.innerOf(rect);
    return inner.width >= 2 && inner.height >= 1 ? { cols: inner.width, rows: inner.height } : undefined;
  }

  /** Places every pane for the current terminal size. Cheap: call it before each frame. */
  relayout(): void {
    const cols = this.screen.width as number;
    const rows = this.screen.height as number;
    const layout = this.computeLayout();
    this.layout = layout;
    const tooSmall = layout.mode === "tooSmall";
    this.tooSmall.setVisible(tooSmall);
    this.tooSmall.question = this.status.state.question;
    // The status line stays: the quit question ("quit and stop them? y/n") is asked there.
    if (tooSmall) this.tooSmall.setRect({ left: 0, top: 0, width: cols, height: rows - 1 });
    this.tabBar.setVisible(layout.tabs !== undefined);
    if (layout.tabs) {
      this.tabBar.active = this.tab;
      this.tabBar.setRect(layout.tabs);
    }
    if (layout.main.chat) this.chatNewsSeen = this.chat.log.news;
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
    this.input.setVisible(!tooSmall);
    if (!tooSmall) this.input.setRect(layout.input);
    this.status.setRect(layout.status);
    // Overlays as large as what they hold, centred in their area.
    for (const overlay of [this.help, this.picker, this.prompt]) {
      if (overlay.open) overlay.setRect(fitted(layout.overlay, overlay.contentSize(layout.overlay.width - 4)));
      overlay.setVisible(overlay.open && !tooSmall);
    }
    // The completion menu over the panes just above the input, in front of them (an overlay hides it).
    const menu = this.completion.open && !tooSmall && !this.overlayOpen;
    if (menu) this.completion.setRect(this.completion.place(layout.input, { left: 0, top: 0, width: cols, height: rows }));
    this.completion.setVisible(menu);
  }

  /** Whether a frame soon would show something new on its own (spinners, running times). */
  get animated(): boolean {
    return this.status.animated || this.chat.animated || this.toolOutput.animated || this.jobs.runningCount > 0;
  }

  /** The focusable pane under a screen cell (the job terminal belongs to the jobs pane, a tab to its pane). */
  paneAt(x: number, y: number): FocusTarget | undefined {
    if (this.jobTerminal.contains(x, y)) return "jobs";
    if (this.tabBar.contains(x, y)) return this.tabBar.tabAt(x);
    return FOCUS_ORDER.find((t) => this.pane(t).contains(x, y));
  }
}
