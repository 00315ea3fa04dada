// Esc and Ctrl+C. Esc aborts the turn (the queued messages come back into the input once it has
// ended); idle, it stops the person's `!` command, or dismisses the error, and pressed twice within
// a second on an idle, empty input with nothing queued it lists the person's messages to rewind to.
// Ctrl+C clears the input, or quits when pressed twice on an empty one. A run Esc stopped while
// tools ran says so when it ends.
import type { Message } from "../agent/messages.js";
import type { BranchFlow } from "./branch-flow.js";
import type { DashboardCommon } from "./dashboard-common.js";
import type { QueueFlow } from "./queue-flow.js";

/** A second Esc within this long after one on an idle, empty input rewinds. */
const DOUBLE_PRESS_MS = 1000;
const QUIT_PRESS_MS = 1500;

export interface InterruptHost {
  readonly queue: Pick<QueueFlow, "restore" | "endEditing">;
  readonly branches: Pick<BranchFlow, "moving" | "openRewind">;
  /** Stops the person's running `!` command, if any; resolves once it has stopped. */
  stopShell(): Promise<void> | undefined;
  /** A compaction is under way (what is sent waits for it). */
  compacting(): boolean;
  /** Quits as the person asked: while jobs run, asks once first. */
  quit(): void;
}

export class InterruptFlow {
  /** Esc was pressed during the current run. */
  private abortRequested = false;
  /** The last Esc that found the agent idle, the input empty and nothing queued: a second one soon after rewinds. */
  private lastIdleEscapeAt = -Infinity;
  private lastCtrlCAt = -Infinity;

  constructor(
    private readonly common: DashboardCommon,
    private readonly host: InterruptHost,
  ) {}

  /** /stop: ends the agent's turn now, as Esc does while it works; says so when there is none. */
  stopTurn(): void {
    const agent = this.common.setup()?.coding.agent;
    if (!agent?.state.isStreaming) return this.common.notice("info", "Nothing to stop: the agent is not working.");
    this.abortRequested = true;
    agent.abort();
  }

  /**
   * Esc: abort the turn (the queued messages come back into the input when it has ended, see
   * runEnded); idle: stop the person's ! command, or dismiss the error; twice within a second on an
   * idle, empty input with nothing queued: rewind (the list of the person's messages).
   */
  escape(now = Date.now()): void {
    const { view } = this.common;
    const setup = this.common.setup();
    const agent = setup?.coding.agent;
    // A rewind or branch switch holds the agent for a moment: there is no run to stop.
    if (this.host.branches.moving) return;
    if (agent?.state.isStreaming) {
      this.abortRequested = true;
      agent.abort();
      return;
    }
    const stopping = this.host.stopShell();
    if (stopping) {
      this.common.flashWhile("stopping your shell command…", stopping.then(() => "your shell command stopped"));
      return;
    }
    if (view.status.state.error) this.dismissError();
    // Idle, nothing typed, nothing queued: Esc twice rewinds.
    if (agent && !this.host.compacting() && view.input.buffer.isEmpty && view.queue.count === 0 && setup?.session?.persisted) {
      if (now - this.lastIdleEscapeAt < DOUBLE_PRESS_MS) {
        this.lastIdleEscapeAt = -Infinity;
        view.status.state.transient = undefined;
        this.host.branches.openRewind();
        return;
      }
      this.lastIdleEscapeAt = now;
      this.common.flash("Esc again: rewind to before one of your messages", DOUBLE_PRESS_MS);
    }
  }

  dismissError(): void {
    this.common.view.status.state.error = undefined;
  }

  /** Ctrl+C: clear the input, or quit when pressed twice on an empty input. */
  clearOrQuit(now = Date.now()): void {
    const input = this.common.view.input;
    if (!input.buffer.isEmpty) {
      input.reset();
      this.host.queue.endEditing();
      this.lastCtrlCAt = -Infinity;
      return;
    }
    if (now - this.lastCtrlCAt < QUIT_PRESS_MS) {
      this.host.quit();
      return;
    }
    this.lastCtrlCAt = now;
    this.common.flash("press Ctrl+C again to quit", QUIT_PRESS_MS);
  }

  runStarted(): void {
    this.abortRequested = false;
  }

  /** A run ended: what was still queued comes back into the input; an abort while tools ran is said. */
  runEnded(messages: readonly Message[]): void {
    this.host.queue.restore();
    // A reply cut by Esc says so itself; an abort while tools ran is said here.
    const last = messages.filter((m) => m.role === "assistant").pop();
    if (this.abortRequested && !(last?.role === "assistant" && last.stopReason === "aborted")) {
      this.common.view.chat.notice("warning", "Aborted: the running tool was stopped (background jobs keep running).");
    }
    this.abortRequested = false;
  }
}
