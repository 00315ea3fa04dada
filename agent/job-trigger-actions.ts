// Carries out watch triggers' actions where the Agent lives. The job registry (or the job host)
// publishes `job_triggered` events; a trigger that steers, sends a follow-up or wakes the agent is
// carried out here, its message marked with the trigger that sent it. (A `notify` trigger's firing,
// like the triggers the person sets, reaches the model with the registry's notices.)
//
// It listens to the job service itself, after the service's events were forwarded to the bus: the
// `job_triggered` has reached every front end before the wake's `agent_start` or the steer's
// `queue_update` that it causes, so the cause comes before its effect everywhere.
import { firingMessage, type JobService } from "../tools/jobs/index.js";
import type { Agent } from "./agent.js";
import type { Redact } from "./secret-redaction.js";

/**
 * Subscribes the agent to trigger firings of `jobs` (their lines redacted); returns the unsubscribe.
 * Contract: call it after the service's events are forwarded to the bus (createCodingAgent does).
 */
export function deliverJobTriggers(jobs: Pick<JobService, "subscribe">, agent: Agent, redact: Redact = (text) => text): () => void {
  return jobs.subscribe((event) => {
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
