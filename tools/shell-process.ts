// Runs one shell command for the bash tool and the person's `!command`: its own process group, stdin
// closed, stdout and stderr decoded and handed over in arrival order, timeout and abort ending the
// whole group. It returns when the shell exits, even if a backgrounded grandchild still holds the
// pipes. While it runs, the process can be handed off (to the job registry, when a bash call outlives
// its wait): this module then stops watching it and kills nothing.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable } from "node:stream";
import { DEFAULT_KILL_GRACE_MS, groupAlive, terminateGroup } from "./process-group.js";
import { launchShell } from "./process/child-launch.js";
import type { ChildMarker } from "./process/process-guard.js";
import type { PrestartedShells, ShellShape } from "./process/prestarted-shells.js";
import type { CommandFence } from "./sandbox/index.js";

export interface ShellRunOptions {
  shell: string;
  command: string;
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Ends the run (TERM to the group, KILL after the grace). */
  signal?: AbortSignal;
  /** Kill the group after this many milliseconds; none when undefined. */
  timeoutMs?: number;
  /** Decoded output, stdout and stderr interleaved as they arrive. Contract: must not throw. */
  onChunk: (chunk: string) => void;
  killGraceMs?: number;
  /** After the shell exits, how long the pipes may stay quiet before we stop reading them. */
  drainIdleMs?: number;
  /** Marks the command's environment and tracks its group while it runs (see ProcessGuard). */
  marker?: ChildMarker;
  /** The sandbox around the command: bwrap and its arguments go before the shell. */
  fence?: Pick<CommandFence, "wrapper">;
  /** Where a fenced command finds its fence already set up, and leaves one for the next call. */
  prestarted?: PrestartedShells;
}

export interface ShellRunResult {
  pid: number;
  /** Null when the shell was ended by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}

/** A command still running, handed over: its streams deliver strings (UTF-8 decoded) from now on. */
export interface RunningShell {
  child: ChildProcessByStdio<null, Readable, Readable>;
  pid: number;
  startedAt: number;
  /** The environment it was started with (marker included). */
  env: Record<string, string>;
}

export interface ShellRun {
  /** Settles when the shell has exited and its output was read; never after a hand-off. */
  readonly result: Promise<ShellRunResult>;
  /**
   * Stops watching the process (no more chunks, no timeout, no abort) and returns it, still running,
   * for someone else to own. Undefined when it has already exited: `result` then settles as usual.
   */
  handOff(): RunningShell | undefined;
}

export const DEFAULT_DRAIN_IDLE_MS = 200;
/** However chatty a leftover grandchild is, we stop reading this long after the shell exited. */
const MAX_DRAIN_MS = 3_000;
/** setTimeout cannot wait longer than this. */
const MAX_TIMER_MS = 2_147_483_647;

export function runShellCommand(options: ShellRunOptions): Promise<ShellRunResult> {
  return startShellCommand(options).result;
}

function spawnShell(options: ShellRunOptions, env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  const { file, args, env: launchEnv } = launchShell(options.shell, options.command, options.fence?.wrapper);
  return spawn(file, args, { cwd: options.cwd, env: { ...env, ...launchEnv }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Resolves once every stream has ended, or has been quiet `idleMs` since the later of now and its
 * last data (a background job may hold the pipes open for hours), or MAX_DRAIN_MS from now. Woken
 * by the streams' ends, so output that is all in resolves at once.
 */
function drained(streams: readonly Readable[], lastDataAt: () => number, idleMs: number): Promise<void> {
  const from = Date.now();
  const ended = (): boolean => streams.every((stream) => stream.readableEnded || stream.destroyed);
  if (ended()) return Promise.resolve();
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      clearTimeout(timer);
      for (const stream of streams) {
        stream.off("end", onEnd);
        stream.off("close", onEnd);
      }
      resolve();
    };
    const onEnd = (): void => {
      if (ended()) finish();
    };
    // Data moves the quiet deadline on; the timer reads it when it fires rather than on each chunk.
    const tick = (): void => {
      const until = Math.min(Math.max(lastDataAt(), from) + idleMs, from + MAX_DRAIN_MS);
      const now = Date.now();
      if (now >= until) finish();
      else timer = setTimeout(tick, until - now);
    };
    for (const stream of streams) {
      stream.on("end", onEnd);
      stream.on("close", onEnd);
    }
    tick();
  });
}

export function startShellCommand(options: ShellRunOptions): ShellRun {
  const startedAt = Date.now();
  const env = Object.fromEntries(
    Object.entries({ ...(options.env ?? process.env), ...options.marker?.env }).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const wrapper = options.fence?.wrapper;
  const shape: ShellShape | undefined = options.prestarted && wrapper ? { shell: options.shell, cwd: options.cwd, wrapper } : undefined;
  const child = (shape && options.prestarted?.take(shape, options.command, env)) || spawnShell(options, env);
  const pgid = child.pid;
  if (pgid !== undefined) options.marker?.trackGroup(pgid);
  const streams: Readable[] = [child.stdout, child.stderr];
  let lastDataAt = Date.now();
  const onData = (text: string): void => {
    lastDataAt = Date.now();
    if (text) options.onChunk(text);
  };
  for (const stream of streams) {
    // The stream's own decoder keeps a multi-byte character cut between reads, across a hand-off too.
    stream.setEncoding("utf8");
    stream.on("data", onData);
    // After we stop reading, a grandchild's writes may fail; that is its business, not ours.
    stream.on("error", () => undefined);
  }

  let exited = false;
  let handedOff = false;
  /** Set once a timeout or abort began ending the group: such a process is not handed on. */
  let killing: Promise<void> | undefined;
  let stopWatching = (): void => undefined;

  const result = new Promise<ShellRunResult>((resolve, reject) => {
    let timedOut = false;
    let aborted = false;
    const graceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const kill = (): void => {
      if (killing === undefined && child.pid !== undefined) killing = terminateGroup(child.pid, graceMs);
    };
    const timer =
      options.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            kill();
          }, Math.min(options.timeoutMs, MAX_TIMER_MS));
    const onAbort = (): void => {
      aborted = true;
      kill();
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });

    const onError = (error: Error): void => {
      if (exited || handedOff) return;
      exited = true;
      stopWatching();
      for (const stream of streams) stream.destroy();
      reject(new Error(`Could not start the shell ${options.shell} in ${options.cwd}: ${error.message}`));
    };
    const onExit = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (exited || handedOff) return;
      exited = true;
      stopWatching();
      void (async () => {
        await drained(streams, () => lastDataAt, options.drainIdleMs ?? DEFAULT_DRAIN_IDLE_MS);
        for (const stream of streams) if (!stream.readableEnded) stream.destroy();
        // A timeout or abort is only done when no process of the group is left.
        if (killing !== undefined) await killing;
        // A group with processes left in the background stays tracked: its new owner forgets it.
        if (pgid !== undefined && !groupAlive(pgid)) options.marker?.untrackGroup(pgid);
        resolve({ pid: child.pid ?? -1, exitCode, signal, timedOut, aborted, durationMs: Date.now() - startedAt });
      })();
    };
    child.once("error", onError);
    child.once("exit", onExit);
    stopWatching = () => {
      if (timer !== undefined) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (handedOff) {
        child.off("error", onError);
        child.off("exit", onExit);
      }
    };
  });

  if (shape) {
    // The next call with this fence finds a shell ready. Spawning one blocks this process for
    // 1.5-6 ms, so it waits until this call's result is out (the caller's continuations are
    // microtasks; the spawn comes after them); a command handed on to a job is done when it exits.
    const prepareNext = (): void => void setImmediate(() => options.prestarted?.prepare(shape, env));
    child.once("exit", () => {
      if (handedOff) prepareNext();
    });
    result.then(prepareNext, () => undefined);
  }

  return {
    result,
    handOff() {
      if (exited || handedOff || killing !== undefined || child.pid === undefined) return undefined;
      handedOff = true;
      stopWatching();
      for (const stream of streams) stream.off("data", onData);
      return { child, pid: child.pid, startedAt, env };
    },
  };
}
