// No orphans: however pitwall ends (a normal exit, Ctrl+C, SIGTERM, SIGHUP, an uncaught error), every
// job's process group ends with it (except the jobs a dashboard leaves in the job host: keepOn), and so does every process that escaped its group but carries the
// run's marker (the guard's sweep). Signals get the polite path (TERM, grace, KILL); process 'exit'
// runs no async code, so there everything gets KILL at once. SIGKILL and the OOM killer run none of
// this: the guard's watchdog does it then.
import { isatty } from "node:tty";
import type { JobService } from "../service.js";
import type { ProcessGuard } from "../../process/process-guard.js";

const SIGNAL_EXIT_CODES: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

export interface JobCleanupOptions {
  /** Swept after the jobs end, and closed last. */
  guard?: Pick<ProcessGuard, "sweep" | "sweepSync" | "close">;
  /** Exit codes that differ from the usual 128 + signal (JSON mode ends 0 when its terminal hangs up). */
  exitCodes?: Partial<Record<NodeJS.Signals, number>>;
  /**
   * When the jobs can outlive this process (they run in the job host), the ends that leave them
   * running for the next pitwall instead of stopping them: a dashboard's closed terminal, a crash.
   */
  keepOn?: { signals: readonly NodeJS.Signals[]; crash: boolean };
}

/**
 * Ends the process after its terminal hung up. With a terminal on stdin, stdout or stderr,
 * process.exit would run Node 20's stdio reset, which asserts on a terminal that is gone and aborts
 * (SIGABRT, a native stack, a core file where dumps are on): instead the exit listeners run as
 * process.exit would run them, then SIGHUP is raised again with its default action, so the process
 * ends the way a hangup ends it (a shell's $? is 129). Without a terminal, it simply exits.
 */
function dieOfHangup(code: number, hadTerminal: boolean): never {
  if (!hadTerminal) return process.exit(code);
  process.exitCode = code;
  process.emit("exit", code);
  process.removeAllListeners("SIGHUP");
  process.kill(process.pid, "SIGHUP");
  // Not reached: the default action of SIGHUP ends the process. Should it be ignored, exit anyway.
  return process.exit(code);
}

/** What the cleanup needs of the jobs: a JobService, or a JobRegistry itself. */
export type CleanableJobs = Pick<JobService, "shutdown" | "killAllSync" | "settings" | "detach">;

/** Installs the handlers; returns a function that removes them again. */
export function installJobCleanup(registry: CleanableJobs, options: JobCleanupOptions = {}): () => void {
  let ending = false;
  const guard = options.guard;
  // Asked now, while the terminal is there: a hung-up terminal is no longer a tty for isatty.
  const hadTerminal = [0, 1, 2].some((fd) => isatty(fd));

  const killEverythingSync = (): void => {
    registry.killAllSync();
    guard?.sweepSync();
    guard?.close();
  };

  const endWith = (code: number, keep = false, hangup = false): void => {
    const exit = (): never => (hangup ? dieOfHangup(code, hadTerminal) : process.exit(code));
    if (ending) {
      // A second signal while shutting down: stop waiting.
      killEverythingSync();
      exit();
    }
    ending = true;
    const letGo = keep && registry.detach ? registry.detach() : registry.shutdown();
    letGo
      .then(() => guard?.sweep(registry.settings.killGraceMs))
      .then(
        () => {
          guard?.close();
          exit();
        },
        () => {
          killEverythingSync();
          exit();
        },
      );
  };

  const signalHandlers = new Map<NodeJS.Signals, () => void>();
  const codes = { ...SIGNAL_EXIT_CODES, ...options.exitCodes };
  for (const [signal, code] of Object.entries(codes) as [NodeJS.Signals, number][]) {
    const handler = () => endWith(code, options.keepOn?.signals.includes(signal) ?? false, signal === "SIGHUP" && code === SIGNAL_EXIT_CODES.SIGHUP);
    signalHandlers.set(signal, handler);
    process.on(signal, handler);
  }

  const onUncaught = (error: unknown): void => {
    const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
    const keep = (options.keepOn?.crash ?? false) && registry.detach !== undefined;
    process.stderr.write(`pitwall: unexpected error, ${keep ? "leaving the jobs running in the job host" : "stopping every job"} and exiting:\n${text}\n`);
    endWith(1, keep);
  };
  process.on("uncaughtException", onUncaught);

  process.on("exit", killEverythingSync);

  return () => {
    for (const [signal, handler] of signalHandlers) process.off(signal, handler);
    process.off("uncaughtException", onUncaught);
    process.off("exit", killEverythingSync);
  };
}
