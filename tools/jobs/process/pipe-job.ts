// A job with pipes (stdinMode "pipe"): stdout and stderr arrive apart, each kept in its own log
// besides the interleaved one. A bash call that outlived its wait is taken over as a pipe job too
// (spec.adopt): its process is already running, its stdin closed, and what it printed before the
// hand-off comes first. After the process exits, its streams are drained for a moment, since a
// grandchild may hold them open.
import { spawn as spawnChild, type ChildProcess } from "node:child_process";
import { Job, type JobSpec } from "./job.js";
import { PlainTextLog } from "../log/plain-text-log.js";
import { signalName } from "./pty-process.js";
import { launchShell } from "../../process/child-launch.js";

/** How long a pipe job's streams may stay open after its process exited (a grandchild holding them). */
const PIPE_DRAIN_MS = 250;

export class PipeJob extends Job {
  readonly pid: number;
  readonly stdoutLog: PlainTextLog | undefined;
  readonly stderrLog: PlainTextLog | undefined;
  private readonly child: ChildProcess;

  constructor(spec: JobSpec) {
    super(spec);
    // Through the launcher: the job inherits no pty master (nor anything else) of ours.
    const launch = launchShell(spec.shell, spec.command, spec.fence?.wrapper);
    const child =
      spec.adopt?.child ??
      spawnChild(launch.file, launch.args, {
        cwd: spec.cwd,
        env: { ...spec.env, ...launch.env },
        detached: true,
        stdio: ["pipe", "pipe", "pipe"],
      });
    child.on("error", () => {
      // A failed spawn is reported below (no pid); later errors surface as the exit.
    });
    if (child.pid === undefined) {
      this.feed.dispose();
      this.terminal.dispose();
      throw new Error(`Cannot start the job: ${spec.shell} could not be run. Check that it exists and is executable.`);
    }
    this.child = child;
    this.pid = child.pid;
    // An adopted bash call printed both streams as one, as bash shows them: so does its job.
    this.stdoutLog = spec.adopt ? undefined : new PlainTextLog();
    this.stderrLog = spec.adopt ? undefined : new PlainTextLog();
    if (spec.adopt) this.stdinClosedValue = true;
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

  /** Closes stdin. */
  endInput(): void {
    this.stdinClosedValue = true;
    this.child.stdin?.end();
  }

  protected deliverInput(data: string): void {
    this.child.stdin?.write(data);
  }

  protected pauseOutput(): void {
    this.child.stdout?.pause();
    this.child.stderr?.pause();
  }

  protected resumeOutput(): void {
    this.child.stdout?.resume();
    this.child.stderr?.resume();
  }

  /** A pipe has no terminal to resize: only the emulator is. */
  protected resizeProcess(): void {}

  protected closeProcess(): void {
    this.child.stdin?.destroy();
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }

  /** Nothing of a pipe's is held past the exit. */
  protected exitRecorded(): void {}
}
