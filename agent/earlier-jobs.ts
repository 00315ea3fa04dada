// A resumed session's jobs: the conversation remembers background jobs that pitwall ended when it
// quit, and job ids start again at 1 in the new run. From the messages (the job tools' results, and
// the notices about the person's jobs and about exits) this finds the jobs last known to be running,
// so the model can be told they are gone before it polls or kills a job that no longer exists.
import { personJobAction } from "../tools/jobs/index.js";
import { toolCallsOf, type Message } from "./messages.js";

export interface EarlierJob {
  id: string;
  command?: string;
}

/** The first words of the resume notice: a later resume starts counting from there. */
const NOTICE_START = "pitwall was restarted";

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** The jobs the conversation last knew as running, in the order they started. */
export function earlierRunningJobs(messages: readonly Message[]): EarlierJob[] {
  const commands = new Map<string, string>();
  const running = new Map<string, EarlierJob>();
  for (const m of messages) {
    if (m.role === "assistant") {
      for (const call of toolCallsOf(m)) if (call.name === "bash_stream" && typeof call.arguments.command === "string") commands.set(call.id, call.arguments.command);
    } else if (m.role === "toolResult") {
      const details = record(m.details);
      if (typeof details.jobId !== "string" || typeof details.status !== "string") continue;
      const command = m.toolName === "bash_stream" ? commands.get(m.toolCallId) : running.get(details.jobId)?.command;
      if (details.status === "running") running.set(details.jobId, { id: details.jobId, ...(command !== undefined ? { command } : {}) });
      else running.delete(details.jobId);
    } else if (m.role === "user" && m.origin === "notice") {
      for (const line of m.content.split("\n")) {
        if (line.startsWith(NOTICE_START)) running.clear();
        const action = personJobAction(line);
        if (!action) continue;
        if (action.running) running.set(action.id, { id: action.id, ...(action.command !== undefined ? { command: action.command } : {}) });
        else running.delete(action.id);
      }
    }
  }
  return [...running.values()];
}

function describe(job: EarlierJob): string {
  return job.command === undefined ? `job ${job.id}` : `job ${job.id} (${job.command.length > 80 ? `${job.command.slice(0, 79)}…` : job.command})`;
}

/** What the model is told when a session with jobs still running is resumed; undefined when there were none. */
export function earlierJobsNotice(jobs: readonly EarlierJob[], options: { idsContinue?: boolean } = {}): string | undefined {
  if (jobs.length === 0) return undefined;
  const ids = options.idsContinue
    ? "Job ids go on from the jobs still running (list_processes shows them), so those ids are not used again"
    : "Job ids start again at 1, so those ids now mean nothing or another job";
  return `${NOTICE_START}: the background jobs of the earlier run ended when it quit (${jobs.map(describe).join(", ")}). ${ids}; start again with bash_stream what is still needed.`;
}
