// Ends whole process groups. Every process pitwall starts (a bash call, a job) leads its own group,
// so signalling the negative pid reaches its children and grandchildren too.
import { readdirSync, readFileSync } from "node:fs";

/**
 * A pid that can lead a group of ours. Signalling -0 would reach the caller's own group and -1 every
 * process the caller may signal (as root, the machine): a pid read from a file half written, or one
 * never set, must reach nothing.
 */
function isGroupLeader(pid: number): boolean {
  return Number.isInteger(pid) && pid > 1;
}

/** Sends `signal` to the group led by `pid`; false when no such group is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  if (!isGroupLeader(pid)) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * True while any process of the group led by `pid` is alive. On Linux, zombies do not count: an
 * orphaned grandchild that exited stays a zombie until init reaps it, and some containers' init
 * never does, which would make every kill wait out its grace period.
 */
export function groupAlive(pid: number): boolean {
  if (!isGroupLeader(pid)) return false;
  const members = liveMembersFromProc(pid);
  if (members !== undefined) return members > 0;
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    // EPERM means it exists but belongs to someone else; for our own groups that does not happen.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export const DEFAULT_KILL_GRACE_MS = 2_000;

/**
 * TERM to the group, then KILL to whatever is left after `graceMs`. Resolves once the group is
 * gone (or after a last KILL when it cannot be observed to go).
 */
export async function terminateGroup(pid: number, graceMs: number = DEFAULT_KILL_GRACE_MS): Promise<void> {
  if (!signalGroup(pid, "SIGTERM")) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!groupAlive(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  signalGroup(pid, "SIGKILL");
  const killDeadline = Date.now() + 1_000;
  while (groupAlive(pid) && Date.now() < killDeadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Live (non-zombie) processes in group `pgid` from /proc, or undefined where /proc is unavailable. */
function liveMembersFromProc(pgid: number): number | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  let live = 0;
  for (const entry of entries) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "latin1");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) === pgid && fields[0] !== "Z" && fields[0] !== "X") live++;
  }
  return live;
}
