// Stopping a job host by its pid, whatever pitwall version it runs (the protocol may differ, a
// signal does not): SIGTERM lets it stop every job politely (TERM, grace, KILL) and exit; if it is
// still there after that, SIGKILL, and its watchdog ends the jobs. The pid must be the one the
// host's folder records, so a recycled pid is never signalled.
import { readFileSync } from "node:fs";
import { hostPaths } from "../host/host-paths.js";
import { processGone } from "../process/pty-process.js";

const POLL_MS = 50;

/** The pid the folder's host.pid names, if the file is there. */
export function recordedHostPid(home: string, cwd: string): number | undefined {
  try {
    const pid = Number(readFileSync(hostPaths(home, cwd).pidFile, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function processAlive(pid: number): boolean {
  return !processGone(pid);
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (processAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return true;
}

/**
 * Stops the host of `cwd` whose pid is `pid` (as its greeting or refusal said). Resolves true once
 * it is gone, false when host.pid names another process (nothing is signalled then).
 */
export async function stopHostProcess(home: string, cwd: string, pid: number, graceMs: number): Promise<boolean> {
  if (recordedHostPid(home, cwd) !== pid) return !processAlive(pid);
  try {
    process.kill(pid, "SIGTERM");
    // A stopped host (SIGSTOP, Ctrl+Z) would hold the TERM until continued.
    process.kill(pid, "SIGCONT");
  } catch {
    return true;
  }
  if (await gone(pid, graceMs + 5_000)) return true;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    return true;
  }
  return gone(pid, 5_000);
}
