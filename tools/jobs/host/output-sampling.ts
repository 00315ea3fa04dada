// Job output for a "sampled" client of the job host (a dashboard): enough for its tool pane and an
// "unseen output" mark, without a flood costing it a message per chunk (see OUTPUT_SAMPLE_MS).
import type { JobEvent, JobStream } from "../events.js";

type OutputEvent = Extract<JobEvent, { type: "job_output" }>;

/**
 * A "sampled" client (a dashboard) gets a job's output at most this often, what came in between
 * held and sent at the end of the interval, or before the job's exit: the output of a call its
 * tool pane shows must end with the job's last lines.
 */
const OUTPUT_SAMPLE_MS = 250;
/** What is held for a sampled client, per job: the newest output, from a line start. */
const HELD_OUTPUT_CHARS = 16 * 1024;

/** Output held back from a sampled client: its chunks in order, the oldest dropped once the rest fill the hold. */
interface HeldOutput {
  stream: JobStream;
  chunks: string[];
  chars: number;
  timer: NodeJS.Timeout;
  /** The offset just past the newest held chunk, when the events carry offsets. */
  end: number | undefined;
}

/** The newest HELD_OUTPUT_CHARS of held output, from a line start where there is one. */
function newestOutput(text: string): string {
  if (text.length <= HELD_OUTPUT_CHARS) return text;
  const cut = text.length - HELD_OUTPUT_CHARS;
  const lineStart = text.indexOf("\n", cut);
  return text.slice(lineStart === -1 ? cut : lineStart + 1);
}

/** One sampled client's output: what it was last sent, and what is held, by job. */
export class OutputSampler {
  private readonly lastOutput = new Map<string, number>();
  /** Output held back, by job, until its interval ends or the job exits. */
  private readonly heldOutput = new Map<string, HeldOutput>();

  /** Contract: `send` delivers one job_output event to the client (or drops it if the client went). */
  constructor(private readonly send: (event: OutputEvent) => void) {}

  /**
   * Sends a job's output: at once if the interval since the last has passed, else held (the newest
   * HELD_OUTPUT_CHARS of it) and sent when it has.
   */
  sample(event: OutputEvent, now: number): void {
    let previous = this.heldOutput.get(event.jobId);
    if (previous && previous.stream !== event.stream) {
      this.flush(event.jobId);
      previous = undefined;
    }
    const waited = now - (this.lastOutput.get(event.jobId) ?? -Infinity);
    if (waited >= OUTPUT_SAMPLE_MS && !previous) {
      this.lastOutput.set(event.jobId, now);
      this.send(event);
      return;
    }
    const held = previous ?? { stream: event.stream, chunks: [], chars: 0, end: undefined, timer: setTimeout(() => this.flush(event.jobId), Math.max(0, OUTPUT_SAMPLE_MS - waited)) };
    held.chunks.push(event.chunk);
    held.end = event.offset !== undefined ? event.offset + event.chunk.length : undefined;
    held.chars += event.chunk.length;
    // A flood: only its newest HELD_OUTPUT_CHARS are sent, so older chunks go as they fall out.
    while (held.chunks.length > 1 && held.chars - held.chunks[0]!.length >= HELD_OUTPUT_CHARS) held.chars -= held.chunks.shift()!.length;
    this.heldOutput.set(event.jobId, held);
  }

  /** Sends what is held of a job's output now (before its exit, or at the end of its interval). */
  flush(jobId: string): void {
    const held = this.heldOutput.get(jobId);
    if (!held) return;
    clearTimeout(held.timer);
    this.heldOutput.delete(jobId);
    this.lastOutput.set(jobId, Date.now());
    const chunk = newestOutput(held.chunks.join(""));
    this.send({ type: "job_output", jobId, stream: held.stream, chunk, ...(held.end !== undefined ? { offset: held.end - chunk.length } : {}) });
  }

  /** The client went: nothing held is sent. */
  drop(): void {
    for (const held of this.heldOutput.values()) clearTimeout(held.timer);
    this.heldOutput.clear();
  }
}
