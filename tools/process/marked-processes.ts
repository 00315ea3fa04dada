// Finding and ending every process that carries a run's marker in its environment. Every child
// pitwall starts gets PITWALL_RUN=<token>, and its children inherit it, including those that left
// the process group (`setsid`, `nohup` and a double fork), so a sweep of /proc finds them all.
// A process that scrubbed its environment (`env -i`) or belongs to another user is not found.
import { readdirSync, readFileSync } from "node:fs";

/** The variable every child of a guarded run carries. */
export const RUN_MARKER_VARIABLE = "PITWALL_RUN";
/** The variable every process of one job (or one bash call) carries, so stopping the job ends its escapes too. */
export const JOB_MARKER_VARIABLE = "PITWALL_JOB";

/**
 * Which marked processes to find: `variable=value` exactly, or (with `prefix`) every value that
 * starts with `value` (all the jobs of one registry).
 */
export interface Mark {
  value: string;
  variable?: string;
  prefix?: boolean;
}

function needleOf(mark: Mark | string): Buffer {
  const { value, variable = RUN_MARKER_VARIABLE, prefix = false } = typeof mark === "string" ? { value: mark } : mark;
  return Buffer.from(`${variable}=${value}${prefix ? "" : "\0"}`);
}

/** Sweeps end when this many rounds in a row found nothing (a fork in flight shows up in the next). */
const QUIET_ROUNDS = 2;
const MAX_ROUNDS = 50;
const ROUND_PAUSE_MS = 20;

/** Pids of live processes whose environment holds PITWALL_RUN=`token`, or the mark (never this process). */
export function findMarkedProcesses(mark: Mark | string): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return []; // no /proc (macOS): only process groups can be ended
  }
  const needle = needleOf(mark);
  const found: number[] = [];
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    let environ: Buffer;
    try {
      environ = readFileSync(`/proc/${entry}/environ`);
    } catch {
      continue; // gone, or another user's
    }
    // Each entry ends with NUL; the first one has no NUL before it.
    const at = environ.indexOf(needle);
    if (at === 0 || (at > 0 && environ[at - 1] === 0)) found.push(pid);
  }
  return found;
}

function signal(pids: number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // Already gone.
    }
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** KILL to every marked process, round after round until none is left; returns the pids hit. */
export function killMarkedSync(token: Mark | string): Set<number> {
  const hit = new Set<number>();
  let quiet = 0;
  for (let round = 0; round < MAX_ROUNDS && quiet < QUIET_ROUNDS; round++) {
    const pids = findMarkedProcesses(token);
    if (pids.length === 0) {
      quiet++;
    } else {
      quiet = 0;
      signal(pids, "SIGKILL");
      for (const pid of pids) hit.add(pid);
    }
    sleepSync(ROUND_PAUSE_MS);
  }
  return hit;
}

/**
 * The polite version for a normal exit: TERM to every marked process, up to `graceMs` for them to
 * go, then KILL rounds for whatever is left. Resolves with how many processes were found.
 */
export async function endMarked(token: Mark | string, graceMs: number): Promise<number> {
  const first = findMarkedProcesses(token);
  if (first.length === 0) return 0;
  signal(first, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && findMarkedProcesses(token).length > 0) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return new Set([...first, ...killMarkedSync(token)]).size;
}
