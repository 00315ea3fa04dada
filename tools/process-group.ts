// Ends whole process groups. Every process pitwall starts (a bash call, a job) leads its own group,
// so signalling the negative pid reaches its children and grandchildren too.

/** Sends `signal` to the group led by `pid`; false when no such group is left. */
export function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** True while any process of the group led by `pid` is alive (signal 0 probes without killing). */
export function groupAlive(pid: number): boolean {
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
