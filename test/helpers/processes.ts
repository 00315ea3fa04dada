// What is left running on the machine, for tests that check no process of a job outlives pitwall.
// Zombies (ps state Z) are ignored: PID 1 here does not reap them, and they hold nothing.
import { execFileSync } from "node:child_process";

/** Live processes whose full command line contains `needle`. */
export function liveProcesses(needle: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "")
    .filter((l) => {
      const [, stat = "", ...args] = l.split(/\s+/);
      return !stat.startsWith("Z") && args.join(" ").includes(needle);
    });
}

/** Polls `check` until it is true, or throws after `timeoutMs` naming `what`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
