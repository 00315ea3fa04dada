// One background shell, as the registry and the tools see it, whatever runs it: a pty (PtyJob, the
// default: programs behave as in a terminal, colours and progress bars included) or pipes (PipeJob:
// stdout and stderr kept apart). This is the one type for "a job" and what every kind shares: the
// plain-text log (what the model reads) and the headless emulator fed through EmulatorFeed (what the
// jobs pane paints), both bounded; the status and the exit bookkeeping; the stdin accounting; the
// process group that stopping reaches. Each kind supplies how its process is started, fed, paused
// and let go (pty-job.ts, pipe-job.ts); startJob (start-job.ts) picks the kind.
import type { ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import type { JobInfo, JobStarter, JobStatus, JobStream } from "../events.js";
import { createJobTerminal, EmulatorFeed, type Terminal } from "../terminal/job-terminal.js";
import { PlainTextLog } from "../log/plain-text-log.js";
import { sgrChars } from "../log/sgr-scan.js";
import type { LogCursor } from "../log/job-output-reader.js";
import { signalGroup } from "../../process-group.js";
import { countNewlines } from "../../output-cap.js";
import type { CommandFence, FenceHit } from "../../sandbox/index.js";

export type StdinMode = "pty" | "pipe";

export interface JobSpec {
  id: string;
  command: string;
  cwd: string;
  /** The complete environment of the process. */
  env: Record<string, string>;
  stdinMode: StdinMode;
  startedBy: JobStarter;
  restartedBy?: JobStarter;
  toolCallId?: string;
  restarts: number;
  /** The shell that runs `command` with `-c`. */
  shell: string;
  cols: number;
  rows: number;
  scrollback: number;
  /** Unparsed emulator input above which the job's output is paused, and below which it resumes. */
  emulatorHighWater?: number;
  emulatorLowWater?: number;
  /** A process already running (a bash call that outlived its wait) to take over instead of spawning one. */
  adopt?: AdoptedProcess;
  /** The PITWALL_JOB mark every process of the job carries (in `env` already, or the adopted call's). */
  mark?: string;
  /** The client the job belongs to (a job host's client; undefined: nobody's, kept for the next). */
  owner?: string;
  /** The sandbox it runs in (its prefix and variables are in the launch and `env` already). */
  fence?: CommandFence;
}

/** A pipe process started elsewhere: its streams deliver strings; stdin is closed. */
export interface AdoptedProcess {
  child: ChildProcess;
  startedAt: number;
  /** What it printed before the hand-off (stdout and stderr as they came), shown first. */
  priorOutput: string;
}

export abstract class Job {
  readonly id: string;
  readonly command: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stdinMode: StdinMode;
  readonly startedBy: JobStarter;
  /** Who ran the job again under its id, if anyone did (startedBy stays who started it first). */
  readonly restartedBy: JobStarter | undefined;
  readonly toolCallId: string | undefined;
  readonly restarts: number;
  /** Taken over from a bash call (its stdin is closed) rather than started as a job. */
  readonly fromBashCall: boolean;
  abstract readonly pid: number;
  readonly startedAt: number;
  /** What the jobs pane paints: a headless xterm with the Unicode 11 widths active. */
  readonly terminal: Terminal;
  /** Plain text of everything the job printed (stdout and stderr interleaved as they arrived). */
  readonly log: PlainTextLog;
  /** Pipe jobs only: each stream on its own. */
  abstract readonly stdoutLog: PlainTextLog | undefined;
  abstract readonly stderrLog: PlainTextLog | undefined;
  /** Resolves once the process has exited and its output has been read. */
  readonly exited: Promise<JobInfo>;
  /** The PITWALL_JOB mark of its processes: stopping the job ends every process carrying it. */
  readonly mark: string | undefined;
  /** The sandbox it runs in; undefined when it was started without a policy. */
  readonly fence: CommandFence | undefined;
  /** What the fence stopped it doing, in the order found. */
  readonly fenceHits: FenceHit[] = [];
  /** How many of fenceHits a tool result or notice has told the model. */
  private fenceHitsTold = 0;

  /** Paces the emulator: the kind pauses and resumes its output when asked (pauseOutput, resumeOutput). */
  protected readonly feed: EmulatorFeed;
  /** Set by the kind when its stdin can take no more (ended, or never open for an adopted call). */
  protected stdinClosedValue = false;
  private statusValue: JobStatus = "running";
  private exitCodeValue: number | undefined;
  private signalValue: string | undefined;
  private endedAtValue: number | undefined;
  private readonly outputListeners = new Set<(chunk: string, stream: JobStream) => void>();
  private resolveExited!: (info: JobInfo) => void;
  private stdinBytesValue = 0;
  private disposedValue = false;

  // Bookkeeping for the registry and the tools.
  /** The client the job belongs to; undefined while nobody owns it (its client left it running). */
  owner: string | undefined;
  /** Who asked for this job to be stopped, if anyone did. */
  stopRequestedBy: JobStarter | undefined;
  /** True once a tool result carried the job's final status to the model. */
  finalDelivered = false;
  /** What poll_process has delivered so far. */
  pollCursor: LogCursor = { line: 1, partial: "" };

  /** Checks the folder and sets up the log and the emulator; the kind's constructor then starts the process. */
  protected constructor(spec: JobSpec) {
    let isDirectory = false;
    try {
      isDirectory = statSync(spec.cwd).isDirectory();
    } catch {
      isDirectory = false;
    }
    if (!isDirectory) {
      throw new Error(`Cannot start the job: the working directory ${spec.cwd} does not exist or is not a folder. Pass an existing folder as workdir.`);
    }
    this.id = spec.id;
    this.command = spec.command;
    this.cwd = spec.cwd;
    this.env = spec.env;
    this.stdinMode = spec.stdinMode;
    this.startedBy = spec.startedBy;
    this.restartedBy = spec.restartedBy;
    this.toolCallId = spec.toolCallId;
    this.restarts = spec.restarts;
    this.fromBashCall = spec.adopt !== undefined;
    this.mark = spec.mark;
    this.owner = spec.owner;
    this.fence = spec.fence;
    this.exited = new Promise((resolve) => {
      this.resolveExited = resolve;
    });
    this.terminal = createJobTerminal({
      cols: spec.cols,
      rows: spec.rows,
      scrollback: spec.scrollback,
      convertEol: spec.stdinMode === "pipe",
    });
    this.log = new PlainTextLog();
    this.startedAt = spec.adopt?.startedAt ?? Date.now();
    this.feed = new EmulatorFeed(
      this.terminal,
      { pause: () => this.pauseOutput(), resume: () => this.resumeOutput() },
      spec.emulatorHighWater,
      spec.emulatorLowWater,
    );
  }

  get status(): JobStatus {
    return this.statusValue;
  }

  get running(): boolean {
    return this.statusValue === "running";
  }

  get exitCode(): number | undefined {
    return this.exitCodeValue;
  }

  get signal(): string | undefined {
    return this.signalValue;
  }

  get endedAt(): number | undefined {
    return this.endedAtValue;
  }

  get stdinBytes(): number {
    return this.stdinBytesValue;
  }

  get stdinClosed(): boolean {
    return this.stdinClosedValue;
  }

  /** True once dispose() freed the emulator (a restart replaced the job, or it was removed). */
  get disposed(): boolean {
    return this.disposedValue;
  }

  /** Characters written to the emulator and not parsed yet. */
  get emulatorPending(): number {
    return this.feed.pending;
  }

  /** How often the job's output was paused for the emulator to catch up. */
  get emulatorPauses(): number {
    return this.feed.pauses;
  }

  /** Characters of a flood the emulator never parsed: they would have left its scrollback unseen (emulator-skip.ts). */
  get emulatorSkipped(): number {
    return this.feed.skipped;
  }

  get info(): JobInfo {
    const info: JobInfo = {
      id: this.id,
      command: this.command,
      cwd: this.cwd,
      pid: this.pid,
      startedAt: this.startedAt,
      status: this.statusValue,
      startedBy: this.startedBy,
      stdinMode: this.stdinMode,
      restarts: this.restarts,
    };
    if (this.endedAtValue !== undefined) info.endedAt = this.endedAtValue;
    if (this.exitCodeValue !== undefined) info.exitCode = this.exitCodeValue;
    if (this.signalValue !== undefined) info.signal = this.signalValue;
    if (this.toolCallId !== undefined) info.toolCallId = this.toolCallId;
    if (this.restartedBy !== undefined) info.restartedBy = this.restartedBy;
    if (this.stopRequestedBy !== undefined) info.stopRequestedBy = this.stopRequestedBy;
    if (this.fence !== undefined) info.sandbox = this.fence.profile;
    if (this.fence?.state === "unfenced") info.unfenced = true;
    if (this.fenceHits.length > 0) info.fenceHits = this.fenceHits.length;
    if (this.owner !== undefined) info.owner = this.owner;
    return info;
  }

  /** What the fence stopped that the model has not been told yet; told from now on. */
  takeUntoldFenceHits(): FenceHit[] {
    const untold = this.fenceHits.slice(this.fenceHitsTold);
    this.fenceHitsTold = this.fenceHits.length;
    return untold;
  }

  /** Raw output as it arrives (escape codes included). */
  onOutput(listener: (chunk: string, stream: JobStream) => void): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  /** True while the job prints faster than a person can read (EmulatorFeed.isFlooding). */
  get flooding(): boolean {
    return this.feed.isFlooding;
  }

  /** Fires after the emulator parsed new data: the pane schedules a frame. */
  onTerminalWrite(listener: () => void): () => void {
    return this.feed.onWrite(listener);
  }

  /** Resizes the process's terminal, if it has one (the program gets SIGWINCH), and the emulator. */
  resize(cols: number, rows: number): void {
    const c = Math.max(2, Math.floor(cols));
    const r = Math.max(1, Math.floor(rows));
    this.resizeProcess(c, r);
    if (!this.disposedValue) this.terminal.resize(c, r);
  }

  /** Sends input as is. The registry checks the caps; this only delivers. */
  writeInput(data: string): void {
    this.stdinBytesValue += Buffer.byteLength(data, "utf8");
    this.deliverInput(data);
  }

  /** Ends input: closes stdin of a pipe job, sends Ctrl+D to a pty job. */
  abstract endInput(): void;

  /** Sends a signal to the job's whole process group. */
  signalGroup(signal: NodeJS.Signals): boolean {
    if (signalGroup(this.pid, signal)) return true;
    // node-pty returns before its child has called setsid(), so for a moment right after the start
    // the group does not exist yet: the signal goes to the child itself (it cannot have children yet).
    try {
      process.kill(this.pid, signal);
      return true;
    } catch {
      return false;
    }
  }

  /** Frees the emulator and closes what is still open. The process must have been ended first. */
  dispose(): void {
    if (this.disposedValue) return;
    this.disposedValue = true;
    this.outputListeners.clear();
    this.feed.dispose();
    this.closeProcess();
    this.terminal.dispose();
  }

  // ---- what each kind supplies ----------------------------------------------------------------

  /** Writes input to the process (counted already). */
  protected abstract deliverInput(data: string): void;
  /** The emulator is behind: stop reading the process's output until resumeOutput. */
  protected abstract pauseOutput(): void;
  protected abstract resumeOutput(): void;
  /** Resizes the process's terminal (c, r already clamped); nothing for a kind without one. */
  protected abstract resizeProcess(cols: number, rows: number): void;
  /** Closes what dispose() must let go of besides the emulator (descriptors, timers, streams). */
  protected abstract closeProcess(): void;
  /** The exit was recorded; called before `exited` resolves. */
  protected abstract exitRecorded(): void;

  // ---- what the kinds call --------------------------------------------------------------------

  /** Output from the process: into the logs, the emulator and the output listeners. */
  protected receive(chunk: string, stream: JobStream): void {
    if (this.disposedValue) return;
    // Scanned once for the log and the emulator: a flood's cost is mostly per line and per colour.
    const newlines = countNewlines(chunk);
    const colourChars = sgrChars(chunk);
    this.log.write(chunk, newlines, colourChars);
    if (stream === "stdout") this.stdoutLog?.write(chunk);
    else if (stream === "stderr") this.stderrLog?.write(chunk);
    this.feed.write(chunk, newlines, colourChars);
    for (const listener of this.outputListeners) listener(chunk, stream);
  }

  /** The process exited and its output has been read: records how it ended, once. */
  protected finish(exitCode: number, signal: string | undefined): void {
    if (this.statusValue !== "running") return;
    this.feed.release();
    this.endedAtValue = Date.now();
    if (signal !== undefined) {
      this.statusValue = "killed";
      this.signalValue = signal;
    } else {
      this.statusValue = "exited";
      this.exitCodeValue = exitCode;
    }
    this.stdinClosedValue = true;
    this.exitRecorded();
    this.resolveExited(this.info);
  }
}
