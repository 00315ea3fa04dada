// A job under a pty (stdinMode "pty", the default): the program sees a terminal, so it prints
// colours and progress bars and answers like an interactive program. What only a pty needs lives
// here: holding its slave side open (so a program that closes its descriptors is not hung up on),
// reading everything before node-pty tears it down, pausing and resuming it for the emulator, and
// answering the program's terminal queries.
import { closeSync } from "node:fs";
import { spawn as spawnPty, type IPty } from "node-pty";
import { Job, type JobSpec } from "./job.js";
import { holdSlave, onProcessExit, processGone, readBeforeDestroy, signalName } from "./pty-process.js";
import { launchShell } from "../../process/child-launch.js";

/** Where node-pty gives no sign of the exit (onProcessExit), how often a job checks whether its process is gone. */
const EXIT_POLL_MS = 25;
/**
 * Once the process is gone, how long the pty must have been read without giving anything before the
 * slave is let go (and then one more poll phase must bring nothing): what a paused pty held comes
 * through first. Closing the slave loses nothing the kernel still buffers (the master reads it all
 * before end of file), but what node-pty has read and not handed on yet would be.
 */
const SLAVE_QUIET_MS = 5;
/** After its process exits, how long a pty must stay silent before it is torn down unread (readBeforeDestroy). */
const EXIT_QUIET_MS = 250;

export class PtyJob extends Job {
  readonly pid: number;
  readonly stdoutLog = undefined;
  readonly stderrLog = undefined;
  private readonly pty: IPty;
  private exitPollTimer: NodeJS.Timeout | undefined;
  private slaveQuietTimer: NodeJS.Timeout | undefined;
  /** When the pty last gave output (Date.now()). */
  private lastPtyOutputAt = 0;
  private slaveFd: number | undefined;
  /** Whether the last input ended a line: a pty takes Ctrl+D as end of input only at a line start. */
  private inputAtLineStart = true;

  constructor(spec: JobSpec) {
    super(spec);
    // Through the launcher: the job inherits no pty master (nor anything else) of ours.
    const launch = launchShell(spec.shell, spec.command, spec.fence?.wrapper);
    const ptyProcess = spawnPty(launch.file, launch.args, {
      name: spec.env.TERM ?? "xterm-256color",
      cols: spec.cols,
      rows: spec.rows,
      cwd: spec.cwd,
      env: { ...spec.env, ...launch.env },
    });
    this.pty = ptyProcess;
    this.pid = ptyProcess.pid;
    this.slaveFd = holdSlave(ptyProcess);
    this.watchForExit(ptyProcess);
    readBeforeDestroy(ptyProcess, EXIT_QUIET_MS);
    ptyProcess.onData((chunk) => {
      this.lastPtyOutputAt = Date.now();
      this.receive(chunk, "pty");
    });
    ptyProcess.onExit(({ exitCode, signal }) => this.finish(exitCode, signalName(signal)));
    // Answers the program's terminal queries (cursor position, device attributes), as a terminal would.
    this.terminal.onData((reply) => {
      if (this.running) ptyProcess.write(reply);
    });
  }

  /** Sends Ctrl+D. Mid-line, a terminal's first Ctrl+D only hands over the pending text, so a second one follows. */
  endInput(): void {
    this.pty.write(this.inputAtLineStart ? "\x04" : "\x04\x04");
    this.inputAtLineStart = true;
  }

  protected deliverInput(data: string): void {
    if (data.length > 0) this.inputAtLineStart = data.endsWith("\n") || data.endsWith("\r");
    this.pty.write(data);
  }

  protected resizeProcess(cols: number, rows: number): void {
    if (!this.running) return;
    try {
      this.pty.resize(cols, rows);
    } catch {
      // The pty closed between the check and the call; the emulator still resizes.
    }
  }

  protected pauseOutput(): void {
    this.pty.pause();
  }

  protected resumeOutput(): void {
    this.pty.resume();
  }

  protected closeProcess(): void {
    clearInterval(this.exitPollTimer);
    this.releaseSlave();
  }

  protected exitRecorded(): void {
    this.releaseSlave();
  }

  /**
   * Holding the slave keeps node-pty from seeing end of output, so it reports the exit only after
   * its 200 ms fallback. Once the job's process is gone (reaped), its output is read to the end (a
   * paused pty is resumed: node-pty tears the pty down soon after the exit, read or not) and then the
   * slave is let go: the master hits EIO, and the exit is reported at once.
   */
  private watchForExit(ptyProcess: IPty): void {
    if (onProcessExit(ptyProcess, () => this.processExited())) return;
    this.exitPollTimer = setInterval(() => {
      if (processGone(this.pid)) this.processExited();
    }, EXIT_POLL_MS);
    this.exitPollTimer.unref();
  }

  private processExited(): void {
    clearInterval(this.exitPollTimer);
    this.feed.release();
    if (this.slaveFd === undefined || this.slaveQuietTimer) return;
    this.slaveQuietTimer = setInterval(() => {
      if (Date.now() - this.lastPtyOutputAt < SLAVE_QUIET_MS) return;
      // Quiet by the clock is not enough: after a long block (a loaded machine), the read that is due
      // has not run yet. Let one poll phase pass, and let go only if it brought nothing.
      const seen = this.lastPtyOutputAt;
      setImmediate(() => {
        if (this.lastPtyOutputAt === seen) this.releaseSlave();
      });
    }, SLAVE_QUIET_MS);
    this.slaveQuietTimer.unref();
  }

  private releaseSlave(): void {
    clearInterval(this.slaveQuietTimer);
    if (this.slaveFd === undefined) return;
    try {
      closeSync(this.slaveFd);
    } catch {
      // Already closed: nothing to release.
    }
    this.slaveFd = undefined;
  }
}
