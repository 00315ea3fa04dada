// Firings of one trigger that wait to be read (a queued steer or follow-up, a notice, while the
// agent is idle or in a long tool call) merge into one message: the first firing and the latest one
// whole, those in between counted with the lines they cover. A test watcher that stays red for an
// hour while nobody is there thus leaves one message for the model, not 360 of them.
import { firingText } from "./firing-text.js";
import type { JobTriggeredEvent } from "../events.js";

/** One firing as the model reads it, the log lines it covers, and when it fired (ms since the epoch). */
export interface FiringMessage {
  text: string;
  fromLine: number;
  toLine: number;
  at: number;
}

export function firingMessage(event: JobTriggeredEvent): FiringMessage {
  const numbers = event.lines.map((line) => line.n);
  return {
    at: event.firedAt,
    text: firingText(event),
    fromLine: Math.min(...numbers, event.omitted?.fromLine ?? Infinity),
    toLine: Math.max(...numbers, event.omitted?.toLine ?? 0),
  };
}

export class MergedFirings {
  private latest: FiringMessage | undefined;
  /** Firings between the first and the latest: how many, and the lines they cover (unknown across a restart). */
  private between = { count: 0, fromLine: 0, toLine: 0, known: true };

  constructor(
    private readonly first: FiringMessage,
    private readonly jobId: string,
    private readonly triggerId: number,
  ) {}

  add(next: FiringMessage): void {
    const previous = this.latest;
    if (previous) {
      const b = this.between;
      if (b.count === 0) b.fromLine = previous.fromLine;
      // A restart numbers the lines from 1 again: the range would point at the wrong lines.
      else if (previous.fromLine < b.toLine) b.known = false;
      b.toLine = previous.toLine;
      b.count++;
    }
    this.latest = next;
  }

  /** How many firings this message stands for. */
  get firings(): number {
    return 1 + this.between.count + (this.latest ? 1 : 0);
  }

  get text(): string {
    if (!this.latest) return this.first.text;
    const b = this.between;
    const skipped =
      b.count === 0
        ? ""
        : ` The ${b.count} between are left out${b.known ? ` (lines ${b.fromLine}–${b.toLine}: get_process_log with jobId "${this.jobId}" and offset ${b.fromLine} reads them)` : ""}.`;
    const note = `[Trigger ${this.triggerId} fired ${this.firings} times before this message was read: the first firing is above, the latest below.${skipped}]`;
    return [this.first.text, note, this.latest.text].join("\n");
  }
}
