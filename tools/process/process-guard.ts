// Process hygiene that survives pitwall's own death. A guard gives one run a random marker that every
// child carries in its environment (PITWALL_RUN=<token>), keeps the list of process groups and temp
// folders the run owns, and starts a watchdog that ends and removes them all if this process ends
// without doing it itself (SIGKILL, the OOM killer). On a normal exit the owner sweeps first, then
// closes the guard.
//
// Reuse: anything that starts children (the job registry, the bash tool, the person's `!command`,
// a future job host) takes a ChildMarker, adds `env` to each child and tracks each child's process
// group. A process meant to outlive this one (a job host that keeps jobs across a dashboard restart)
// is started without `env`, and with a guard of its own.
import { randomBytes } from "node:crypto";
import { endMarked, killMarkedSync, RUN_MARKER_VARIABLE } from "./marked-processes.js";
import { startWatchdog, type Watchdog } from "./watchdog.js";

/** What a spawner needs. Contract: none of these throw. */
export interface ChildMarker {
  /** Added to the environment of every child (after everything else, so it cannot be dropped by accident). */
  readonly env: Readonly<Record<string, string>>;
  /** A process group this run started; the watchdog kills it if the run dies. */
  trackGroup(pgid: number): void;
  /** The group is gone (or handed on): forget it, so a reused pid is never hit. */
  untrackGroup(pgid: number): void;
}

export class ProcessGuard implements ChildMarker {
  readonly token: string;
  readonly env: Readonly<Record<string, string>>;
  private readonly groups = new Set<number>();
  private readonly watchdog: Watchdog;
  private closed = false;

  private constructor() {
    this.token = randomBytes(12).toString("hex");
    this.env = { [RUN_MARKER_VARIABLE]: this.token };
    this.watchdog = startWatchdog(this.token);
  }

  /** Starts the watchdog. Cheap: one /bin/sh process that sleeps in read(2). */
  static start(): ProcessGuard {
    return new ProcessGuard();
  }

  /** The watchdog's pid (undefined if it could not start). */
  get watchdogPid(): number | undefined {
    return this.watchdog.pid;
  }

  trackGroup(pgid: number): void {
    if (pgid <= 1 || this.groups.has(pgid)) return;
    this.groups.add(pgid);
    this.watchdog.send("+", String(pgid));
  }

  untrackGroup(pgid: number): void {
    if (!this.groups.delete(pgid)) return;
    this.watchdog.send("-", String(pgid));
  }

  /** A folder the watchdog removes after a crash (the owner removes it on a normal exit). */
  removeAfterCrash(path: string): void {
    this.watchdog.send("d", path);
  }

  /** TERM to every process still carrying the marker, KILL after `graceMs`; resolves with how many there were. */
  sweep(graceMs: number): Promise<number> {
    return endMarked(this.token, graceMs);
  }

  /** KILL to every marked process, synchronously (for process 'exit'). */
  sweepSync(): number {
    return killMarkedSync(this.token).size;
  }

  /** Ends the watchdog: it makes a last sweep, removes the folders and exits. Call after sweeping. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.watchdog.close();
  }
}
