// The dashboard's behaviour, one flow to a file, each flow given only what it needs
// (dashboard-common.ts), never this controller: bus events into the panes and the status line
// (dashboard-events.ts), the session as shown (session-flow.ts), sending (send-flow.ts), the queue
// (queue-flow.ts), Esc and Ctrl+C (interrupt-flow.ts), the slash commands (dashboard-commands.ts),
// the person's jobs (job-control.ts), the session's branches (branch-flow.ts), what the sandbox
// stopped (fence-notices.ts), quitting (quit-flow.ts) and the dashboard's several agents
// (agents-flow.ts). This file makes them and wires them together, and puts another agent in the
// chat (showAgent). Before the agent has loaded the
// person can already type; what they send waits until it is ready.
import type { PitwallEvent } from "../agent/events.js";
import { isConfigured, missingKeyMessage } from "../agent/providers/connections.js";
import type { DashboardView } from "../panes/dashboard-view.js";
import type { RenderScheduler } from "../panes/screen/render-scheduler.js";
import type { AgentRoster, RosterAgent } from "./agent-roster.js";
import { AgentsFlow } from "./agents-flow.js";
import { BranchFlow } from "./branch-flow.js";
import { sessionHistory } from "./chat-history.js";
import type { DashboardCommon } from "./dashboard-common.js";
import { DashboardCommands } from "./dashboard-commands.js";
import { EventFlow } from "./dashboard-events.js";
import { FenceNotices } from "./fence-notices.js";
import { InterruptFlow } from "./interrupt-flow.js";
import { JobControl, type JobControlOptions } from "./job-control.js";
import type { ActionOf } from "./keys/key-actions.js";
import { displayKeyName } from "./keys/key-names.js";
import type { Key } from "./keys/key.js";
import type { Keymap } from "./keys/keymap.js";
import { QueueFlow } from "./queue-flow.js";
import { QuitFlow, type QuitChoice } from "./quit-flow.js";
import { SendFlow } from "./send-flow.js";
import { SessionFlow } from "./session-flow.js";
import type { Setup } from "./session-setup.js";
import { runSlash } from "./slash-commands.js";
import { StatusFlash } from "./status-flash.js";
import type { EditorOutcome } from "./external-editor.js";

/** What the controller may do to the terminal itself (dashboard-mode.ts provides it). */
export interface TerminalControl {
  /** Ctrl+Z: stops pitwall until the shell continues it; false when the shell cannot. */
  suspend(): boolean;
  /** Ctrl+L: draws the whole screen again. */
  redraw(): void;
  /** Ctrl+G: the text in the person's editor, the dashboard stepped aside meanwhile. */
  editText(text: string): Promise<EditorOutcome>;
}

export class DashboardController {
  /** Bus events into the panes and the status line. */
  readonly events: EventFlow;
  /** The welcome, a resumed conversation, the session file's state, /session and /clear. */
  readonly session: SessionFlow;
  /** Enter and Alt+Enter: commands, prompts, steers, follow-ups, and what waits until the agent can take it. */
  readonly sending: SendFlow;
  /** Up takes a queued message back; a run's leftovers come back into the input. */
  readonly queue: QueueFlow;
  /** Esc and Ctrl+C. */
  readonly interrupts: InterruptFlow;
  /** What the slash commands act on. */
  readonly commands: DashboardCommands;
  /** What the person does to jobs: the jobs pane's keys, the job commands, `!command`. */
  readonly jobControl: JobControl;
  /** Rewind, /tree, /fork, /export. */
  readonly branches: BranchFlow;
  /** The agents of this dashboard: /agent, the overview, switching. */
  readonly agents: AgentsFlow;
  /** Commands running unfenced, and what the fence stopped. */
  readonly fence: FenceNotices;
  private readonly quitFlow: QuitFlow;
  private readonly statusFlash: StatusFlash;
  private readonly requestFrame: () => void;
  private loaded: Setup | undefined;
  /** The person's editor has the terminal (Ctrl+G). */
  private editing = false;
  private unsubscribe: (() => void) | undefined;
  private unsubscribeJobs: (() => void) | undefined;

  constructor(
    readonly view: DashboardView,
    scheduler: RenderScheduler,
    readonly keymap: Keymap,
    jobControlOptions: JobControlOptions,
    private readonly terminal: TerminalControl = {
      suspend: () => false,
      redraw: () => view.screen.realloc(),
      editText: () => Promise.resolve({ edited: false, message: "No terminal to run an editor in." }),
    },
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

    const requestFrame = (): void => scheduler.request();
    this.requestFrame = requestFrame;
    const statusFlash = new StatusFlash(view.status, requestFrame);
    this.statusFlash = statusFlash;
    const common: DashboardCommon = {
      view,
      keymap,
      setup: () => this.loaded,
      working: () => this.loaded?.coding.agent.state.isStreaming ?? false,
      missingKey: () => {
        const setup = this.loaded;
        if (!setup) return undefined;
        const model = setup.coding.agent.state.model;
        return isConfigured(setup.connections[model.provider]) ? undefined : missingKeyMessage(model.provider);
      },
      flash: (text, ms) => statusFlash.flash(text, ms),
      flashWhile: (text, outcome) => statusFlash.flashWhile(text, outcome),
      notice: (level, text) => view.chat.notice(level, text),
      requestFrame,
      requestFrameSoon: () => scheduler.requestForInput(),
    };

    this.quitFlow = new QuitFlow({
      // Every agent's jobs: quitting stops them all.
      runningJobs: () => {
        const agents = this.agents.agents?.list();
        if (agents) return agents.reduce((n, agent) => n + agent.setup.coding.jobs.runningCount(), 0);
        return this.loaded?.coding.jobs.runningCount() ?? view.jobs.runningCount;
      },
      canKeepJobs: () => this.loaded?.coding.jobs.detach !== undefined,
      setQuestion: (text) => {
        view.status.state.question = text;
      },
      flash: (text) => common.flash(text),
      requestFrame,
    });
    const quit = (): void => this.quit();
    this.fence = new FenceNotices(common);
    // The person's jobs go through the agent in the chat (it owns them, its triggers are the ones set),
    // unless that agent works in a worktree: the jobs pane is the dashboard folder's.
    const jobsCoding = (): Setup["coding"] | undefined => {
      const first = this.agents.agents?.list()[0]?.setup;
      const current = this.loaded;
      return first && current && current.options.cwd !== first.options.cwd ? first.coding : current?.coding;
    };
    this.jobControl = new JobControl({ ...common, coding: jobsCoding, fenced: (hit, command) => this.fence.personCommand(hit, command) }, jobControlOptions);
    this.branches = new BranchFlow({
      view,
      coding: () => this.loaded?.coding,
      cwd: () => jobControlOptions.cwd,
      notice: common.notice,
      requestFrame,
      settled: () => this.sending.settled(),
    });
    this.queue = new QueueFlow(common);
    this.sending = new SendFlow(common, {
      queue: this.queue,
      branches: this.branches,
      command: (text) => runSlash(text, this.commands),
      shell: (command) => this.jobControl.runShell(command),
    });
    this.interrupts = new InterruptFlow(common, {
      queue: this.queue,
      branches: this.branches,
      stopShell: () => this.jobControl.stopShell(),
      compacting: () => this.sending.compacting,
      quit,
    });
    this.events = new EventFlow(common, {
      runStarted: () => this.interrupts.runStarted(),
      runEnded: (messages) => this.interrupts.runEnded(messages),
      sessionChanged: () => this.session.watchSession(this.loaded?.session),
    });
    this.session = new SessionFlow(common, this.events);
    this.agents = new AgentsFlow(common, {
      show: (agent) => this.showAgent(agent),
      canSwitch: () =>
        this.sending.compacting ? "Compacting is running: switch agents once it ends." : this.branches.moving ? "The session is moving (a rewind or a branch switch): switch agents once it settles." : undefined,
    });
    this.commands = new DashboardCommands(common, { session: this.session, sending: this.sending, branches: this.branches, jobControl: this.jobControl, interrupts: this.interrupts, agents: this.agents, quit });
  }

  /** Connects a ready setup: its events, its resumed conversation, its warnings, then what was sent meanwhile. */
  attach(setup: Setup, roster?: AgentRoster): void {
    this.loaded = setup;
    // The jobs pane shows the dashboard's folder: the first agent's view of its job host, whichever
    // agent is in the chat (an agent in a worktree has a host of its own, not shown there).
    this.unsubscribeJobs = setup.coding.bus.subscribe((event) => {
      if (!isJobEvent(event)) return;
      this.events.onEvent(event);
      this.fence.handle(event);
    });
    this.unsubscribe = this.conversationOf(setup);
    if (setup.coding.sandbox) void this.fence.announce(setup.coding.sandbox, setup.coding.jobs);
    this.session.agentLoaded(setup);
    if (roster) this.agents.attach(roster);
    this.sending.agentLoaded();
    this.requestFrame();
  }

  /**
   * Another agent in the chat: its events from now on, the chat, tool calls and files panes showing
   * its conversation, the status line its model, usage, context and queue. The jobs pane stays: the
   * folder's jobs are every agent's.
   */
  showAgent(agent: RosterAgent): void {
    const { view } = this;
    const setup = agent.setup;
    const coding = setup.coding.agent;
    this.unsubscribe?.();
    this.loaded = setup;
    this.unsubscribe = this.conversationOf(setup);
    view.chat.clear();
    view.toolOutput.clear();
    view.tools.clear();
    view.files.clear();
    view.chat.loadMessages(coding.state.messages);
    // What the chat lets go of comes back from this agent's session file.
    view.chat.readOlderFrom(sessionHistory(setup.coding), () => this.requestFrame());
    view.files.loadMessages(coding.state.messages);
    view.queue.set(coding.state.queue);
    const status = view.status.state;
    status.phase = coding.state.isStreaming ? "working" : "idle";
    status.turnStartedAt = coding.state.isStreaming ? Date.now() : undefined;
    status.error = undefined;
    status.retry = undefined;
    this.events.setUsage({ tokens: agent.activity.tokens, cachedTokens: 0, cost: agent.activity.cost });
    this.events.refreshModel();
    this.events.refreshContext();
    this.session.watchSession(setup.session);
    view.chat.notice("info", `Agent ${agent.name} is in the chat${agent.activity.state === "idle" ? "" : ` (${agent.activity.describe()})`}.`);
    this.requestFrame();
  }

  /** The agent's events but the jobs' into the panes. */
  private conversationOf(setup: Setup): () => void {
    return setup.coding.bus.subscribe((event) => {
      if (isJobEvent(event)) return;
      this.events.onEvent(event);
      this.fence.handle(event);
    });
  }

  detach(): void {
    this.agents.detach();
    this.unsubscribeJobs?.();
    this.unsubscribe?.();
    this.session.detach();
    this.statusFlash.dispose();
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

  /** A short message in the status line. */
  flash(text: string, ms?: number): void {
    this.statusFlash.flash(text, ms);
  }

  /** Ctrl+Z: suspends pitwall (its jobs keep running); says so when the shell cannot suspend it. */
  suspend(): void {
    if (!this.terminal.suspend()) this.flash("Ctrl+Z did nothing: the shell that started pitwall has no job control; pitwall keeps running", 5_000);
  }

  /** Ctrl+G: the input's text in the person's editor; what was saved comes back unsent. */
  editInEditor(): void {
    if (this.editing) return;
    const input = this.view.input;
    this.editing = true;
    void this.terminal.editText(input.value).then((outcome) => {
      this.editing = false;
      if (outcome.edited) {
        input.setText(outcome.text);
        input.history.reset();
        this.view.setFocus("input");
      } else this.flash(outcome.message, 6_000);
      this.requestFrame();
    });
  }

  /** Ctrl+L: the whole screen drawn again. */
  redraw(): void {
    this.terminal.redraw();
  }
}

function isJobEvent(event: PitwallEvent): boolean {
  return event.type.startsWith("job_");
}
