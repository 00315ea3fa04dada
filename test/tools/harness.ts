// Shared test helpers for the tool specs: temp folders that clean themselves up, a one-line way to
// call a tool, polling with a deadline, and a look at the live processes of a group.
import { execFileSync } from "node:child_process";
import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Static, TSchema } from "@sinclair/typebox";
import { afterEach } from "vitest";
import type { AgentTool, ToolResult, ToolUpdate } from "../../tools/tool.js";

const made: string[] = [];

afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** A fresh folder under the system temp dir (real path, no symlinks), removed after the test. */
export async function makeTempDir(): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), "pitwall-tools-test-")));
  made.push(dir);
  return dir;
}

export interface CallOptions {
  signal?: AbortSignal;
  onUpdate?: (update: ToolUpdate) => void;
}

export function callTool<P extends TSchema, D>(
  tool: AgentTool<P, D>,
  params: Static<P>,
  options: CallOptions = {},
): Promise<ToolResult<D>> {
  return tool.execute(
    "call-1",
    params,
    options.signal ?? new AbortController().signal,
    options.onUpdate ?? (() => undefined),
    { yieldSignal: new AbortController().signal },
  );
}

/** Polls `condition` every 20 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
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

/** Live (non-zombie) processes from `ps -eo pid,pgid,stat,args`. */
export function liveProcesses(): PsRow[] {
  const out = execFileSync("ps", ["-eo", "pid,pgid,stat,args"], { encoding: "utf8" });
  return out
    .split("\n")
    .slice(1)
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), pgid: Number(match[2]), stat: match[3] ?? "", args: match[4] ?? "" }))
    .filter((row) => !row.stat.startsWith("Z"));
}

/** Live processes of the group led by `pgid`. */
export function liveGroupMembers(pgid: number): PsRow[] {
  return liveProcesses().filter((row) => row.pgid === pgid);
}
