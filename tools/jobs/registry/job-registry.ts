// The one owner of every background job, whoever started it: the agent through bash_stream, or the
// person from the jobs pane. It starts, stops, restarts and removes jobs, publishes their events,
// keeps finished jobs listed for a while, remembers what the agent must be told, and makes sure no
// process group outlives pitwall. The parts live beside it: what a new job runs with (job-specs.ts),
// how a job's processes are ended (job-stopper.ts), when a finished job leaves the list
// (ttl-sweep.ts), what each agent is told (notice-board.ts, job-notices.ts), the groups bash calls
// left behind (adopted-groups.ts).
import { EventBus } from "../../event-bus.js";
import type { JobEvent, JobInfo, JobStarter } from "../events.js";
import { personActions, type JobNotice, type JobNotices } from "./job-notices.js";
import { NoticeBoard, UNOWNED } from "./notice-board.js";
import { MAX_STDIN_BYTES, resolveJobSettings, type JobSettings } from "../settings.js";
import type { Job } from "../process/job.js";
import { startJob } from "../process/start-job.js";
import { splitChunk } from "../process/output-chunks.js";
import { endingOf, JobEndedError, JobInputLimitError, JobLimitError, JobTakesNoInputError, NoSuchJobError } from "../errors.js";
import { JobWatches } from "../watch/job-watches.js";
import { recordForOwner } from "./watch-notices.js";
import { groupAlive } from "../../process-group.js";
import type { ChildMarker } from "../../process/process-guard.js";
import { AdoptedGroups, untrackIfGone } from "./adopted-groups.js";
import { DEFAULT_ACTOR, type ActOptions, type AdoptRunningOptions, type JobRegistryOptions, type StartJobOptions, type TerminalSize } from "./job-options.js";
import { JobSpecs } from "./job-specs.js";
import { JobStopper, within } from "./job-stopper.js";
import { TtlSweep } from "./ttl-sweep.js";
import { watchFence } from "./job-fence.js";
import type { CommandFence, CommandSandbox, FenceRequest, SandboxProfile } from "../../sandbox/index.js";

export { DEFAULT_ACTOR, type ActOptions, type AdoptRunningOptions, type JobRegistryOptions, type StartJobOptions, type TerminalSize } from "./job-options.js";

export class JobRegistry {
  readonly settings: JobSettings;
  readonly cwd: string;
  /** Every job's watch triggers (tools/jobs/watch/): they hear each job's lines from its start. */
  readonly watches: JobWatches;
  private readonly marker: ChildMarker | undefined;
  /** What each new job runs with, and the marks its processes carry. */
  private readonly specs: JobSpecs;
  private readonly stopper: JobStopper;
  /** Insertion order is start order; a restart keeps its slot. */
  private readonly jobs = new Map<string, Job>();
  /** Characters of output each job id has published: the next job_output's offset. */
  private readonly outputChars = new Map<string, number>();
  private readonly events = new EventBus<JobEvent>();
  /** What each client's agent must be told, by actor. */
  private readonly notices = new NoticeBoard();
  /** Finished jobs leave the list after the TTL. */
  private readonly ttl: TtlSweep;
  /** Groups a bash call left running in the background; ended with the jobs. */
  private readonly adopted: AdoptedGroups;
  private readonly lineObservers = new Set<(job: Job, line: string, lineNumber: number) => void>();
  private readonly sandbox: CommandSandbox | undefined;
  private nextId = 1;
  private shuttingDown = false;

  constructor(options: JobRegistryOptions) {
    this.cwd = options.cwd;
    this.settings = resolveJobSettings(options.settings);
    const baseEnv = Object.fromEntries(Object.entries(options.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    this.marker = options.marker;
    this.sandbox = options.sandbox;
    this.specs = new JobSpecs(this.cwd, this.settings, baseEnv, this.marker);
    this.stopper = new JobStopper(this.settings, this.marker);
    this.ttl = new TtlSweep(this.settings.ttlMs);
    const goneCheck = options.adoptedCheckMs !== undefined ? { goneCheckMs: options.adoptedCheckMs } : {};
    this.adopted = new AdoptedGroups({ marker: this.marker, killGraceMs: this.settings.killGraceMs, ...goneCheck, endEscapes: (mark) => this.stopper.endEscapes(mark) });
    this.watches = new JobWatches({
      debounceMs: this.settings.watchDebounceMs,
      timing: { minDebounceMs: this.settings.minWatchDebounceMs, ...options.watchTiming },
      emit: (event) => {
        recordForOwner(event, this.jobs.get(event.jobId)?.owner, (owner) => this.noticesOf(owner));
        this.events.emit(event);
      },
    });
  }

  /** Job events, in order; the coding agent forwards them to the session's bus. */
  subscribe(listener: (event: JobEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  /** Starts a job. Throws a clear Error past the limit of simultaneous jobs or for a missing folder. */
  start(options: StartJobOptions): Job {
    if (this.shuttingDown) throw new Error("Cannot start a job: pitwall is shutting down.");
    this.checkCapacity();
    const id = String(this.nextId++);
    const job = this.spawn(id, options, 0);
    if (options.startedBy === "person") this.noticesOf(options.owner).personAction(personActions.started(job));
    return job;
  }

  /** Job ids go on from `next` at least (a new job host continuing the ids a client has seen). */
  reserveIds(next: number): void {
    if (Number.isSafeInteger(next) && next > this.nextId) this.nextId = next;
  }

  /** The PITWALL_JOB mark for one bash call's processes (a call that becomes a job keeps it). */
  callMark(): Record<string, string> {
    return this.specs.callMark();
  }

  /**
   * The sandbox for a command of this registry's folder (its root). Throws SandboxUnavailableError
   * when the policy requires a fence that cannot be made, and an Error when the registry has no
   * sandbox (a library's, which runs commands as the person).
   */
  makeFence(request: Omit<FenceRequest, "root">): Promise<CommandFence> {
    if (!this.sandbox) return Promise.reject(new Error("This job registry runs commands without a sandbox (it was made without one)."));
    return this.sandbox.fence({ ...request, root: this.cwd });
  }

  get(id: string): Job | undefined {
    return this.jobs.get(id);
  }

  /** Running jobs and finished ones still within their TTL, oldest first. */
  list(): Job[] {
    return [...this.jobs.values()];
  }

  /** Jobs whose process is running. */
  runningCount(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (job.running) n++;
    return n;
  }

  /**
   * Stops a job. Without `signal`: TERM to the group, KILL after the grace period, and resolves with
   * the final status. With `signal`: sends only that, waits up to the grace period, and resolves with
   * the status then (a job may survive a signal such as SIGINT or SIGUSR1).
   */
  async kill(id: string, options: { signal?: NodeJS.Signals } & ActOptions = {}): Promise<JobInfo> {
    const job = this.require(id);
    const by = options.by ?? "agent";
    if (!job.running) {
      if (groupAlive(job.pid)) await this.stopper.terminate(job);
      else await this.stopper.endEscapes(job.mark);
      return job.info;
    }
    job.stopRequestedBy ??= by;
    if (by === "person") this.noticesOf(options.actor).personAction(personActions.stopped(job));
    if (options.signal !== undefined) {
      job.signalGroup(options.signal);
      await within(job.exited, this.settings.killGraceMs);
      if (job.running && (options.signal === "SIGKILL" || options.signal === "SIGTERM")) {
        // The signal was meant to stop it; fall back to the full escalation rather than report a survivor.
        await this.stopper.terminate(job);
      }
      return job.info;
    }
    await this.stopper.terminate(job);
    return job.info;
  }

  /**
   * Runs the job's command again under the same id (stopping it first if it runs); restarts + 1. A
   * `profile` (the person's choice) runs it under another sandbox profile; without one it keeps its own.
   */
  async restart(id: string, by: JobStarter, size?: TerminalSize, actor?: string, profile?: SandboxProfile): Promise<Job> {
    const old = this.require(id);
    // Made first: a fence that cannot be made leaves the job as it was.
    const fence = await this.restartFence(old, profile);
    if (old.running) {
      old.stopRequestedBy ??= by;
      await this.stopper.terminate(old);
    } else if (groupAlive(old.pid)) {
      await this.stopper.terminate(old);
    }
    this.ttl.clear(id);
    this.checkCapacity();
    const job = this.spawn(
      id,
      {
        command: old.command,
        cwd: old.cwd,
        baseEnv: old.env,
        stdinMode: old.stdinMode,
        startedBy: old.startedBy,
        restartedBy: by,
        ...(size ? { size } : {}),
        owner: old.owner ?? actor ?? DEFAULT_ACTOR,
        ...(fence ? { fence } : {}),
      },
      old.restarts + 1,
      true,
    );
    old.dispose();
    if (by === "person") this.noticesOf(actor).personAction(personActions.restarted(job));
    return job;
  }

  /** A restarted job's fence: made again (the disk may have changed), under `profile` when given. */
  private async restartFence(old: Job, profile: SandboxProfile | undefined): Promise<CommandFence | undefined> {
    if (old.fence === undefined) {
      if (profile !== undefined) throw new Error(`Job ${old.id} was started without a sandbox policy, so it cannot be restarted under a profile.`);
      return undefined;
    }
    const { root: _root, ...request } = old.fence.request;
    return this.makeFence({ ...request, ...(profile !== undefined ? { profile } : {}) });
  }

  /** Removes a finished job from the list (the person's action). Running jobs are not removed: stop them first. */
  remove(id: string, actor?: string): boolean {
    const job = this.jobs.get(id);
    if (!job || job.running) return false;
    this.noticesOf(actor).personAction(personActions.removed(job));
    this.drop(job);
    return true;
  }

  /**
   * Sends input to a running job: text as is (escape sequences such as "\u0003" included), then with
   * `eof` closes stdin (pipe) or sends ^D (pty). Throws for an unknown or finished job and past
   * 256 KiB of input over the job's life.
   */
  write(id: string, data: string, options: { eof?: boolean } & ActOptions = {}): void {
    const job = this.require(id);
    if (!job.running) throw new JobEndedError(id, endingOf(job.info));
    if (job.fromBashCall) throw new JobTakesNoInputError(id);
    if (job.stdinClosed) {
      throw new Error(`Job ${id}'s input was already closed (eof). Start the command again to send more input.`);
    }
    const bytes = Buffer.byteLength(data, "utf8");
    if (job.stdinBytes + bytes > MAX_STDIN_BYTES) throw new JobInputLimitError(id, job.stdinBytes, MAX_STDIN_BYTES);
    if (data.length > 0) job.writeInput(data);
    if (options.eof) job.endInput();
    if ((options.by ?? "agent") === "person") this.noticesOf(options.actor).personTyped(job);
  }

  /**
   * Tells the agent something else the person did (a command of their own), in order with what
   * they did to jobs: both reach the model as one notice, oldest first.
   */
  notePersonAction(text: string, actor?: string): void {
    this.noticesOf(actor).personAction(text);
  }

  /** What an agent must be told before its next request: one notice per event since the last drain, with when it happened. */
  drainNotices(actor: string = DEFAULT_ACTOR): JobNotice[] {
    return this.notices.drain(actor);
  }

  /** Ends every group bash calls left running in the background (with their escapes). */
  async endLeftoverGroups(): Promise<void> {
    await this.adopted.endEvery();
  }

  private noticesOf(actor: string | undefined = DEFAULT_ACTOR): JobNotices {
    return this.notices.of(actor);
  }

  // ---- owners: the clients of a job host ---------------------------------------------------

  /** The jobs `owner` owns. */
  owned(owner: string): Job[] {
    return this.list().filter((job) => job.owner === owner);
  }

  /** Jobs no client owns (their client left them running). */
  unowned(): Job[] {
    return this.list().filter((job) => job.owner === undefined);
  }

  /**
   * A client left without stopping its jobs: they run on unowned, and what its agent was still to
   * be told waits for the client that takes them over.
   */
  release(owner: string): void {
    this.handOver(owner, undefined);
  }

  /** The jobs whose exit `owner`'s agent is still to be told. */
  exitsToTell(owner: string): string[] {
    return this.notices.of(owner).pendingExits();
  }

  /** A client that came back over a new connection (a remote link dropped) takes back what its old one owned. */
  transfer(from: string, to: string): Job[] {
    return this.handOver(from, to);
  }

  /** A client takes over every unowned job and what was to be told about them; returns those jobs. */
  adoptUnowned(owner: string): Job[] {
    return this.handOver(undefined, owner);
  }

  /** Moves jobs, leftover groups and what was to be told from one owner to another (undefined: none). */
  private handOver(from: string | undefined, to: string | undefined): Job[] {
    const jobs = this.list().filter((job) => job.owner === from);
    for (const job of jobs) job.owner = to;
    this.adopted.handOver(from, to);
    this.notices.handOver(from ?? UNOWNED, to ?? UNOWNED);
    return jobs;
  }

  /** Stops (with their escapes) and forgets every job and leftover group `owner` owns: its client ended. */
  async stopOwned(owner: string | undefined): Promise<void> {
    const jobs = owner === undefined ? this.unowned() : this.owned(owner);
    await Promise.all(
      jobs.map(async (job) => {
        job.stopRequestedBy ??= "person";
        if (job.running || groupAlive(job.pid)) await this.stopper.terminate(job);
        else await this.stopper.endEscapes(job.mark);
      }),
    );
    for (const job of jobs) if (this.jobs.get(job.id) === job) this.drop(job, false);
    await this.adopted.endOwnedBy(owner);
    this.notices.forget(owner ?? UNOWNED);
  }

  /** Calls `listener` for every completed line of every job's plain-text log (a hook for watching output). */
  observeLines(listener: (job: Job, line: string, lineNumber: number) => void): () => void {
    this.lineObservers.add(listener);
    return () => this.lineObservers.delete(listener);
  }

  /** Publishes that a bash_stream call yielded while its job runs on. */
  reportYield(toolCallId: string, job: Job, tail: string): void {
    this.events.emit({ type: "job_yielded", toolCallId, jobId: job.id, pid: job.pid, startedAt: job.startedAt, tail });
  }

  /**
   * Takes over a command that is already running (a bash call that outlived its wait or met a steer)
   * as a pipe job, with what it printed so far. The limit of simultaneous jobs does not apply: it
   * runs already, and refusing would mean killing it. `killAfterMs` keeps the call's timeout.
   */
  adoptRunning(options: AdoptRunningOptions): Job {
    if (this.shuttingDown) throw new Error("Cannot take over the command: pitwall is shutting down.");
    const id = String(this.nextId++);
    const job = this.register(startJob(this.specs.forAdopted(id, options)));
    if (options.killAfterMs !== undefined) {
      const timer = setTimeout(() => {
        if (job.running && this.jobs.get(id) === job) void this.kill(id, { by: "agent" }).catch(() => undefined);
      }, Math.max(0, options.killAfterMs));
      timer.unref();
      void job.exited.then(() => clearTimeout(timer));
    }
    return job;
  }

  /**
   * Takes over a process group something else started (`server &` in a bash call) so shutdown ends
   * it, with the PITWALL_JOB mark of its processes (their escapes end too).
   */
  adoptGroup(pgid: number, options: { owner?: string; mark?: string } = {}): void {
    this.adopted.adopt(pgid, options.owner ?? DEFAULT_ACTOR, options.mark);
  }

  /** Ends every job's process group (TERM, grace, KILL) and frees the emulators. */
  async shutdown(): Promise<void> {
    this.shuttingDown = true;
    this.ttl.clearAll();
    const jobs = [...this.jobs.values()];
    await Promise.all(
      jobs.map(async (job) => {
        job.stopRequestedBy ??= "person";
        if (job.running || groupAlive(job.pid)) await this.stopper.terminate(job);
      }),
    );
    for (const job of jobs) job.dispose();
    this.jobs.clear();
    await this.adopted.endAll();
    this.watches.dispose();
    // What escaped the groups, of every job and bash call of this registry.
    await this.stopper.endEveryEscape(`${this.specs.markPrefix}.`);
  }

  /** SIGKILL to every job's group, synchronously: for process 'exit', where nothing async runs. */
  killAllSync(): void {
    for (const job of this.jobs.values()) {
      if (job.running || groupAlive(job.pid)) job.signalGroup("SIGKILL");
    }
    this.adopted.killAllSync();
  }

  private spawn(id: string, options: StartJobOptions, restarts: number, replacing = false): Job {
    const job = startJob(this.specs.forStart(id, options, restarts));
    if (!replacing && this.jobs.has(id)) throw new Error(`Job id ${id} is taken.`);
    return this.register(job);
  }

  /** Lists a new job, publishes its output and its end, and tracks its process group. */
  private register(job: Job): Job {
    this.marker?.trackGroup(job.pid);
    this.jobs.set(job.id, job);
    this.watches.attach(job);
    watchFence(job, (hit) => {
      // A late hit (a name resolved outside) of a run that was replaced or removed meanwhile is dropped.
      if (this.jobs.get(job.id) === job) this.events.emit({ type: "job_fenced", jobId: job.id, command: job.command, hit });
    });
    job.onOutput((chunk, stream) => {
      for (const piece of splitChunk(chunk)) {
        const offset = this.outputChars.get(job.id) ?? 0;
        this.outputChars.set(job.id, offset + piece.length);
        this.events.emit({ type: "job_output", jobId: job.id, stream, chunk: piece, offset });
      }
    });
    job.log.onLine(
      (line, lineNumber) => {
        for (const observer of this.lineObservers) observer(job, line, lineNumber);
      },
      () => this.lineObservers.size > 0,
    );
    void job.exited.then(() => this.ended(job));
    this.events.emit({ type: "job_started", job: job.info });
    return job;
  }

  private ended(job: Job): void {
    untrackIfGone(this.marker, job.pid);
    // Told when nobody asked for the end (JobNotices.jobEnded keeps a notice then); the job host says it only to the owner.
    this.events.emit({ type: "job_exited", job: job.info, told: !this.shuttingDown && job.stopRequestedBy === undefined });
    if (this.shuttingDown) return;
    this.noticesOf(job.owner ?? UNOWNED).jobEnded(job);
    if (this.jobs.get(job.id) !== job) return;
    this.ttl.schedule(job.id, () => {
      if (this.jobs.get(job.id) === job) this.drop(job);
    });
  }

  /** Takes a finished job out of the list, ending anything its group (or an escape) left behind. */
  private drop(job: Job, endLeftovers = true): void {
    this.ttl.clear(job.id);
    this.jobs.delete(job.id);
    this.watches.forget(job.id);
    this.outputChars.delete(job.id);
    this.events.emit({ type: "job_removed", jobId: job.id });
    if (!endLeftovers) {
      job.dispose();
    } else if (groupAlive(job.pid)) {
      void this.stopper.terminate(job).then(() => job.dispose());
    } else {
      untrackIfGone(this.marker, job.pid);
      job.dispose();
      void this.stopper.endEscapes(job.mark);
    }
  }

  private checkCapacity(): void {
    const running = this.runningCount();
    if (running >= this.settings.maxJobs) throw new JobLimitError(running, this.settings.maxJobs);
  }

  private require(id: string): Job {
    const job = this.jobs.get(id);
    if (!job) throw new NoSuchJobError(id, [...this.jobs.keys()]);
    return job;
  }
}
