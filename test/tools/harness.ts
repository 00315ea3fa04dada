// Shared test helpers for the tool specs: a temp folder (the shared fixture, test/helpers/temp-dir.ts),
// a one-line way to call a tool. Waiting and process checks are in test/helpers/.
import type { Static, TSchema } from "@sinclair/typebox";
import type { AgentTool, ToolResult, ToolUpdate } from "../../tools/tool.js";
import { tempDir } from "../helpers/temp-dir.js";

/** A fresh folder under the system temp dir (real path, no symlinks), removed when the test file ends. */
export async function makeTempDir(): Promise<string> {
  return tempDir("tools");
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

