// The lines one firing of a trigger will carry: every matching line since the last firing, each
// with up to 3 lines of context before and after (overlapping context merged, as grep -C does, and
// none of the lines the trigger's previous firing already showed), bounded: past a few matches only
// their count and line range are kept, and long lines are cut.
import type { FiredLine, LogLine, OmittedMatches } from "../events.js";

export const CONTEXT_LINES = 3;
/** Matching lines shown (each with its context) per firing; the rest are counted. */
export const MAX_SHOWN_MATCHES = 8;
/** A line longer than this is cut in a firing (the job's log keeps it whole). */
export const MAX_FIRED_LINE_CHARS = 300;

function cutLine(text: string): string {
  return text.length <= MAX_FIRED_LINE_CHARS ? text : `${text.slice(0, MAX_FIRED_LINE_CHARS - 1)}…`;
}

export class MatchBatch {
  readonly lines: FiredLine[] = [];
  /** Every matching line gathered, shown or not. */
  matches = 0;
  omitted: OmittedMatches | undefined;
  /** When the first match arrived, and when the batch last grew. */
  readonly startedAt: number;
  lastGrewAt: number;
  private shownMatches = 0;
  private afterWanted = 0;

  /** `shownUpTo`: the last line the trigger's previous firing showed (0: none), which context does not repeat. */
  constructor(
    now: number,
    private readonly shownUpTo = 0,
  ) {
    this.startedAt = now;
    this.lastGrewAt = now;
  }

  /** The last line shown so far, by this batch or the firing before it. */
  get lastLine(): number {
    return this.lines.length > 0 ? this.lines[this.lines.length - 1]!.n : this.shownUpTo;
  }

  /** A matching line, with the lines just before it (oldest first). */
  addMatch(line: LogLine, before: readonly LogLine[], now: number): void {
    this.matches++;
    this.lastGrewAt = now;
    if (this.shownMatches >= MAX_SHOWN_MATCHES) {
      this.omitted = this.omitted
        ? { count: this.omitted.count + 1, fromLine: this.omitted.fromLine, toLine: line.n }
        : { count: 1, fromLine: line.n, toLine: line.n };
      // Context shown after a match left out would read as if nothing matched there.
      this.afterWanted = 0;
      return;
    }
    // Inside the context of the previous match, it continues that block; otherwise its own context comes first.
    if (this.afterWanted === 0) {
      for (const context of before) if (context.n > this.lastLine && context.n < line.n) this.lines.push({ n: context.n, text: cutLine(context.text), match: false });
    }
    this.lines.push({ n: line.n, text: cutLine(line.text), match: true });
    this.shownMatches++;
    this.afterWanted = CONTEXT_LINES;
  }

  /** A line that did not match: kept when it is context after a shown match. */
  addOther(line: LogLine, now: number): void {
    if (this.afterWanted === 0) return;
    this.afterWanted--;
    this.lastGrewAt = now;
    this.lines.push({ n: line.n, text: cutLine(line.text), match: false });
  }

  /** Lines after the last shown match still wanted as its context. */
  get wantsContext(): boolean {
    return this.afterWanted > 0;
  }
}
