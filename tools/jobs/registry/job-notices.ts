// What the agent must hear about jobs without asking: a job that ended on its own (the server
// crashed), what the person did (to jobs from the pane, or a command of their own) and what watch
// triggers have to tell it (watch-notices.ts; a trigger's firings merge while they wait), in
// the order it happened. The registry records events as they happen; the agent layer drains them before each
// model request. Whether an exit still needs telling is decided at drain time: a tool call that
// delivered the final result in between makes it moot. The wording of the person's job actions is
// here once, with the reader that finds them again in a resumed conversation (agent/earlier-jobs.ts).
import type { Job } from "../process/job.js";
import { describeStatus, formatDuration, lastLines, runtime, shortCommand } from "../format.js";
import { firingMessage, MergedFirings } from "../watch/merged-firings.js";
import type { JobTriggeredEvent } from "../events.js";
import { fenceNoteForModel } from "../../sandbox/index.js";

const NOTICE_LAST_LINES = 8;
const NOTICE_MAX_CHARS = 2_000;

/** One notice for the model, and when what it tells happened (ms since the epoch): the agent puts it in time order with queued messages. */
export interface JobNotice {
  text: string;
  at: number;
}

type Pending = (
  | { kind: "exit"; job: Job }
  | { kind: "person"; text: string }
  | { kind: "typed"; job: Job }
  | { kind: "firing"; jobId: string; triggerId: number; firings: MergedFirings }
) & { at: number };

export class JobNotices {
  private pending: Pending[] = [];

  /** A job's process ended. Only exits nobody asked for are worth telling. */
  jobEnded(job: Job): void {
    if (job.stopRequestedBy === undefined) this.pending.push({ kind: "exit", job, at: Date.now() });
  }

  /** Something the person did (started, killed, restarted, removed a job; ran a command of their own). */
  personAction(text: string): void {
    this.pending.push({ kind: "person", text, at: Date.now() });
  }

  /** A `notify` trigger fired; a later firing of the same trigger before the drain merges into this one. */
  triggerFired(event: JobTriggeredEvent): void {
    const firing = firingMessage(event);
    const waiting = this.pending.find((p) => p.kind === "firing" && p.jobId === event.jobId && p.triggerId === event.trigger.id);
    if (waiting?.kind === "firing") waiting.firings.add(firing);
    else this.pending.push({ kind: "firing", jobId: event.jobId, triggerId: event.trigger.id, firings: new MergedFirings(firing, event.jobId, event.trigger.id), at: firing.at });
  }

  /** The person typed into a job; a burst of keystrokes is one notice, and what was typed is not repeated. */
  personTyped(job: Job): void {
    const last = this.pending[this.pending.length - 1];
    if (last?.kind === "typed" && last.job === job) return;
    this.pending.push({ kind: "typed", job, at: Date.now() });
  }

  /** The ids of jobs whose exit is still to be told. */
  pendingExits(): string[] {
    return this.pending.flatMap((entry) => (entry.kind === "exit" && !entry.job.finalDelivered ? [entry.job.id] : []));
  }

  /** Moves what `other` still had to tell into this queue (a client took over another's jobs). */
  take(other: JobNotices): void {
    this.pending = [...this.pending, ...other.pending].sort((a, b) => a.at - b.at);
    other.pending = [];
  }

  /** One notice per event since the last drain, oldest first, each with when it happened. */
  drain(): JobNotice[] {
    const pending = this.pending;
    this.pending = [];
    const notices: JobNotice[] = [];
    for (const entry of pending) {
      const { at } = entry;
      if (entry.kind === "person") notices.push({ text: entry.text, at });
      else if (entry.kind === "firing") notices.push({ text: entry.firings.text, at });
      else if (entry.kind === "typed") notices.push({ text: `The person typed into job ${entry.job.id} (${shortCommand(entry.job.command)}).`, at });
      else if (!entry.job.finalDelivered) {
        entry.job.finalDelivered = true;
        notices.push({ text: exitNotice(entry.job), at });
      }
    }
    return notices;
  }
}

/** The notices of the person's job actions. */
export const personActions = {
  started: (job: Job): string => `The person started job ${job.id}: ${shortCommand(job.command)}`,
  stopped: (job: Job): string => `The person stopped job ${job.id} (${shortCommand(job.command)}).`,
  restarted: (job: Job): string => `The person restarted job ${job.id}: ${shortCommand(job.command)}`,
  removed: (job: Job): string => `The person removed job ${job.id} (${shortCommand(job.command)}) from the list.`,
};

const RUNNING_ACTION = /^The person (?:started|restarted) job (\S+): (.*)$/;
const ENDING_ACTION = /^The person (?:stopped|removed) job (\S+) \(/;
const EXIT = /^Job (\S+) \(.*\)(?:, started by the person,)? (?:exited|killed) /;

/** A notice line about a job starting or ending (as worded here), read back from a conversation. */
export function personJobAction(line: string): { id: string; running: boolean; command?: string } | undefined {
  const running = RUNNING_ACTION.exec(line);
  if (running) return { id: running[1]!, running: true, command: running[2]! };
  const ending = ENDING_ACTION.exec(line) ?? EXIT.exec(line);
  return ending ? { id: ending[1]!, running: false } : undefined;
}

export function exitNotice(job: Job): string {
  const info = job.info;
  const who = job.startedBy === "person" ? ", started by the person," : "";
  const header = `Job ${job.id} (${shortCommand(job.command)})${who} ${describeStatus(info)} after ${formatDuration(runtime(info))}.`;
  const fenced = job.takeUntoldFenceHits();
  const fence = fenced.length > 0 ? `\n${fenceNoteForModel(fenced)}` : "";
  const lines = lastLines(job.log, NOTICE_LAST_LINES);
  if (lines.length === 0) return `${header} It printed nothing.${fence}`;
  let body = lines.join("\n");
  const room = NOTICE_MAX_CHARS - header.length - 20;
  if (body.length > room) body = "…" + body.slice(body.length - room);
  return `${header} Last lines:\n${body}${fence}`;
}
