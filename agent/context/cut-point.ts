// Where a compaction splits the conversation: everything before the cut is summarised, everything
// from it on is kept word for word. The kept part is the newest messages worth about a token budget,
// and a cut never falls just before a tool result, so a tool call always stays with its result.
import type { Message } from "../messages.js";
import { estimateMessageTokens } from "./token-estimate.js";

/** A kept part may start at a user message or at an assistant message, never at a tool result. */
function isCutPoint(message: Message): boolean {
  return message.role !== "toolResult";
}

/**
 * The index of the first message to keep. Messages before `start` are not candidates (a previous
 * summary at index 0 is always folded into the new one). Returns `start` when the newest messages
 * within `keepTokens` are all there is: nothing to summarise.
 */
export function findCutPoint(messages: readonly Message[], start: number, keepTokens: number): number {
  let kept = 0;
  for (let i = messages.length - 1; i >= start; i--) {
    kept += estimateMessageTokens(messages[i]!);
    if (kept < keepTokens) continue;
    // The budget is reached inside message i: keep from the next turn boundary at or after it…
    for (let c = i; c < messages.length; c++) if (isCutPoint(messages[c]!)) return c;
    // …or, when the newest turn alone is larger than the budget, keep that turn whole.
    for (let c = i - 1; c >= start; c--) if (isCutPoint(messages[c]!)) return c;
    return start;
  }
  return start;
}
