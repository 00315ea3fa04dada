// Ctrl+Z: pitwall stops as every full-screen terminal program does. The screen is left and the
// terminal modes turned off, then pitwall sends itself SIGTSTP; the shell prints its "Stopped" line
// and `fg` continues it, where the modes come back on and the whole screen is drawn again. Jobs run
// in their own sessions, so they keep running meanwhile (what they print waits in their pty).
//
// A shell without job control cannot continue a stopped program, and the kernel drops SIGTSTP for
// a process group nobody could continue: then pitwall was never stopped, and says so.

/** Time spent in kill() plus this wait, beyond which pitwall was stopped rather than refused. */
const SETTLE_MS = 20;
const STOPPED_MS = 80;

export interface SuspendHooks {
  /** Leaves the screen and turns the terminal modes off. */
  leave(): void;
  /** Turns the modes on again and redraws everything. */
  enter(): void;
}

/** Stops pitwall until the shell continues it; false when the stop did not happen. */
export function suspendProcess(hooks: SuspendHooks): boolean {
  hooks.leave();
  const started = performance.now();
  process.kill(process.pid, "SIGTSTP");
  // The stop may reach another thread first: a short synchronous wait lets it land before timing.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, SETTLE_MS);
  const stopped = performance.now() - started > STOPPED_MS;
  hooks.enter();
  return stopped;
}
