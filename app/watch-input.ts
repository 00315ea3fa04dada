// What the person types to set a watch trigger (after `/watch <id>`, or in the jobs pane's prompt):
// a pattern, optionally followed by the action. The pattern may contain spaces; a last word that
// names an action is the action.
import { isWatchAction, WATCH_ACTIONS, type WatchAction } from "../tools/jobs/index.js";

/** The person's triggers wake the agent unless they say otherwise: the point of a watch is that nobody has to poll. */
export const DEFAULT_PERSON_ACTION: WatchAction = "wake";

export function parseWatchInput(text: string): { pattern: string; action: WatchAction } | { problem: string } {
  const trimmed = text.trim();
  const last = /\s(\S+)$/.exec(trimmed);
  const action = last && isWatchAction(last[1]!.toLowerCase()) ? (last[1]!.toLowerCase() as WatchAction) : undefined;
  const pattern = action ? trimmed.slice(0, last!.index).trim() : trimmed;
  if (!pattern) return { problem: `Give a pattern to watch for, then optionally an action (${WATCH_ACTIONS.join(", ")}; ${DEFAULT_PERSON_ACTION} by default), e.g. FAIL|Error steer.` };
  return { pattern, action: action ?? DEFAULT_PERSON_ACTION };
}

/** What each action does, as the person reads it. */
export const ACTION_MEANING: Record<WatchAction, string> = {
  notify: "matching lines show here and in the status bar; the agent hears them with its next request",
  steer: "matching lines reach the agent as a steering message",
  "follow-up": "matching lines reach the agent as a follow-up when it would stop",
  wake: "matching lines start a turn when the agent is idle and steer it when it is busy",
};
