// Shared by the job tests: temp folders and tool-call contexts. Waiting and process checks are in
// test/helpers/.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolCallContext } from "../../tools/tool.js";

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "pitwall-jobs-"));
}

export function callContext(yieldSignal: AbortSignal = new AbortController().signal): ToolCallContext {
  return { yieldSignal };
}

export const neverAborted = (): AbortSignal => new AbortController().signal;
