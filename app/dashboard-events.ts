// Bus events into the panes and the status line: each event goes to the panes that show it (chat,
// tool calls, files, jobs), then the status line follows the agent's phase, retries, errors, the
// session's usage, the context meter, the model and the jobs up. A job that ended without anyone
// asking is told in the chat. A run's start and end, and a fork, are handed on (EventHooks).
import type { PitwallEvent } from "../agent/events.js";
import type { Message } from "../agent/messages.js";
import { describeStatus, failed, formatDuration, runtime, shortCommand } from "../tools/jobs/index.js";
import type { DashboardCommon } from "./dashboard-common.js";

/** What the other flows hear of the events. */
export interface EventHooks {
  /** The agent started a run (agent_start). */
  runStarted(): void;
  /** The run ended (agent_end), with the messages it ended with. */
  runEnded(messages: readonly Message[]): void;
  /** The conversation went on in another session file (a fork). */
  sessionChanged(): void;
}

/** Tokens and cost of the session so far, as the status line shows them. */
export interface Usage {
  tokens: number;
  cachedTokens: number;
  cost: number | null;
}

export class EventFlow {
  constructor(
    private readonly common: DashboardCommon,
    private readonly hooks: EventHooks,
  ) {}

  onEvent(event: PitwallEvent): void {
    const { view } = this.common;
    const status = view.status.state;
    // Job output chunks change nothing drawn yet: they must not cost frames.
    let changed = view.tools.handle(event) !== undefined;
    changed = view.chat.handle(event) || changed;
    changed = view.files.handle(event) || changed;
    changed = view.jobs.handle(event) || changed;
    if (event.type !== "job_output" && event.type !== "message_update") changed = true;
    // The end of an answer, and of the run, is what the person waits for, as for a key: no reason
    // to hold it back for the streaming cadence (a frame up to 33 ms later), and it comes once a turn.
    const awaited = event.type === "agent_end" || (event.type === "message_end" && event.message.role === "assistant");
    switch (event.type) {
      case "agent_start":
        status.phase = "working";
        status.turnStartedAt = Date.now();
        status.error = undefined;
        this.hooks.runStarted();
        break;
      case "agent_end":
        status.phase = "idle";
        status.turnStartedAt = undefined;
        status.retry = undefined;
        this.hooks.runEnded(event.messages);
        break;
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
        if (!this.common.working()) status.phase = "idle";
        this.refreshContext();
        break;
      case "tool_execution_start":
        view.toolCallStarted();
        break;
      case "job_exited":
        this.jobEnded(event);
        break;
      case "retry":
        status.retry = { at: Date.now() + event.delayMs, attempt: event.attempt, maxAttempts: event.maxAttempts };
        break;
      case "error":
        status.error = event.message;
        if (event.source !== "provider") view.chat.notice("error", event.message);
        break;
      case "queue_update":
        view.queue.set(event);
        break;
      case "wake_count":
        // Wakes now wait for the person: worth knowing, not a failure.
        if (event.message) view.chat.notice("warning", event.message);
        break;
      case "job_triggered": {
        const first = event.lines.find((line) => line.match)?.text.trim() ?? "";
        this.common.flash(`⚑ job ${event.jobId}: ${first.length > 60 ? `${first.slice(0, 59)}…` : first} (trigger ${event.trigger.id} → ${event.trigger.action})`, 5000);
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
        this.hooks.sessionChanged();
        break;
      default:
        break;
    }
    status.jobsUp = view.jobs.runningCount;
    if (awaited) this.common.requestFrameSoon();
    else if (changed) this.common.requestFrame();
  }

  /** The status line's tokens and cost from now on: a resumed session's whole file, or a new conversation's nothing. */
  setUsage(usage: Usage): void {
    const status = this.common.view.status.state;
    status.tokens = usage.tokens;
    status.cachedTokens = usage.cachedTokens;
    status.cost = usage.cost;
    this.costKnownWhenNothingSpent();
  }

  /** Nothing spent yet with a model whose prices pitwall knows: the cost is $0.00, not unknown. */
  private costKnownWhenNothingSpent(): void {
    const status = this.common.view.status.state;
    const model = this.common.setup()?.coding.agent.state.model;
    if (status.cost === null && status.tokens === 0 && model?.pricing) status.cost = 0;
  }

  /** The status bar's context meter, from the agent's measure of the next request. */
  refreshContext(): void {
    const agent = this.common.setup()?.coding.agent;
    if (!agent) return;
    const usage = agent.contextUsage();
    this.common.view.status.state.context = { percent: usage.percent, window: usage.window, compactAt: (usage.triggerAt / usage.window) * 100 };
  }

  refreshModel(): void {
    const agent = this.common.setup()?.coding.agent;
    if (!agent) return;
    const status = this.common.view.status.state;
    status.model = agent.state.model.id;
    status.thinking = agent.state.thinkingLevel;
    status.unconfigured = this.common.missingKey() !== undefined;
    this.costKnownWhenNothingSpent();
  }

  private countUsage(message: Message): void {
    if (message.role !== "assistant") return;
    const status = this.common.view.status.state;
    status.tokens += message.usage.totalTokens;
    status.cachedTokens = (status.cachedTokens ?? 0) + message.usage.cacheRead;
    if (message.usage.cost) status.cost = (status.cost ?? 0) + message.usage.cost.total;
  }

  /** Another branch of the session is the conversation now (a rewind, /tree): the panes show it as a resumed one. */
  private showBranch(messages: readonly Message[]): void {
    const { view } = this.common;
    view.chat.clear();
    view.toolOutput.clear();
    view.tools.clear();
    view.files.clear();
    view.chat.loadMessages(messages);
    view.files.loadMessages(messages);
    this.refreshContext();
  }

  /**
   * A job ended that nobody asked to stop (a server crashed): said in the chat, and flashed while
   * the agent is idle. The person's own job that finished well is only its list row, and so is one
   * that ended before this dashboard attached, unless its agent is to be told now. The chat says
   * the agent is told only when it is (another pitwall's job is told to that pitwall's agent).
   */
  private jobEnded(event: Extract<PitwallEvent, { type: "job_exited" }>): void {
    const info = event.job;
    if (info.stopRequestedBy !== undefined) return;
    if (info.startedBy === "person" && !failed(info)) return;
    if (event.earlier && !event.told) return;
    const { view } = this.common;
    // A bash_stream call still waiting on its job reports the end itself.
    if (info.toolCallId !== undefined && view.tools.get(info.toolCallId)?.status === "running") return;
    const what = `Job ${info.id} (${shortCommand(info.command, 60)}) ${describeStatus(info)} after ${formatDuration(runtime(info))}`;
    if (!this.common.working() && !event.earlier) this.common.flash(`job ${info.id} ${describeStatus(info)}`, 5_000);
    const told = event.told ? "\nThe agent is told with its next request." : "\nIt is another pitwall's job: this agent is not told.";
    // Its last line comes from where its log is (the job host, or this process).
    const jobs = this.common.setup()?.coding.jobs;
    const lastLine = jobs ? jobs.text(info.id, "tail", 1).then((lines) => lines[0]?.slice(0, 120), () => undefined) : Promise.resolve(undefined);
    void lastLine.then((last) => {
      this.common.notice(failed(info) ? "warning" : "info", `${what}.${last ? `\nLast line: ${last}` : ""}${told}`);
      this.common.requestFrame();
    });
  }
}
