// The job events of watch triggers. They are plain JSON data, published on the registry's bus like
// every `job_*` event, so they reach the agent, the panes, the session's JSON mode and (later) the
// clients of the job host alike.
import type { JobStarter } from "../job-events.js";
import type { TriggerFiring } from "./trigger-set.js";
import type { TriggerInfo } from "./trigger-spec.js";

export type WatchEvent =
  /** Triggers of a job were added or removed: `triggers` is the whole list now. */
  | {
      type: "job_triggers_changed";
      jobId: string;
      triggers: TriggerInfo[];
      added?: TriggerInfo;
      removed?: TriggerInfo[];
      /** Who added or removed them; absent when they went with their job (removed from the list). */
      by?: JobStarter;
    }
  /** A trigger fired: what it matched, with context; the agent side carries out its action. */
  | ({ type: "job_triggered"; jobId: string; command: string } & TriggerFiring);

export type JobTriggeredEvent = Extract<WatchEvent, { type: "job_triggered" }>;
