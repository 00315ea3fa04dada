// Shared test helpers for the tool specs: temp folders that clean themselves up, a one-line way to
// call a tool. Waiting and process checks are in test/helpers/.
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

