// The dashboard's behaviour: bus events into the panes and the status line, what Enter does (a
// prompt when idle, a steering message while the agent works, a follow-up with Alt+Enter, a slash
// command, a `!command` of the person's), aborting, the queue, and quitting (asking once while
// jobs run). Before the agent has loaded the person can already type; what they send waits until
// it is ready.
import type { PitwallEvent } from "../agent/events.js";
import { describeStatus, failed, formatDuration, type JobInfo, runtime, shortCommand } from "../tools/jobs/index.js";
import type { QueuedKind } from "../agent/agent.js";
import type { ImageContent, Message, ThinkingLevel } from "../agent/messages.js";
import type { LoadedSession } from "../agent/sessions/session-load.js";
import { knownModelIds, resolveModel } from "../agent/models.js";
import { isConfigured, missingKeyMessage } from "../agent/providers/connections.js";
import type { SessionStore } from "../agent/sessions/session-store.js";
import type { DashboardView } from "../panes/dashboard-view.js";
import type { ImageAttachment } from "../panes/input/input-pane.js";
import { formatCost, formatTokens, formatWait } from "../panes/text/format.js";
import type { RenderScheduler } from "../panes/screen/render-scheduler.js";
import { displayKeyName } from "./keys/key-names.js";
import type { ActionOf } from "./keys/key-actions.js";
import type { Key } from "./keys/key.js";
import { keymapHelp } from "./keys/keymap-help.js";
import { QuitFlow, type QuitChoice } from "./quit-flow.js";
import type { EarlierJob } from "../agent/earlier-jobs.js";
import type { Keymap } from "./keys/keymap.js";
import type { Setup } from "./session-setup.js";
import { contextReportLines } from "./context-report.js";
import { JobControl, type JobControlOptions } from "./job-control.js";
import { BranchFlow } from "./branch-flow.js";
import { otherBranchCount } from "../agent/sessions/session-tree.js";
import { runSlash, SLASH_COMMANDS, type SlashContext } from "./slash-commands.js";

export type SendKind = "enter" | "followUp";

/** What the controller may do to the terminal itself (dashboard-mode.ts provides it). */
export interface TerminalControl {
  /** Ctrl+Z: stops pitwall until the shell continues it; false when the shell cannot. */
  suspend(): boolean;
  /** Ctrl+L: draws the whole screen again. */
  redraw(): void;
}

/** A second Esc within this long after one on an idle, empty input rewinds. */
const DOUBLE_PRESS_MS = 1000;
const QUIT_PRESS_MS = 1500;

export class DashboardController implements SlashContext {
  setup: Setup | undefined;
  /** Sent before the agent loaded, or while /compact runs: sent once it is ready. */
  private readonly waiting: Array<{ text: string; kind: SendKind; images: ImageAttachment[] }> = [];
  private compacting = false;
  private tokens = 0;
  private cachedTokens = 0;
  private cost: number | null = null;
  /** The last Esc that found the agent idle, the input empty and nothing queued: a second one soon after rewinds. */
  private lastIdleEscapeAt = -Infinity;
  /** The kind of the queued message taken back into the input (Up): sent again, it keeps it. */
  private editing: QueuedKind | undefined;
  private lastCtrlCAt = -Infinity;
  private transientTimer: NodeJS.Timeout | undefined;
  private readonly quitFlow: QuitFlow;
  /** What the person does to jobs: the jobs pane's keys, the job commands, `!command`. */
  readonly jobControl: JobControl;
  /** Rewind, /tree, /fork, /export. */
  readonly branches: BranchFlow;
  /** Esc was pressed during the current run. */
  private abortRequested = false;
  private unsubscribe: (() => void) | undefined;
  private unwatchSession: (() => void) | undefined;

  constructor(
    readonly view: DashboardView,
    private readonly scheduler: RenderScheduler,
    readonly keymap: Keymap,
    jobControlOptions: JobControlOptions,
    private readonly terminal: TerminalControl = { suspend: () => false, redraw: () => view.screen.realloc() },
  ) {
    const first = (keys: readonly Key[]): string | undefined => (keys[0] === undefined ? undefined : displayKeyName(keys[0]));
    const helpKey = first(keymap.keysFor("global", "help"));
    view.status.state.helpKey = helpKey ?? "/help";
    const global = (action: ActionOf<"global">): string | undefined => first(keymap.keysFor("global", action));
    view.showKeyHints({
      help: helpKey,
      newJob: first(keymap.keysFor("jobs", "newJob")),
      panes: { chat: global("focusChat"), toolOutput: global("focusToolOutput"), jobs: global("focusJobs"), files: global("focusFiles") },
    });
    this.quitFlow = new QuitFlow({
      runningJobs: () => this.setup?.coding.jobs.runningCount() ?? view.jobs.runningCount,
      canKeepJobs: () => this.setup?.coding.jobs.detach !== undefined,
      setQuestion: (text) => {
        view.status.state.question = text;
      },
      flash: (text) => this.flash(text),
      requestFrame: () => scheduler.request(),
    });
    this.jobControl = new JobControl(this, () => scheduler.request(), jobControlOptions);
    this.branches = new BranchFlow({
      view,
      coding: () => this.setup?.coding,
      cwd: () => jobControlOptions.cwd,
      notice: (level, text) => this.notice(level, text),
      requestFrame: () => scheduler.request(),
      settled: () => this.sendWaiting(),
    });
  }

  // ---- lifecycle -------------------------------------------------------------------------

  /** Connects a ready setup: its events, its resumed conversation, its warnings. */
  attach(setup: Setup): void {
    this.setup = setup;
    const { agent, bus } = setup.coding;
    this.unsubscribe = bus.subscribe((event) => this.onEvent(event));
    this.view.chat.notice("info", `pitwall in ${setup.options.cwd} · ${agent.state.model.provider}/${agent.state.model.id} · ${this.view.status.state.helpKey} shows the keys, /help the commands`);
    if (setup.resumed) this.loadConversation(setup.resumed);
    for (const warning of [...setup.warnings, ...setup.sessionWarnings]) this.view.chat.notice("warning", warning);
    for (const warning of this.keymap.warnings) this.view.chat.notice("warning", warning);
    if (this.missingKey()) this.view.chat.notice("warning", `${this.missingKey()} Until then, prompts are not sent.`);
    const status = this.view.status.state;
    // "ready" once the provider is loaded too (providerReady): a prompt typed then goes out at once.
    status.phase = agent.state.isStreaming ? "working" : "starting";
    this.refreshModel();
    this.refreshContext();
    status.session = setup.session ? undefined : "no session file";
    this.watchSession(setup.session);
    for (const item of this.waiting.splice(0)) this.send(item.text, item.kind, item.images);
    this.scheduler.request();
  }

  /** The model's SDK and HTTP client are loaded (Agent.prepareProvider): the status says ready. */
  providerReady(): void {
    const status = this.view.status.state;
    if (status.phase === "starting") status.phase = "idle";
    this.scheduler.request();
  }

  /** The resumed conversation's jobs that ended with the earlier run (once the job host was asked). */
  earlierJobsEnded(ended: readonly EarlierJob[]): void {
    if (ended.length === 0) return;
    const jobs = ended.map((j) => `job ${j.id}${j.command ? ` (${shortCommand(j.command, 60)})` : ""}`).join(", ");
    this.view.chat.notice("info", `The earlier run's jobs ended when it quit: ${jobs}. The agent is told with its next request.`);
    this.scheduler.request();
  }

  detach(): void {
    this.unsubscribe?.();
    this.unwatchSession?.();
    if (this.transientTimer) clearTimeout(this.transientTimer);
  }

  onQuit(listener: (choice: QuitChoice) => void): void {
    this.quitFlow.onQuit(listener);
  }

  /** Quits as the person asked (quit key, Ctrl+C twice, /quit): while jobs run, asks once first. */
  quit(): void {
    this.quitFlow.request();
  }

  /** The "quit and stop the jobs? y/n" question is open. */
  get quitQuestion(): boolean {
    return this.quitFlow.asking;
  }

  answerQuit(answer: "yes" | "keep" | "no"): void {
    this.quitFlow.answer(answer);
  }

  // ---- events ------------------------------------------------------------------------------

  /**
   * Keeps the status bar saying when the session file is not being saved; the failure itself arrives
   * as an `error` event (a chat notice); getting saved again is a notice too.
   */
  private watchSession(session: SessionStore | undefined): void {
    this.unwatchSession?.();
    const status = this.view.status.state;
    status.sessionProblem = undefined;
    this.unwatchSession = session?.onSaveState((state) => {
      const failing = status.sessionProblem !== undefined;
      const records = state.unsavedRecords === 1 ? "1 record" : `${state.unsavedRecords} records`;
      status.sessionProblem = state.problem ? `session not saved: ${records} only in memory` : undefined;
      if (failing && !state.problem) this.view.chat.notice("info", `The session is saved again: everything is in ${session.path}.`);
      this.scheduler.request();
    });
  }

  /** A resumed session: what the model will be sent is shown; tokens and cost count the whole file. */
  private loadConversation(session: LoadedSession): void {
    const { messages, stats } = session;
    this.view.chat.loadMessages(messages);
    this.view.files.loadMessages(messages);
    this.tokens = stats.tokens;
    this.cachedTokens = stats.cachedTokens;
    this.cost = stats.cost;
    this.view.status.state.tokens = stats.tokens;
    this.view.status.state.cachedTokens = stats.cachedTokens;
    this.view.status.state.cost = stats.cost;
    const shown = messages.filter((m) => !(m.role === "user" && m.origin === "summary")).length;
    // A session with branches: what counts is the current one.
    const others = otherBranchCount(session.tree);
    const onBranch = others > 0 ? session.tree.pathTo().filter((node) => node.kind === "message").length : stats.messages;
    const notes = [others > 0 ? `${onBranch} messages on this branch, ${stats.messages} in the file over ${others + 1} branches (/tree shows them)` : `${stats.messages} messages`];
    if (shown < onBranch) notes.push(`the ${shown} newest shown${session.compaction ? ", the older ones as the summary above" : ""}`);
    if (session.older) notes.push(`${session.older.count} older ones did not fit the context window and are summarised before the next request`);
    if (session.older?.omitted) notes.push(`the ${session.older.omitted.count} oldest are left out of that summary to bound its cost`);
    this.view.chat.notice("info", `Resumed ${session.path} (${notes.join("; ")}).`);
    for (const m of messages) if (m.role === "user" && (m.origin ?? "prompt") === "prompt") this.view.input.history.add(m.content);
  }

  /** Another branch of the session is the conversation now (a rewind, /tree): the panes show it as a resumed one. */
  private showBranch(messages: readonly Message[]): void {
    const { view } = this;
    view.chat.clear();
    view.toolOutput.clear();
    view.tools.clear();
    view.files.clear();
    view.chat.loadMessages(messages);
    view.files.loadMessages(messages);
    this.refreshContext();
  }

  private countUsage(message: Message): void {
    if (message.role !== "assistant") return;
    this.tokens += message.usage.totalTokens;
    this.cachedTokens += message.usage.cacheRead;
    if (message.usage.cost) this.cost = (this.cost ?? 0) + message.usage.cost.total;
    this.view.status.state.tokens = this.tokens;
    this.view.status.state.cachedTokens = this.cachedTokens;
    this.view.status.state.cost = this.cost;
  }

  onEvent(event: PitwallEvent): void {
    const { view } = this;
    const status = view.status.state;
    // Job output chunks change nothing drawn yet: they must not cost frames.
    let changed = view.tools.handle(event) !== undefined;
    changed = view.chat.handle(event) || changed;
    changed = view.files.handle(event) || changed;
    changed = view.jobs.handle(event) || changed;
    if (event.type !== "job_output" && event.type !== "message_update") changed = true;
    switch (event.type) {
      case "agent_start":
        status.phase = "working";
        status.turnStartedAt = Date.now();
        status.error = undefined;
        this.abortRequested = false;
        break;
      case "agent_end": {
        this.restoreQueue();
        status.phase = "idle";
        status.turnStartedAt = undefined;
        status.retry = undefined;
        // A reply cut by Esc says so itself; an abort while tools ran is said here.
        const last = event.messages.filter((m) => m.role === "assistant").pop();
        if (this.abortRequested && !(last?.role === "assistant" && last.stopReason === "aborted")) {
          view.chat.notice("warning", "Aborted: the running tool was stopped (background jobs keep running).");
        }
        this.abortRequested = false;
        break;
      }
      case "message_start":
        if (event.message.role === "assistant") status.retry = undefined;
        break;
      case "message_end":
        this.countUsage(event.message);
        this.refreshContext();
        break;
      case "compaction_start":
        status.phase = "working";
        break;
      case "compaction_end":
        if (!this.working) status.phase = "idle";
        this.refreshContext();
        break;
      case "tool_execution_start":
        view.toolCallStarted();
        break;
      case "job_exited":
        this.jobEnded(event.job);
        break;
      case "retry":
        status.retry = `retrying in ${formatWait(event.delayMs)}, attempt ${event.attempt}/${event.maxAttempts}`;
        break;
      case "error":
        status.error = event.message;
        if (event.source !== "provider") view.chat.notice("error", event.message);
        break;
      case "queue_update":
        view.queue.set(event);
        break;
      case "job_triggered": {
        const first = event.lines.find((line) => line.match)?.text.trim() ?? "";
        this.flash(`⚑ job ${event.jobId}: ${first.length > 60 ? `${first.slice(0, 59)}…` : first} (trigger ${event.trigger.id} → ${event.trigger.action})`, 5000);
        break;
      }
      case "model_change":
      case "thinking_change":
        this.refreshModel();
        this.refreshContext();
        break;
      case "branch_change":
        this.showBranch(event.messages);
        break;
      case "session_forked":
        // Saving problems are the new file's from now on.
        this.watchSession(this.setup?.session);
        break;
      default:
        break;
    }
    status.jobsUp = view.jobs.runningCount;
    if (changed) this.scheduler.request();
  }

  /**
   * A job ended that nobody asked to stop (a server crashed): said in the chat, and flashed while
   * the agent is idle. The person's own job that finished well is only its list row.
   */
  private jobEnded(info: JobInfo): void {
    if (info.stopRequestedBy !== undefined) return;
    if (info.startedBy === "person" && !failed(info)) return;
    // A bash_stream call still waiting on its job reports the end itself.
    if (info.toolCallId !== undefined && this.view.tools.get(info.toolCallId)?.status === "running") return;
    const what = `Job ${info.id} (${shortCommand(info.command, 60)}) ${describeStatus(info)} after ${formatDuration(runtime(info))}`;
    if (!this.working) this.flash(`job ${info.id} ${describeStatus(info)}`, 5_000);
    // Its last line comes from where its log is (the job host, or this process).
    const jobs = this.setup?.coding.jobs;
    const lastLine = jobs ? jobs.text(info.id, "tail", 1).then((lines) => lines[0]?.slice(0, 120), () => undefined) : Promise.resolve(undefined);
    void lastLine.then((last) => {
      this.notice(failed(info) ? "warning" : "info", `${what}.${last ? `\nLast line: ${last}` : ""}\nThe agent is told with its next request.`);
      this.scheduler.request();
    });
  }

  /** The status bar's context meter, from the agent's measure of the next request. */
  private refreshContext(): void {
    const agent = this.setup?.coding.agent;
    if (!agent) return;
    const usage = agent.contextUsage();
    this.view.status.state.context = { percent: usage.percent, window: usage.window, compactAt: (usage.triggerAt / usage.window) * 100 };
  }

  private refreshModel(): void {
    const agent = this.setup?.coding.agent;
    if (!agent) return;
    this.view.status.state.model = agent.state.model.id;
    this.view.status.state.thinking = agent.state.thinkingLevel;
    this.view.status.state.unconfigured = this.missingKey() !== undefined;
  }

  // ---- sending -----------------------------------------------------------------------------

  get working(): boolean {
    return this.setup?.coding.agent.state.isStreaming ?? false;
  }

  /** The message saying how to configure a provider, when the current model's has none. */
  missingKey(): string | undefined {
    const setup = this.setup;
    if (!setup) return undefined;
    const model = setup.coding.agent.state.model;
    return isConfigured(setup.connections[model.provider]) ? undefined : missingKeyMessage(model.provider);
  }

  /**
   * What Enter (or Alt+Enter) does with the input's text (and the images its chips stand for); a
   * follow-up taken back with Up stays one.
   */
  submitInput(kind: SendKind): void {
    const input = this.view.input;
    // A command's arguments stay text, even one that names an image.
    const command = /^\s*[/!]/.test(input.buffer.text);
    const images = command ? [] : input.takeImages();
    const text = input.value;
    if (!text.trim()) return;
    input.history.add(input.buffer.text);
    input.reset();
    const sendAs = this.editing === "follow_up" ? "followUp" : kind;
    this.setEditing(undefined);
    this.send(text, sendAs, images);
    this.view.chat.toBottom();
    this.scheduler.request();
  }

  send(text: string, kind: SendKind, images: ImageAttachment[] = []): void {
    if (runSlash(text, this)) return;
    if (text.startsWith("!")) {
      const command = text.slice(1).trim();
      if (!command) this.notice("error", "Type a command after the !, e.g. !git status. It runs in the working directory; its output shows in the tool-output pane.");
      else this.jobControl.runShell(command);
      return;
    }
    const setup = this.setup;
    if (!setup) {
      this.waiting.push({ text, kind, images });
      this.view.chat.notice("info", `Waiting for the agent to load: "${text.length > 60 ? `${text.slice(0, 59)}…` : text}" will be sent then.`);
      return;
    }
    const agent = setup.coding.agent;
    if (this.compacting || this.branches.moving) {
      this.waiting.push({ text, kind, images });
      const after = this.compacting ? "compacting ends" : "the session has moved";
      this.view.chat.notice("info", `Sent once ${after}: "${text.length > 60 ? `${text.slice(0, 59)}…` : text}".`);
      return;
    }
    if (images.length > 0) {
      void this.sendWithImages(text, kind, images);
      return;
    }
    if (agent.state.isStreaming) {
      if (kind === "followUp") agent.followUp(text);
      else agent.steer(text);
      return;
    }
    const missing = this.missingKey();
    if (missing) {
      this.view.chat.log.handle({ type: "message_start", message: { role: "user", content: text, origin: "prompt", timestamp: Date.now() } });
      this.view.chat.notice("error", `Not sent: ${missing}`);
      return;
    }
    agent.prompt(text).catch((error: unknown) => {
      this.view.chat.notice("error", `The prompt could not start: ${error instanceof Error ? error.message : String(error)}`);
      this.scheduler.request();
    });
  }

  /**
   * Reads and prepares the attached images (sharp loads on the first one), then sends them with the
   * text. Anything that stops them (a text-only model, a file that is not an image) is said in the
   * chat, and the text comes back into the input with its chips so nothing typed is lost.
   */
  private async sendWithImages(text: string, kind: SendKind, attachments: ImageAttachment[]): Promise<void> {
    const agent = this.setup!.coding.agent;
    const giveBack = (reason: string): void => {
      this.notice("error", `Not sent: ${reason}`);
      if (this.view.input.buffer.isEmpty) this.view.input.setText(text);
      this.scheduler.request();
    };
    if (agent.state.model.textOnly) return giveBack(`${agent.state.model.id} takes text only; switch to a model that reads images (/model) or remove the image.`);
    const missing = this.missingKey();
    if (missing) return giveBack(missing);
    this.flash(`reading ${attachments.map((a) => a.name).join(", ")}…`);
    this.scheduler.request();
    let images: ImageContent[];
    try {
      const { loadImageFile } = await import("../tools/images/image-prepare.js");
      images = await Promise.all(attachments.map(async (a) => a.image ?? (await loadImageFile(a.path!, a.name)).image));
    } catch (error) {
      return giveBack(error instanceof Error ? error.message : String(error));
    }
    try {
      if (agent.state.isStreaming) {
        if (kind === "followUp") agent.followUp(text, images);
        else agent.steer(text, images);
      } else {
        agent.prompt(text, images).catch((error: unknown) => {
          this.notice("error", `The prompt could not start: ${error instanceof Error ? error.message : String(error)}`);
          this.scheduler.request();
        });
      }
    } catch (error) {
      giveBack(error instanceof Error ? error.message : String(error));
    }
    this.scheduler.request();
  }

  // ---- abort, queue, quit ----------------------------------------------------------------

  /**
   * Esc: abort the turn (the queued messages come back into the input when it has ended, see
   * agent_end); idle: stop the person's ! command, or dismiss the error; twice within a second on an
   * idle, empty input with nothing queued: rewind (the list of the person's messages).
   */
  escape(now = Date.now()): void {
    const agent = this.setup?.coding.agent;
    // A rewind or branch switch holds the agent for a moment: there is no run to stop.
    if (this.branches.moving) return;
    if (agent?.state.isStreaming) {
      this.abortRequested = true;
      agent.abort();
      return;
    }
    const stopping = this.jobControl.stopShell();
    if (stopping) {
      this.flashWhile("stopping your shell command…", stopping.then(() => "your shell command stopped"));
      return;
    }
    if (this.view.status.state.error) this.dismissError();
    // Idle, nothing typed, nothing queued: Esc twice rewinds.
    if (agent && !this.compacting && this.view.input.buffer.isEmpty && this.view.queue.count === 0 && this.setup?.session?.persisted) {
      if (now - this.lastIdleEscapeAt < DOUBLE_PRESS_MS) {
        this.lastIdleEscapeAt = -Infinity;
        this.view.status.state.transient = undefined;
        this.branches.openRewind();
        return;
      }
      this.lastIdleEscapeAt = now;
      this.flash("Esc again: rewind to before one of your messages", DOUBLE_PRESS_MS);
    }
  }

  dismissError(): void {
    this.view.status.state.error = undefined;
  }

  /** Up on an empty input: the last queued message, of either kind, comes back for editing and keeps its kind. */
  takeBackQueued(): boolean {
    const agent = this.setup?.coding.agent;
    const item = agent?.dequeueLast();
    if (!item) return false;
    this.view.input.restore(item.text, item.images);
    this.setEditing(item.kind);
    return true;
  }

  /** Remembers (and shows on the input's border) the kind of the queued message being edited. */
  private setEditing(kind: QueuedKind | undefined): void {
    this.editing = kind;
    this.view.input.hint = kind === undefined ? "" : `editing a queued ${kind === "steer" ? "steer" : "follow-up"} · Enter queues it again`;
  }

  /**
   * Messages still queued when a run ended (Esc, or a failed request) go back into the input, in
   * the order they were queued and before what the person was typing: sent again they are one
   * prompt, never a surprise ahead of the next one.
   */
  private restoreQueue(): void {
    const queued = this.setup?.coding.agent.takeQueue() ?? [];
    if (queued.length === 0) return;
    const input = this.view.input;
    input.setText([...queued.map((m) => m.text), input.value].filter((t) => t.trim() !== "").join("\n\n"));
    this.setEditing(undefined);
    const steers = queued.filter((m) => m.kind === "steer").length;
    const kinds = [steers ? `${steers} steer${steers === 1 ? "" : "s"}` : "", queued.length - steers ? `${queued.length - steers} follow-up${queued.length - steers === 1 ? "" : "s"}` : ""].filter((k) => k).join(", ");
    this.flash(`${queued.length === 1 ? "the queued message is" : `${queued.length} queued messages are`} back in the input (${kinds}): Enter sends ${queued.length === 1 ? "it" : "them as one prompt"}`, 6_000);
  }

  /** Ctrl+C: clear the input, or quit when pressed twice on an empty input. */
  clearOrQuit(now = Date.now()): void {
    const input = this.view.input;
    if (!input.buffer.isEmpty) {
      input.reset();
      this.setEditing(undefined);
      this.lastCtrlCAt = -Infinity;
      return;
    }
    if (now - this.lastCtrlCAt < QUIT_PRESS_MS) {
      this.quit();
      return;
    }
    this.lastCtrlCAt = now;
    this.flash("press Ctrl+C again to quit", QUIT_PRESS_MS);
  }

  /** Ctrl+Z: suspends pitwall (its jobs keep running); says so when the shell cannot suspend it. */
  suspend(): void {
    if (!this.terminal.suspend()) this.flash("Ctrl+Z did nothing: the shell that started pitwall has no job control; pitwall keeps running", 5_000);
  }

  /** Ctrl+L: the whole screen drawn again. */
  redraw(): void {
    this.terminal.redraw();
  }

  /** A short message in the status line. */
  flash(text: string, ms = 2500): void {
    const status = this.view.status.state;
    status.transient = text;
    if (this.transientTimer) clearTimeout(this.transientTimer);
    this.transientTimer = setTimeout(() => {
      status.transient = undefined;
      this.scheduler.request();
    }, ms);
    this.transientTimer.unref();
  }

  /**
   * A message in the status line for as long as something is under way ("stopping job 4…"), then
   * what became of it (a short flash), or nothing. A newer message replaces it meanwhile.
   */
  flashWhile(text: string, outcome: Promise<string | undefined>): void {
    const status = this.view.status.state;
    if (this.transientTimer) clearTimeout(this.transientTimer);
    this.transientTimer = undefined;
    status.transient = text;
    void outcome.then((after) => {
      if (status.transient !== text) return;
      if (after) this.flash(after);
      else status.transient = undefined;
      this.scheduler.request();
    });
  }

  // ---- slash command context -------------------------------------------------------------

  notice(level: "info" | "warning" | "error", text: string): void {
    this.view.chat.notice(level, text);
  }

  showHelp(): void {
    const keys = keymapHelp(this.keymap);
    const altNote =
      "Alt keys need a terminal that sends Alt as Esc: pitwall turns that on in xterm while it runs; elsewhere turn on \"Alt/Option sends Esc\" (or \"Option as Meta\"). If Alt+1 types a character such as ±, Tab and Shift+Tab still move the focus.";
    if (keys[0]) keys[0] = { ...keys[0], note: `Key bindings from ${this.keymap.sources.join(" + ") || "(none)"}. ${altNote}` };
    const commands = { title: "Commands (type in the input)", rows: SLASH_COMMANDS.map((c) => ({ keys: `/${c.name}${c.args ? ` ${c.args}` : ""}`, description: c.description })) };
    this.view.help.show("help: keys and commands", [...keys, commands]);
  }

  setModel(spec: string): void {
    const setup = this.setup;
    if (!setup) return this.notice("warning", "The agent is still loading; try again in a moment.");
    try {
      const current = setup.coding.agent.state.model;
      const model = resolveModel(spec, spec.includes("/") ? undefined : current.provider, current.provider);
      setup.coding.agent.setModel(model);
      const note = model.known ? "" : " (not in pitwall's table: tokens are counted, cost is unknown)";
      this.notice("info", `Model: ${model.provider}/${model.id}${note}. It applies from the next request.`);
      const missing = this.missingKey();
      if (missing) this.notice("warning", missing);
    } catch (error) {
      this.notice("error", error instanceof Error ? error.message : String(error));
    }
  }

  setThinking(level: ThinkingLevel): void {
    const agent = this.setup?.coding.agent;
    if (!agent) return this.notice("warning", "The agent is still loading; try again in a moment.");
    agent.setThinkingLevel(level);
    this.notice("info", `Thinking: ${level}.${agent.state.model.reasoning ? "" : ` ${agent.state.model.id} does not think; the level is kept for models that do.`}`);
  }

  showSession(): void {
    const session = this.setup?.session;
    if (!this.setup) return this.notice("warning", "The agent is still loading.");
    if (!session) return this.notice("info", "No session file: pitwall was started with --no-session.");
    const s = session.stats();
    const saved = session.persisted ? "" : " (created with the first message)";
    this.notice(
      "info",
      `Session ${s.id}\nFile: ${s.path}${saved}\n${s.messages} messages (${s.userMessages} from you), ${s.toolCalls} tool calls, ${formatTokens(s.tokens)} tokens, ${formatCost(s.cost)}`,
    );
  }

  /** /clear and /new: a new conversation, the chat, tool output and files empty; jobs keep running. */
  newSession(): void {
    const setup = this.setup;
    if (!setup) return this.notice("warning", "The agent is still loading.");
    if (this.working) return this.notice("warning", "The agent is working: wait for it to finish or press Esc, then /clear.");
    const session = setup.newSession();
    this.watchSession(session);
    this.view.chat.clear();
    this.view.toolOutput.clear();
    this.view.tools.clear();
    this.view.files.clear();
    this.tokens = 0;
    this.cachedTokens = 0;
    this.cost = null;
    this.view.status.state.tokens = 0;
    this.view.status.state.cachedTokens = 0;
    this.view.status.state.cost = null;
    this.notice("info", session ? `New conversation. Session file: ${session.path} (written with the first message).` : "New conversation (not saved: --no-session).");
  }

  showContext(): void {
    if (!this.setup) return this.notice("warning", "The agent is still loading.");
    this.notice("info", contextReportLines(this.setup.coding.contextReport()).join("\n"));
  }

  compact(instructions: string): void {
    const agent = this.setup?.coding.agent;
    if (!agent) return this.notice("warning", "The agent is still loading; try again in a moment.");
    if (agent.state.isStreaming) return this.notice("warning", "The agent is working: /compact once it is idle (Esc stops it).");
    if (this.missingKey()) return this.notice("error", `Not compacted: ${this.missingKey()}`);
    this.compacting = true;
    agent
      .compact(instructions)
      .then(
        (result) => {
          // A compaction that ran (or failed) is in the chat already, from its events.
          if (result.note) this.notice("info", result.note);
        },
        (error: unknown) => {
          this.notice("error", `Compacting could not start: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => {
        this.compacting = false;
        this.view.status.state.phase = "idle";
        this.sendWaiting();
      });
  }

  /** What was sent while a compaction or a rewind ran: the first as a prompt, the rest as follow-ups. */
  private sendWaiting(): void {
    const [first, ...rest] = this.waiting.splice(0);
    if (first) this.send(first.text, "enter", first.images);
    for (const item of rest) this.send(item.text, "followUp", item.images);
    this.scheduler.request();
  }

  rewind(): void {
    this.branches.openRewind();
  }

  showTree(): void {
    this.branches.openTree();
  }

  fork(): void {
    this.branches.fork();
  }

  exportBranch(file: string): void {
    this.branches.export(file);
  }

  modelIds(): string[] {
    return knownModelIds();
  }

  currentModel(): string {
    const model = this.setup?.coding.agent.state.model;
    return model ? `${model.provider}/${model.id}` : "(loading)";
  }

  currentThinking(): ThinkingLevel {
    return this.setup?.coding.agent.state.thinkingLevel ?? "off";
  }
}
