// Fenced commands start on a shell made ready ahead of time. bwrap's set-up (a mount namespace, a
// dozen mounts, a /dev and /proc of its own) costs ~10 ms on a 2-core machine, a fifth of a quick
// bash call's round trip. So once a fenced call has started, the same fence (shell, folder, bwrap's
// arguments) is started again in the background, up to a shell inside it that waits on descriptor 3
// for its orders (child-launch.ts: FROM_DESCRIPTOR). The next call with that fence hands it its
// environment's changes and its command, and runs at once. A shell that waits is ended by closing
// its descriptor (it runs nothing and exits), which also happens when the process holding it dies;
// it carries the run's marker like any child, so the watchdog ends it too.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { launchWaitingShell, waitingShellOrders, type LaunchWrapper } from "./child-launch.js";
import type { ChildMarker } from "./process-guard.js";
import { readFileSync } from "node:fs";

/** What makes two calls' shells interchangeable: the rest (the environment) is sent at hand-over. */
export interface ShellShape {
  shell: string;
  cwd: string;
  wrapper: LaunchWrapper;
}

/** A shell handed a command: stdin closed, its output's pipes, as the usual `spawn` gives them. */
export type HandedShell = ChildProcessByStdio<null, Readable, Readable>;

interface Waiting {
  key: string;
  child: HandedShell;
  orders: Writable;
  /** The environment it was started with. */
  env: Readonly<Record<string, string>>;
}

/** Longer commands go the usual way: bash reads its orders a byte at a time (~2 µs a byte). */
export const MAX_HANDED_COMMAND = 1024;
/** A shell nobody took for this long is ended: one less set of processes in `ps`. */
const IDLE_MS = 5 * 60_000;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Whether `pid` still runs. Node learns of a death only when it reaps the child, which may come
 * after the next call: a dead one is a zombie by then (one file read, not a scan of /proc).
 */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    return !/^[ZXx]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

function keyOf(shape: ShellShape): string {
  return [shape.shell, shape.cwd, ...shape.wrapper.prefix].join("\0");
}

export class PrestartedShells {
  private readonly waiting = new Map<string, Waiting>();
  private idleTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly marker?: ChildMarker) {}

  /**
   * The shell waiting for `shape`, given `command` with its environment made `env`; undefined when
   * none waits (or it died), the command is long, or a variable cannot be passed by name (the
   * caller then starts the command the usual way).
   */
  take(shape: ShellShape, command: string, env: Readonly<Record<string, string>>): HandedShell | undefined {
    const key = keyOf(shape);
    const waiting = this.waiting.get(key);
    if (!waiting || waiting.child.exitCode !== null || waiting.child.signalCode !== null || !running(waiting.child.pid ?? 0)) return undefined;
    if (Buffer.byteLength(command) > MAX_HANDED_COMMAND || command.includes("\0")) return undefined;
    const set: Record<string, string> = {};
    for (const [name, value] of Object.entries(env)) if (waiting.env[name] !== value) set[name] = value;
    const unset = Object.keys(waiting.env).filter((name) => !(name in env));
    if (![...Object.keys(set), ...unset].every((name) => NAME.test(name))) return undefined;
    this.waiting.delete(key);
    waiting.child.removeAllListeners("exit");
    waiting.orders.end(waitingShellOrders(command, set, unset));
    return waiting.child;
  }

  /** Starts a shell for `shape` in the background, unless one already waits. */
  prepare(shape: ShellShape, env: Readonly<Record<string, string>>): void {
    const key = keyOf(shape);
    if (this.disposed || this.waiting.has(key)) return;
    const launch = launchWaitingShell(shape.shell, shape.wrapper);
    if (!launch) return;
    const child = spawn(launch.file, launch.args, { cwd: shape.cwd, env: { ...env, ...launch.env }, detached: true, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    const orders = child.stdio[3] as Writable | null;
    if (child.pid === undefined || !child.stdout || !child.stderr || !orders) {
      child.on("error", () => undefined);
      return;
    }
    const pid = child.pid;
    this.marker?.trackGroup(pid);
    // Its owner may close the descriptor before the shell reads it: nothing to report then.
    orders.on("error", () => undefined);
    child.on("error", () => undefined);
    child.once("exit", () => {
      this.marker?.untrackGroup(pid);
      if (this.waiting.get(key)?.child === child) this.waiting.delete(key);
    });
    this.waiting.set(key, { key, child: child as HandedShell, orders, env: { ...env } });
    this.armIdle();
  }

  /** The pids (each its group's leader) of the shells waiting now. */
  waitingPids(): number[] {
    return [...this.waiting.values()].flatMap((waiting) => (waiting.child.pid === undefined ? [] : [waiting.child.pid]));
  }

  /** Ends every waiting shell (closing its orders; it exits without running anything). */
  dispose(): void {
    this.disposed = true;
    this.endAll();
  }

  private endAll(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    for (const waiting of this.waiting.values()) {
      waiting.orders.end();
      waiting.child.stdout.destroy();
      waiting.child.stderr.destroy();
    }
    this.waiting.clear();
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.endAll(), IDLE_MS);
    this.idleTimer.unref();
  }
}
