// One background shell. It runs under a pty (the default: programs behave as in a terminal, colours
// and progress bars included) or with pipes (stdout and stderr kept apart), always leading its own
// process group so that stopping it reaches every child. Its output feeds a headless terminal
// emulator (what the jobs pane paints) and plain-text logs (what the model reads), all bounded.
import { spawn as spawnChild, type ChildProcess } from "node:child_process";
import { closeSync, statSync } from "node:fs";
import { spawn as spawnPty, type IPty } from "node-pty";
import type { JobInfo, JobStarter, JobStatus, JobStream } from "../events.js";
import { createJobTerminal, EmulatorFeed, type Terminal } from "../terminal/job-terminal.js";
import { PlainTextLog } from "../log/plain-text-log.js";
import { holdSlave, processGone, readBeforeDestroy, signalName } from "./pty-process.js";
import { signalGroup } from "../../process-group.js";
import { launchShell } from "../../process/child-launch.js";
import { countNewlines } from "../../output-cap.js";

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
}

/** A pipe process started elsewhere: its streams deliver strings; stdin is closed. */
export interface AdoptedProcess {
  child: ChildProcess;
  startedAt: number;
  /** What it printed before the hand-off (stdout and stderr as they came), shown first. */
  priorOutput: string;
}

/** Where a reader has got to in a job's plain-text log (see poll_process). */
export interface LogCursor {
  /** The next completed line not yet delivered. */
  line: number;
  /** What was delivered of that line while it was still partial. */
  partial: string;
}

/** How long a pipe job's streams may stay open after its process exited (a grandchild holding them). */
const PIPE_DRAIN_MS = 250;
/** How often a running pty job checks whether its process is gone, to let go of the slave side. */
const SLAVE_WATCH_MS = 25;
/**
 * How long the pty must have been read without getting anything before the slave is let go, once
 * the process is gone: output still in the kernel's buffers when the last slave closes can be lost
 * (seen on this VM as the last few hundred lines of a job whose output was paused at its exit).
 */
const SLAVE_QUIET_MS = 30;
/** How often a paused pty checks whether its process is gone (see EmulatorFeed.release). */
const PAUSED_EXIT_CHECK_MS = 40;
/** After its process exits, how long a pty must stay silent before it is torn down unread (readBeforeDestroy). */
const EXIT_QUIET_MS = 250;

export class Job {
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
  readonly pid: number;
  readonly startedAt: number;
  /** What the jobs pane paints: a headless xterm with the Unicode 11 widths active. */
  readonly terminal: Terminal;
  /** Plain text of everything the job printed (stdout and stderr interleaved as they arrived). */
  readonly log: PlainTextLog;
  /** Pipe jobs only: each stream on its own. */
  readonly stdoutLog: PlainTextLog | undefined;
  readonly stderrLog: PlainTextLog | undefined;
  /** Resolves once the process has exited and its output has been read. */
  readonly exited: Promise<JobInfo>;
  /** The PITWALL_JOB mark of its processes: stopping the job ends every process carrying it. */
  readonly mark: string | undefined;

  private statusValue: JobStatus = "running";
  private exitCodeValue: number | undefined;
  private signalValue: string | undefined;
  private endedAtValue: number | undefined;
  private readonly pty: IPty | undefined;
  private readonly child: ChildProcess | undefined;
  private readonly feed: EmulatorFeed;
  private readonly outputListeners = new Set<(chunk: string, stream: JobStream) => void>();
  private resolveExited!: (info: JobInfo) => void;
  private exitCheckTimer: NodeJS.Timeout | undefined;
  private slaveWatchTimer: NodeJS.Timeout | undefined;
  /** When the pty last gave output (Date.now()). */
  private lastPtyOutputAt = 0;
  private slaveFd: number | undefined;
  private stdinBytesValue = 0;
  private stdinClosedValue = false;
  /** Whether the last input ended a line: a pty takes Ctrl+D as end of input only at a line start. */
  private inputAtLineStart = true;
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

  constructor(spec: JobSpec) {
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

    // Through the launcher: the job inherits no pty master (nor anything else) of ours.
    const launch = launchShell(spec.shell, spec.command);
    if (spec.stdinMode === "pty") {
      const ptyProcess = spawnPty(launch.file, launch.args, {
        name: spec.env.TERM ?? "xterm-256color",
        cols: spec.cols,
        rows: spec.rows,
        cwd: spec.cwd,
        env: spec.env,
      });
      this.pty = ptyProcess;
      this.child = undefined;
      this.stdoutLog = undefined;
      this.stderrLog = undefined;
      this.pid = ptyProcess.pid;
      this.feed = new EmulatorFeed(
        this.terminal,
        { pause: () => this.pausePty(), resume: () => this.resumePty() },
        spec.emulatorHighWater,
        spec.emulatorLowWater,
      );
      this.slaveFd = holdSlave(ptyProcess);
      this.watchForSlaveRelease();
      readBeforeDestroy(ptyProcess, EXIT_QUIET_MS);
      ptyProcess.onData((chunk) => {
        this.lastPtyOutputAt = Date.now();
        this.receive(chunk, "pty");
      });
      ptyProcess.onExit(({ exitCode, signal }) => this.finish(exitCode, signalName(signal)));
      // Answers the program's terminal queries (cursor position, device attributes), as a terminal would.
      this.terminal.onData((reply) => {
        if (this.statusValue === "running") ptyProcess.write(reply);
      });
    } else {
      const child =
        spec.adopt?.child ??
        spawnChild(launch.file, launch.args, {
          cwd: spec.cwd,
          env: spec.env,
          detached: true,
          stdio: ["pipe", "pipe", "pipe"],
        });
      child.on("error", () => {
        // A failed spawn is reported below (no pid); later errors surface as the exit.
      });
      if (child.pid === undefined) {
        this.terminal.dispose();
        throw new Error(`Cannot start the job: ${spec.shell} could not be run. Check that it exists and is executable.`);
      }
      this.pty = undefined;
      this.child = child;
      this.pid = child.pid;
      // An adopted bash call printed both streams as one, as bash shows them: so does its job.
      this.stdoutLog = spec.adopt ? undefined : new PlainTextLog();
      this.stderrLog = spec.adopt ? undefined : new PlainTextLog();
      if (spec.adopt) this.stdinClosedValue = true;
      this.feed = new EmulatorFeed(this.terminal, {
        pause: () => {
          child.stdout?.pause();
          child.stderr?.pause();
        },
        resume: () => {
          child.stdout?.resume();
          child.stderr?.resume();
        },
      }, spec.emulatorHighWater, spec.emulatorLowWater);
      child.stdout?.setEncoding("utf8");
      child.stderr?.setEncoding("utf8");
      if (spec.adopt && spec.adopt.priorOutput.length > 0) this.receive(spec.adopt.priorOutput, "stdout");
      child.stdout?.on("data", (chunk: string) => this.receive(chunk, "stdout"));
      child.stderr?.on("data", (chunk: string) => this.receive(chunk, "stderr"));
      // Writing to a process that closed its stdin fails asynchronously; the job's status tells the story.
      child.stdin?.on("error", () => {
        this.stdinClosedValue = true;
      });
      child.once("exit", (code, signal) => {
        this.feed.release();
        // A grandchild may hold the pipes open; read what comes quickly, then report the exit.
        let done = false;
        const report = () => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          this.finish(code ?? 0, signalName(signal));
        };
        const timer = setTimeout(report, PIPE_DRAIN_MS);
        child.once("close", report);
      });
    }
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
    return info;
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

  /** Resizes the pty (the program gets SIGWINCH) and the emulator. */
  resize(cols: number, rows: number): void {
    const c = Math.max(2, Math.floor(cols));
    const r = Math.max(1, Math.floor(rows));
    if (this.pty && this.running) {
      try {
        this.pty.resize(c, r);
      } catch {
        // The pty closed between the check and the call; the emulator still resizes.
      }
    }
    if (!this.disposedValue) this.terminal.resize(c, r);
  }

  /** Sends input as is. The registry checks the caps; this only delivers. */
  writeInput(data: string): void {
    this.stdinBytesValue += Buffer.byteLength(data, "utf8");
    if (data.length > 0) this.inputAtLineStart = data.endsWith("\n") || data.endsWith("\r");
    if (this.pty) this.pty.write(data);
    else this.child?.stdin?.write(data);
  }

  /**
   * Ends input: closes stdin of a pipe job, sends Ctrl+D to a pty job. Mid-line, a terminal's first
   * Ctrl+D only hands over the pending text, so a second one follows.
   */
  endInput(): void {
    if (this.pty) {
      this.pty.write(this.inputAtLineStart ? "\x04" : "\x04\x04");
      this.inputAtLineStart = true;
    } else {
      this.stdinClosedValue = true;
      this.child?.stdin?.end();
    }
  }

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
    clearInterval(this.exitCheckTimer);
    this.releaseSlave();
    if (this.child) {
      this.child.stdin?.destroy();
      this.child.stdout?.destroy();
      this.child.stderr?.destroy();
    }
    this.terminal.dispose();
  }

  private receive(chunk: string, stream: JobStream): void {
    if (this.disposedValue) return;
    // Counted once for the log and the emulator: a flood's cost is mostly per line.
    const newlines = countNewlines(chunk);
    this.log.write(chunk, newlines);
    if (stream === "stdout") this.stdoutLog?.write(chunk);
    else if (stream === "stderr") this.stderrLog?.write(chunk);
    this.feed.write(chunk, newlines);
    for (const listener of this.outputListeners) listener(chunk, stream);
  }

  /**
   * Holding the slave keeps node-pty from seeing end of output, so it reports the exit only after
   * its 200 ms fallback. Once the job's process is gone (reaped), its output is read to the end (a
   * paused pty is resumed) and then the slave is let go: the master hits EIO, and the exit is
   * reported at once.
   */
  private watchForSlaveRelease(): void {
    if (this.slaveFd === undefined) return;
    this.slaveWatchTimer = setInterval(() => {
      if (!processGone(this.pid)) return;
      this.feed.release();
      if (Date.now() - this.lastPtyOutputAt >= SLAVE_QUIET_MS) this.releaseSlave();
    }, SLAVE_WATCH_MS);
    this.slaveWatchTimer.unref();
  }

  private releaseSlave(): void {
    clearInterval(this.slaveWatchTimer);
    if (this.slaveFd === undefined) return;
    try {
      closeSync(this.slaveFd);
    } catch {
      // Already closed: nothing to release.
    }
    this.slaveFd = undefined;
  }

  private pausePty(): void {
    this.pty?.pause();
    // node-pty tears the pty down 200 ms after the process exits whether or not its buffer was read;
    // while paused, watch for the exit so the last output is read in time.
    clearInterval(this.exitCheckTimer);
    this.exitCheckTimer = setInterval(() => {
      if (processGone(this.pid)) {
        clearInterval(this.exitCheckTimer);
        this.feed.release();
      }
    }, PAUSED_EXIT_CHECK_MS);
    this.exitCheckTimer.unref();
  }

  private resumePty(): void {
    clearInterval(this.exitCheckTimer);
    this.pty?.resume();
  }

  private finish(exitCode: number, signal: string | undefined): void {
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
    this.releaseSlave();
    this.resolveExited(this.info);
  }
}
