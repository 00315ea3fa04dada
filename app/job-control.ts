// What the person does to jobs, from the jobs pane's keys and from slash commands: start one (a
// prompt, or /run), stop it (TERM then KILL) or kill it now, restart it, remove a finished one,
// attach to it (attach-mode.ts; the mouse goes to a job that asked for it, job-mouse.ts), copy its screen or its whole log to the clipboard (OSC 52), tail
// its log into the tool-output pane, set and remove watch triggers (/watch, the `w` key), and run a
// one-off `!command` (person-shell.ts). Every action goes through the job service with `by: "person"`,
// so the agent hears of it with its next request.
import { type JobService, NoSuchJobError, patternLabel, RemoteJobService, shortCommand, type TerminalSize, type TriggerInfo, type WatchAction } from "../tools/jobs/index.js";
import { attr, type StyledLine } from "../panes/text/styled-text.js";
import { sanitizeText } from "../panes/text/terminal-text.js";
import { triggerOwner } from "../panes/chat/chat-entries.js";
import type { CodingAgent } from "../agent/coding-agent.js";
import type { DashboardView } from "../panes/dashboard-view.js";
import { AttachMode } from "./attach-mode.js";
import { JobMouse } from "./job-mouse.js";
import type { Telling } from "./dashboard-common.js";
import { displayKeyName } from "./keys/key-names.js";
import type { Keymap } from "./keys/keymap.js";
import { osc52 } from "./osc52.js";
import { PersonShell } from "./person-shell.js";
import { forThePerson } from "./person-errors.js";
import { toolEnvironment } from "../tools/tool-environment.js";
import { ACTION_MEANING, DEFAULT_PERSON_ACTION, parseWatchInput } from "./watch-input.js";
import { CommandSandbox, SANDBOX_PROFILES, withProfile, type CommandFence, type FenceHit, type SandboxProfile } from "../tools/sandbox/index.js";
import { processTempFolder } from "../tools/process/temp-folder.js";

export const DEFAULT_TAIL_LINES = 50;

/** How the status line and errors word an action on a job. */
interface ActionWords {
  doing: string;
  done: string;
  verb: string;
}
const STOP: ActionWords = { doing: "stopping", done: "stopped", verb: "stop" };
const KILL: ActionWords = { doing: "killing", done: "killed", verb: "kill" };
const RESTART: ActionWords = { doing: "restarting", done: "restarted", verb: "restart" };

/** The panes job control paints: the job list and terminal, the one-line prompt, the tool-output pane. */
export type JobViews = Pick<DashboardView, "jobs" | "jobTerminal" | "jobTerminalSize" | "prompt" | "picker" | "tools" | "toolOutput" | "setFocus" | "zoomed" | "tabbed" | "tab" | "showAttached">;

/** What job control is given: the panes it paints, the keys it names, the agent's jobs, and ways to tell the person. */
export interface JobControlHost extends Telling {
  readonly view: JobViews;
  readonly keymap: Pick<Keymap, "keysFor">;
  /** The agent's job service, tool environment, child marker and sandbox, once it has loaded. */
  coding(): Pick<CodingAgent, "jobs" | "toolEnv" | "marker" | "sandbox"> | undefined;
  /** The fence stopped a `!command` of the person's. */
  fenced(hit: FenceHit, command: string): void;
}

export interface JobControlOptions {
  /** Writes straight to the person's terminal, between frames (the clipboard sequence). */
  writeTerminal: (data: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** What the one-line prompt is asking for: a new job's command, or a trigger for a job. */
type PromptPurpose = { kind: "newJob" } | { kind: "watch"; jobId: string };

/** What each profile does, as the restart picker says it. */
const PROFILE_MEANING: Record<SandboxProfile, string> = {
  workspace: "writes only in the working directory, /tmp and build caches; secrets hidden; network kept",
  strict: "as workspace, and no network (a loopback of its own)",
  off: "no sandbox: the command runs with your permissions",
};

export class JobControl {
  readonly attachMode: AttachMode;
  /** The mouse over the job's terminal, when the job in front asked for it. */
  readonly mouse: JobMouse;
  readonly shell: PersonShell;
  private promptFor: PromptPurpose | undefined;
  /** The fences of the person's `!command`s, made in this process (its temp folder holds their /tmp). */
  private readonly sandbox = new CommandSandbox(processTempFolder);

  constructor(
    private readonly host: JobControlHost,
    private readonly options: JobControlOptions,
  ) {
    const view = host.view;
    const requestFrame = (): void => host.requestFrame();
    this.attachMode = new AttachMode({
      jobs: () => this.registry(),
      screen: (id) => {
        const screen = view.jobTerminal.current();
        return screen?.id === id ? screen : undefined;
      },
      detachKeys: () => host.keymap.keysFor("attached", "detach"),
      setAttached: (hint) => {
        view.showAttached(hint);
        if (hint !== undefined) view.setFocus("jobs");
        requestFrame();
      },
      flash: (text) => host.flash(text),
      notice: (level, text) => host.notice(level, text),
    });
    this.mouse = new JobMouse({ view, jobs: () => this.registry(), attachedId: () => this.attachMode.attachedId, flash: (text) => host.flash(text) });
    this.shell = new PersonShell({
      cwd: options.cwd,
      environment: () => {
        const coding = host.coding();
        return coding ? { env: coding.toolEnv, ...(coding.marker ? { marker: coding.marker } : {}) } : { env: toolEnvironment(options.env) };
      },
      backgroundLeft: (pgid) => this.registry()?.adoptGroup(pgid),
      remote: () => {
        const jobs = this.registry();
        return jobs instanceof RemoteJobService ? jobs.label : undefined;
      },
      store: view.tools,
      show: (id) => view.toolOutput.select(id),
      requestFrame,
      // Through the registry's notices, so it reaches the model in order with the job actions.
      tellAgent: (text) => host.coding()?.jobs.notePersonAction(text),
      notice: (level, text) => host.notice(level, text),
      fence: () => this.personFence(),
      fenced: (hit, command) => host.fenced(hit, command),
    });
  }

  /** The job terminal's size with `added` more jobs listed: jobs the person starts begin at the size they are shown at. */
  private paneSize(added = 0): TerminalSize | undefined {
    const view = this.host.view;
    return view.jobTerminalSize(view.jobs.list().length + added);
  }

  private registry(): JobService | undefined {
    return this.host.coding()?.jobs;
  }

  /** The jobs, or undefined after saying why there are none yet. */
  private ready(): JobService | undefined {
    const jobs = this.registry();
    if (!jobs) this.host.flash("the agent is still loading: jobs are available in a moment");
    return jobs;
  }

  /** Runs an action on a job: the status line says it is under way until it has finished, then how it went. */
  private act(id: string | undefined, words: ActionWords, run: (jobs: JobService, id: string) => Promise<unknown>): void {
    const jobs = this.ready();
    if (!jobs) return;
    if (id === undefined) {
      this.host.flash("no job selected");
      return;
    }
    if (!jobs.get(id)) {
      this.host.notice("error", `Could not ${words.verb} job ${id}: ${forThePerson(new NoSuchJobError(id, jobs.list().map((j) => j.id)))}.`);
      return;
    }
    const outcome = run(jobs, id).then(
      () => `${words.done} job ${id}`,
      (error: unknown) => {
        this.host.notice("error", `Could not ${words.verb} job ${id}: ${forThePerson(error)}.`);
        return undefined;
      },
    );
    this.host.flashWhile(`${words.doing} job ${id}…`, outcome);
  }

  // ---- the selected job's keys -------------------------------------------------------------

  /** Stops a job: TERM to its group then KILL after the grace period, or KILL at once (`hard`). */
  stop(id: string | undefined, hard = false): void {
    this.act(id, hard ? KILL : STOP, (jobs, jobId) => jobs.kill(jobId, hard ? "SIGKILL" : undefined));
  }

  /** Runs the job's command again (same cwd and env) under the same id, stopping it first if it runs; under `profile` when given. */
  restart(id: string | undefined, profile?: SandboxProfile): void {
    this.act(id, profile ? { ...RESTART, done: `restarted under ${profile}:` } : RESTART, (jobs, jobId) => jobs.restart(jobId, this.paneSize(), profile));
  }

  /** Asks under which sandbox profile to restart the selected job (the person may loosen it; the model never can). */
  restartProfilePicker(id: string | undefined): void {
    const job = id === undefined ? undefined : this.ready()?.get(id);
    if (!job) return this.host.flash("no job selected");
    if (job.sandbox === undefined) return this.host.flash(`job ${job.id} was started without a sandbox policy: r restarts it as it was`);
    const current = job.sandbox;
    const jobs = this.registry();
    const where = jobs instanceof RemoteJobService ? `on ${jobs.destination}` : "here";
    const rows = SANDBOX_PROFILES.map((profile): StyledLine => [
      { text: `${profile === current ? "●" : " "} ${profile.padEnd(10)}`, attr: attr({ bold: profile === current }) },
      { text: PROFILE_MEANING[profile], attr: attr() },
    ]);
    this.host.view.picker.show(
      `restart job ${job.id} under`,
      rows,
      "Enter restarts it under that profile · Esc keeps it as it is",
      { pick: (index) => this.restart(job.id, SANDBOX_PROFILES[index]), cancel: () => this.host.requestFrame() },
      [`${shortCommand(job.command, 60)} runs under ${current}${job.unfenced ? ` (unfenced: no sandbox can be made ${where})` : ""}.`],
      SANDBOX_PROFILES.indexOf(current),
    );
    this.host.requestFrame();
  }

  /**
   * The fence of a `!command`: the person's profile (off unless config.json says otherwise). In a
   * remote session it runs on this machine, not where the agent's commands do: a refusal says so.
   */
  private async personFence(): Promise<CommandFence | undefined> {
    const sandbox = this.host.coding()?.sandbox;
    if (!sandbox) return undefined;
    const policy = withProfile(sandbox.policy, sandbox.personProfile);
    const here = this.registry() instanceof RemoteJobService ? { ...policy, machine: "this machine" } : policy;
    return this.sandbox.fence({ policy: here, root: this.options.cwd });
  }

  /** Starts a finished job again; a running one is left alone. */
  start(id: string | undefined): void {
    const job = id === undefined ? undefined : this.registry()?.get(id);
    if (job?.status === "running") {
      this.host.flash(`job ${id} is already running (r restarts it)`);
      return;
    }
    this.restart(id);
  }

  /** Takes a finished job off the list. */
  remove(id: string | undefined): void {
    const jobs = this.ready();
    if (!jobs) return;
    if (id === undefined) return this.host.flash("no job selected");
    const job = jobs.get(id);
    if (job?.status === "running") {
      const key = this.host.keymap.keysFor("jobs", "kill")[0];
      return this.host.flash(`job ${id} is running: stop it first${key ? ` (${displayKeyName(key)})` : ""}`);
    }
    void jobs.remove(id).then(
      (removed) => {
        this.host.flash(removed ? `removed job ${id}` : `no job ${id}`);
        this.host.requestFrame();
      },
      (error: unknown) => this.failed(`remove job ${id}`, error),
    );
  }

  attach(id: string | undefined): void {
    if (!this.ready()) return;
    this.attachMode.attach(id);
  }

  /** The detach key: keys go to pitwall again. */
  detach(): void {
    const id = this.attachMode.attachedId;
    if (id === undefined) return;
    this.attachMode.detach();
    this.host.flash(`detached from job ${id}`);
  }

  /** Opens the prompt for a new job's command. */
  newJob(): void {
    if (!this.ready()) return;
    this.promptFor = { kind: "newJob" };
    this.host.view.prompt.show("new job: command", `Enter starts it in ${this.options.cwd} (visible to the agent) · Esc cancels`);
  }

  /** Opens the prompt for a watch trigger on the selected job (the `w` key). */
  watchPrompt(id: string | undefined): void {
    const job = id === undefined ? undefined : this.ready()?.get(id);
    if (!job) return this.host.flash("no job selected");
    if (job.status !== "running") return this.host.flash(`job ${job.id} has ended: there is nothing to watch`);
    this.promptFor = { kind: "watch", jobId: job.id };
    this.host.view.prompt.show(
      `watch job ${job.id}: pattern [action]`,
      `regex [notify|steer|follow-up|wake], ${DEFAULT_PERSON_ACTION} by default · Esc cancels`,
    );
  }

  /** Enter in the prompt. */
  submitPrompt(): void {
    const prompt = this.host.view.prompt;
    const answer = prompt.value.trim();
    const purpose = this.promptFor;
    prompt.hide();
    this.promptFor = undefined;
    if (!answer || !purpose) return;
    if (purpose.kind === "newJob") return this.run(answer);
    const parsed = parseWatchInput(answer);
    if ("problem" in parsed) return this.host.notice("error", parsed.problem);
    this.watch(purpose.jobId, parsed.pattern, parsed.action);
  }

  cancelPrompt(): void {
    this.promptFor = undefined;
    this.host.view.prompt.hide();
  }

  /** Copies the job terminal's visible screen, or the job's whole plain-text log, to the clipboard. */
  copy(id: string | undefined, what: "screen" | "log"): void {
    const jobs = this.registry();
    const job = id === undefined ? undefined : jobs?.get(id);
    if (!jobs || !job) return this.host.flash("no job selected");
    // The text comes from where the job's emulator and log are (the job host, or this process).
    const rows = what === "screen" ? this.host.view.jobTerminal.visibleRows : undefined;
    jobs.text(job.id, what, rows).then(
      (lines) => {
        const text = lines.join("\n");
        if (text.trim() === "") return this.host.flash(`job ${job.id} has printed nothing to copy`);
        const payload = osc52(text, { tmux: this.options.env.TMUX !== undefined && this.options.env.TMUX !== "" });
        this.options.writeTerminal(payload.sequence);
        const count = text.replace(/\n$/, "").split("\n").length;
        const source = what === "screen" ? "the visible screen" : "the log";
        this.host.flash(`copied ${source} of job ${job.id} (${count} line${count === 1 ? "" : "s"}${payload.cut ? ", its last 512 KiB" : ""}) to the clipboard (OSC 52)`);
        this.host.requestFrame();
      },
      (error: unknown) => this.failed(`copy job ${job.id}`, error),
    );
  }

  private failed(what: string, error: unknown): void {
    this.host.notice("error", `Could not ${what}: ${forThePerson(error)}.`);
    this.host.requestFrame();
  }

  // ---- slash commands and `!` ------------------------------------------------------------

  focus(): void {
    this.host.view.setFocus("jobs");
  }

  ids(): string[] {
    return this.registry()?.list().map((j) => j.id) ?? [];
  }

  /** Starts a job of the person's in the working directory and selects it. */
  run(command: string): void {
    const jobs = this.ready();
    if (!jobs) return;
    jobs.start(command, this.paneSize(1)).then(
      (job) => {
        this.host.view.jobs.select(job.id);
        this.host.flash(`started job ${job.id}: ${shortCommand(command, 60)}`);
        this.host.requestFrame();
      },
      (error: unknown) => {
        this.host.notice("error", `Could not start the job: ${forThePerson(error)}.`);
        this.host.requestFrame();
      },
    );
  }

  /** The last `count` lines of a job's log, in the tool-output pane. */
  tail(id: string, count: number = DEFAULT_TAIL_LINES): void {
    const jobs = this.ready();
    if (!jobs) return;
    const job = jobs.get(id);
    if (!job) {
      const known = jobs.list().map((j) => j.id);
      this.host.notice("error", `No job "${id}". ${known.length ? `Jobs: ${known.join(", ")}.` : "There are no jobs."}`);
      return;
    }
    jobs.text(id, "tail", count).then(
      (lines) => {
        const body: StyledLine[] = lines.map((l) => [{ text: sanitizeText(l), attr: attr() }]);
        const title = `/tail ${id}: last ${lines.length} line${lines.length === 1 ? "" : "s"} of job ${id} (${shortCommand(job.command, 60)})`;
        const record = this.host.view.tools.addPersonal(title, { lines: body.length ? body : [[{ text: "(no output yet)", attr: attr() }]], followEnd: true });
        this.host.view.toolOutput.select(record.id);
        this.host.requestFrame();
      },
      (error: unknown) => this.failed(`tail job ${id}`, error),
    );
  }

  /** Sets a trigger of the person's on a job; the chat says what it will do, or why it could not be set. */
  watch(id: string, pattern: string, action: WatchAction): void {
    const jobs = this.ready();
    if (!jobs) return;
    const job = jobs.get(id);
    if (job && job.status !== "running") return this.host.notice("error", `Job ${id} has ended: it prints nothing more, so there is nothing to watch. /restart ${id} runs it again.`);
    jobs.addTrigger(id, { pattern, action }).then(
      (trigger) =>
        this.host.notice(
          "info",
          `Watching job ${id} for ${patternLabel(trigger)} → ${action}: ${ACTION_MEANING[action]} (trigger ${trigger.id}; at most once every ${Math.round(trigger.debounceMs / 1000)} s; /unwatch ${id} ${trigger.id} removes it).`,
        ),
      (error: unknown) => this.host.notice("error", `Not watching: ${error instanceof Error ? error.message : String(error)}`),
    ).finally(() => this.host.requestFrame());
  }

  /** Removes one trigger of a job, or all of them. */
  unwatch(id: string | undefined, triggerId?: number): void {
    const jobs = this.ready();
    if (!jobs) return;
    if (id === undefined) return this.host.flash("no job selected");
    jobs.removeTriggers(id, triggerId).then(
      (removed) => {
        if (removed.length === 0) this.host.flash(`job ${id} has no watch triggers`);
        else this.host.notice("info", `Stopped watching job ${id} for ${removed.map((t) => patternLabel(t)).join(", ")}.`);
      },
      (error: unknown) => this.host.notice("error", error instanceof Error ? error.message : String(error)),
    ).finally(() => this.host.requestFrame());
  }

  /** The triggers of one job, or of every job, in the chat. */
  listWatches(id?: string): void {
    const jobs = this.ready();
    if (!jobs) return;
    if (id !== undefined && !jobs.get(id)) return this.host.notice("error", `No job "${id}". ${this.ids().length ? `Jobs: ${this.ids().join(", ")}.` : "There are no jobs."}`);
    const listed = (id === undefined ? jobs.list() : [jobs.get(id)!]).map((job) => ({ job, triggers: jobs.triggers(job.id) })).filter((j) => id !== undefined || j.triggers.length > 0);
    if (listed.every((j) => j.triggers.length === 0)) {
      return this.host.notice("info", `${id === undefined ? "No job is watched" : `Job ${id} has no watch triggers`}. /watch <id> <regex> [notify|steer|follow-up|wake] sets one; so does w in the jobs pane.`);
    }
    const lines = listed.map(({ job, triggers }) => `job ${job.id} (${shortCommand(job.command, 50)}): ${triggers.map(describeForPerson).join("; ")}`);
    this.host.notice("info", `Watch triggers:\n${lines.join("\n")}`);
  }

  /** `!command`: the person's one-off shell command (once the agent has loaded: it sets the environment). */
  runShell(command: string): void {
    if (!this.ready()) return;
    this.shell.run(command);
  }

  /** Esc while the agent is idle: stops the person's running `!` command, if any; resolves once it has stopped. */
  stopShell(): Promise<void> | undefined {
    return this.shell.stopLatest();
  }

  /** Stops the person's commands and leaves attach mode (quitting). */
  async dispose(): Promise<void> {
    this.attachMode.detach();
    await this.shell.dispose();
  }
}

/** "#1 /FAIL/ → wake (yours, every 10 s, fired 2×)". */
function describeForPerson(trigger: TriggerInfo): string {
  const owner = triggerOwner(trigger.setBy);
  const fired = trigger.fired > 0 ? `, fired ${trigger.fired}×` : "";
  return `#${trigger.id} ${patternLabel(trigger)} → ${trigger.action} (${owner}, at most every ${Math.round(trigger.debounceMs / 1000)} s${fired})`;
}
