// Carries out watch triggers' actions where the Agent lives. The job registry (or the job host)
// only publishes `job_triggered` events; here each becomes what its trigger asked for: a notice the
// model reads with its next request (notify), a steering message (steer), a follow-up, or a run of
// its own when the agent is idle (wake). Triggers the person sets or removes are told to the model
// too, so it knows why lines may arrive. Front ends show the same events their own way.
import { firingText } from "../tools/jobs/watch/firing-text.js";
import { patternLabel, type TriggerInfo } from "../tools/jobs/watch/trigger-spec.js";
import type { JobTriggeredEvent } from "../tools/jobs/watch/watch-events.js";
import type { Agent } from "./agent.js";
import type { EventBus } from "./event-bus.js";
import type { PitwallEvent } from "./events.js";
import type { TriggeredBy } from "./messages.js";

/** Subscribes the agent to trigger events on `bus`; returns the unsubscribe. */
export function deliverJobTriggers(bus: EventBus<PitwallEvent>, agent: Agent): () => void {
  return bus.subscribe((event) => {
    if (event.type === "job_triggered") deliver(agent, event);
    else if (event.type === "job_triggers_changed" && event.by === "user") {
      for (const trigger of event.added ? [event.added] : []) agent.notify(`The person set watch trigger ${trigger.id} on job ${event.jobId}: ${triggerSentence(trigger)}`);
      for (const trigger of event.removed ?? []) agent.notify(`The person removed watch trigger ${trigger.id} (${patternLabel(trigger)}) from job ${event.jobId}.`);
    }
  });
}

function deliver(agent: Agent, firing: JobTriggeredEvent): void {
  const text = firingText(firing);
  const { trigger } = firing;
  if (trigger.action === "notify") {
    agent.notify(text);
    return;
  }
  const by: TriggeredBy = {
    jobId: firing.jobId,
    triggerId: trigger.id,
    pattern: trigger.pattern,
    ignoreCase: trigger.ignoreCase,
    action: trigger.action,
    setBy: trigger.setBy,
  };
  agent.deliverTriggered(text, by);
}

/** "/FAIL/ → wake: lines of its output that match start a turn with them when you are idle." */
function triggerSentence(trigger: TriggerInfo): string {
  const what: Record<TriggerInfo["action"], string> = {
    notify: "you are told of matching lines with your next request",
    steer: "matching lines come to you as a steering message",
    "follow-up": "matching lines come to you as a follow-up when you would stop",
    wake: "matching lines start a turn when you are idle, or steer you when you are busy",
  };
  return `${patternLabel(trigger)} → ${trigger.action}: ${what[trigger.action]} (at most every ${Math.round(trigger.debounceMs / 1000)}s).`;
}
