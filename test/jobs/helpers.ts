// Shared by the job tests: waiting on conditions with a deadline (never fixed sleeps), and asking
// `ps` which processes of given groups are still alive.
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallContext } from "../../tools/tool.js";

export async function waitFor(condition: () => boolean, timeoutMs = 15_000, what = "a condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export interface PsRow {
  pid: number;
  pgid: number;
  stat: string;
  args: string;
}

export function ps(): PsRow[] {
  const out = execFileSync("ps", ["-eo", "pid,pgid,stat,args"], { encoding: "utf8" });
  return out
    .split("\n")
    .slice(1)
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m): m is RegExpMatchArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), pgid: Number(m[2]), stat: m[3]!, args: m[4]! }));
}

/** Live (non-zombie) processes in any of the given process groups. */
export function survivors(pgids: number[]): PsRow[] {
  const groups = new Set(pgids);
  return ps().filter((row) => groups.has(row.pgid) && !row.stat.startsWith("Z"));
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "pitwall-jobs-"));
}

export function callContext(yieldSignal: AbortSignal = new AbortController().signal): ToolCallContext {
  return { yieldSignal };
}

export const neverAborted = (): AbortSignal => new AbortController().signal;
