// Carries out watch triggers' actions where the Agent lives. The job registry (or the job host)
// publishes `job_triggered` events; a trigger that steers, sends a follow-up or wakes the agent is
// carried out here, its message marked with the trigger that sent it. (A `notify` trigger's firing,
// like the triggers the person sets, reaches the model with the registry's notices.)
import { firingMessage } from "../tools/jobs/index.js";
import type { Agent } from "./agent.js";
import type { EventBus } from "./event-bus.js";
import type { PitwallEvent } from "./events.js";
import type { Redact } from "./secret-redaction.js";

/** Subscribes the agent to trigger firings on `bus` (their lines redacted); returns the unsubscribe. */
export function deliverJobTriggers(bus: EventBus<PitwallEvent>, agent: Agent, redact: Redact = (text) => text): () => void {
  return bus.subscribe((event) => {
    if (event.type !== "job_triggered") return;
    const { trigger } = event;
    if (trigger.action === "notify") return;
    const message = firingMessage(event);
    agent.deliverTriggered({ ...message, text: redact(message.text) }, {
      jobId: event.jobId,
      triggerId: trigger.id,
      pattern: trigger.pattern,
      ignoreCase: trigger.ignoreCase,
      action: trigger.action,
      setBy: trigger.setBy,
    });
  });
}
