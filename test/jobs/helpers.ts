// Shared by the job tests: temp folders and tool-call contexts. Waiting and process checks are in
// test/helpers/.
import type { ToolCallContext } from "../../tools/tool.js";
import { tempDir as sharedTempDir } from "../helpers/temp-dir.js";

export function tempDir(): string {
  return sharedTempDir("jobs");
}

export function callContext(yieldSignal: AbortSignal = new AbortController().signal): ToolCallContext {
  return { yieldSignal };
}

export const neverAborted = (): AbortSignal => new AbortController().signal;

/** The texts of drained notices (each also carries when it happened). */
export function noticeTexts(notices: ReadonlyArray<{ text: string }>): string[] {
  return notices.map((notice) => notice.text);
}
