// The job hosts a test's pitwalls started: found by the host.pid files under a PITWALL_HOME (or a
// folder holding one as .pitwall), and ended by pid. Killing a host ends every job it has (its
// watchdog), so nothing a test started outlives the test file (setup.ts reaps every temp folder's).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pidAlive } from "./processes.js";

/** The pids recorded by the job hosts under `folder` (a PITWALL_HOME, or a HOME with .pitwall in it). */
export function jobHostPids(folder: string): number[] {
  const pids: number[] = [];
  for (const home of [folder, join(folder, ".pitwall")]) {
    let hosts: string[];
    try {
      hosts = readdirSync(join(home, "hosts"));
    } catch {
      continue;
    }
    for (const host of hosts) {
      try {
        const pid = Number(readFileSync(join(home, "hosts", host, "host.pid"), "utf8").trim());
        if (Number.isInteger(pid) && pid > 0) pids.push(pid);
      } catch {
        // No host there now.
      }
    }
  }
  return pids;
}

/** SIGKILLs every live job host under `folder` (their watchdogs end their jobs); returns their pids. */
export function reapJobHosts(folder: string): number[] {
  const pids = jobHostPids(folder).filter(pidAlive);
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}
