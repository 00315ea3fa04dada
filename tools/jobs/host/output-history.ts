// The newest job output the host keeps for clients whose link dropped: per job, its latest
// job_output events (up to HISTORY_CHARS of them), each with its offset. A remote client that comes
// back says, per job, the offset just past the last character it saw; it is sent what followed, in
// order, before anything new, and told how much was older than what is kept (the job's log still
// has its lines).
import type { JobEvent } from "../events.js";

type OutputEvent = Extract<JobEvent, { type: "job_output" }>;

/** Output kept per job for a reconnecting client. */
export const HISTORY_CHARS = 1024 * 1024;

interface Kept {
  events: OutputEvent[];
  chars: number;
}

export class OutputHistory {
  private readonly jobs = new Map<string, Kept>();

  constructor(private readonly limit: number = HISTORY_CHARS) {}

  /** Keeps an event (those without an offset cannot be resumed from, and are not kept). */
  record(event: JobEvent): void {
    if (event.type === "job_removed") {
      this.jobs.delete(event.jobId);
      return;
    }
    if (event.type !== "job_output" || event.offset === undefined) return;
    const kept = this.jobs.get(event.jobId) ?? { events: [], chars: 0 };
    kept.events.push(event);
    kept.chars += event.chunk.length;
    while (kept.events.length > 1 && kept.chars - kept.events[0]!.chunk.length >= this.limit) kept.chars -= kept.events.shift()!.chunk.length;
    this.jobs.set(event.jobId, kept);
  }

  /** What job `id` printed from `offset` on, and how many characters after it are no longer kept. */
  since(id: string, offset: number): { events: OutputEvent[]; missed: number } {
    const kept = this.jobs.get(id);
    if (!kept || kept.events.length === 0) return { events: [], missed: 0 };
    const first = kept.events[0]!.offset ?? 0;
    const missed = Math.max(0, first - offset);
    const events: OutputEvent[] = [];
    for (const event of kept.events) {
      const start = event.offset ?? 0;
      const end = start + event.chunk.length;
      if (end <= offset) continue;
      events.push(start >= offset ? event : { ...event, chunk: event.chunk.slice(offset - start), offset });
    }
    return { events, missed };
  }
}
