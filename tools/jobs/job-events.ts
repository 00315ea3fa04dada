// Events the job registry publishes, all named `job_*`: a job belongs to the registry, not to the
// tool call that may have started it. The agent layer folds them into its one event union; panes,
// the session writer and JSON mode see them on the same bus as the agent's own events. The watch
// triggers' events (`job_triggers_changed`, `job_triggered`) are declared in watch/watch-events.ts.
import type { WatchEvent } from "./watch/watch-events.js";

export type JobStatus = "running" | "exited" | "killed";
export type JobStarter = "agent" | "user";
export type JobStream = "stdout" | "stderr" | "pty";

/** A plain snapshot of one job, safe to serialise. */
export interface JobInfo {
  /** Short and typeable: "1", "2", … */
  id: string;
  command: string;
  cwd: string;
  pid: number;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt?: number;
  status: JobStatus;
  /** Set when status is "exited". */
  exitCode?: number;
  /** Set when status is "killed": the signal's name, e.g. "SIGTERM". */
  signal?: string;
  /** Who started the job first; a restart keeps it. */
  startedBy: JobStarter;
  /** Who ran it again under the same id, when it was restarted. */
  restartedBy?: JobStarter;
  /** Who asked for it to stop, if anyone did: an exit nobody asked for is news. */
  stopRequestedBy?: JobStarter;
  stdinMode: "pty" | "pipe";
  /** How many times it was restarted under the same id. */
  restarts: number;
  /** The bash_stream call that started it, so a pane can show the job's terminal for that call. */
  toolCallId?: string;
}

export type JobEvent =
  | { type: "job_started"; job: JobInfo }
  /** Raw output as the job wrote it (escape codes included), in chunks of at most 8 KiB. */
  | { type: "job_output"; jobId: string; stream: JobStream; chunk: string }
  /** A bash_stream call returned (yielded) while its job runs on: `toolCallId` is that call. */
  | {
      type: "job_yielded";
      toolCallId: string;
      jobId: string;
      pid: number;
      startedAt: number;
      /** The last lines of plain-text output. */
      tail: string;
    }
  | { type: "job_exited"; job: JobInfo }
  | { type: "job_removed"; jobId: string }
  | WatchEvent;
