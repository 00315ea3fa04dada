// What the agent is told, with its next request, about watch triggers it did not act on itself: a
// `notify` trigger's firing, and the triggers the person sets or removes (so it knows why lines may
// arrive). They go with the registry's other notices, so the model reads them in the order they
// happened ("the person started job 2", then "the person set a trigger on job 2").
import type { JobNotices } from "./job-notices.js";
import { UNOWNED } from "./notice-board.js";
import { patternLabel } from "../watch/trigger-spec.js";
import type { TriggerInfo, WatchEvent } from "../events.js";

/**
 * Records a watch event's notices for the agent it is for: the client's that set the trigger (or
 * that owns the job). A job left running without one keeps even a firing that asked to steer or
 * wake, as a notice for the next client to take it over.
 */
export function recordForOwner(event: WatchEvent, jobOwner: string | undefined, noticesOf: (owner: string) => JobNotices): void {
  const owner = (event.type === "job_triggered" ? event.trigger.owner : undefined) ?? jobOwner ?? UNOWNED;
  recordWatchNotices(event, noticesOf(owner));
  if (owner === UNOWNED && event.type === "job_triggered" && event.trigger.action !== "notify") noticesOf(UNOWNED).triggerFired(event);
}

/** Records the notices one watch event calls for (none for most). */
export function recordWatchNotices(event: WatchEvent, notices: JobNotices): void {
  if (event.type === "job_triggered") {
    if (event.trigger.action === "notify") notices.triggerFired(event);
    return;
  }
  if (event.by !== "person") return;
  if (event.added) notices.personAction(`The person set watch trigger ${event.added.id} on job ${event.jobId}: ${triggerSentence(event.added)}`);
  for (const t of event.removed ?? []) notices.personAction(`The person removed watch trigger ${t.id} (${patternLabel(t)}) from job ${event.jobId}.`);
}

// The chat shows these notices to the person too, so they name no one "you".
const ACTION_FOR_MODEL: Record<TriggerInfo["action"], string> = {
  notify: "matching lines are told with the next request",
  steer: "matching lines arrive as a steering message",
  "follow-up": "matching lines arrive as a follow-up when the turn would end",
  wake: "matching lines start a turn when the agent is idle, or steer the turn in progress",
};

function triggerSentence(trigger: TriggerInfo): string {
  return `${patternLabel(trigger)} → ${trigger.action}: ${ACTION_FOR_MODEL[trigger.action]} (at most every ${Math.round(trigger.debounceMs / 1000)}s).`;
}
