// Folds what repeats in a run of log lines: the same line N times ("… ×240"), a block of 2–4 lines
// repeated (a poll loop, a request and its response), and lines that differ only in numbers or a
// progress bar (shown first and last, "… 48 similar lines"). Linear in the number of lines.

export type Segment =
  | { kind: "line"; index: number }
  /** lines[index] exactly, `count` times in a row. */
  | { kind: "repeat"; index: number; count: number }
  /** lines[index … index+period) exactly, `reps` times in a row. */
  | { kind: "block"; index: number; period: number; reps: number }
  /** lines[from … to] (inclusive) share a similarity key: at least 3 of them. */
  | { kind: "similar"; from: number; to: number };

const MAX_PERIOD = 4;
const MIN_BLOCK_REPS = 3;
const MIN_SIMILAR = 3;

export interface FoldOptions {
  /** Fold lines that are only similar (false inside a stack trace, where each frame matters). */
  similar: boolean;
  /** The similarity key of line i. */
  key(i: number): string;
}

/** Segments covering lines[from … to), in order. */
export function foldLines(lines: readonly string[], from: number, to: number, options: FoldOptions): Segment[] {
  const segments: Segment[] = [];
  let i = from;
  while (i < to) {
    let j = i + 1;
    while (j < to && lines[j] === lines[i]) j++;
    if (j - i >= 2) {
      segments.push({ kind: "repeat", index: i, count: j - i });
      i = j;
      continue;
    }
    const block = repeatedBlock(lines, i, to);
    if (block) {
      segments.push({ kind: "block", index: i, ...block });
      i += block.period * block.reps;
      continue;
    }
    if (options.similar) {
      const key = options.key(i);
      j = i + 1;
      while (j < to && options.key(j) === key) j++;
      if (j - i >= MIN_SIMILAR) {
        segments.push({ kind: "similar", from: i, to: j - 1 });
        i = j;
        continue;
      }
    }
    segments.push({ kind: "line", index: i });
    i++;
  }
  return segments;
}

/** The block of 2–4 lines starting at `i` that repeats most often (at least 3 times), covering the most lines. */
function repeatedBlock(lines: readonly string[], i: number, to: number): { period: number; reps: number } | undefined {
  let best: { period: number; reps: number } | undefined;
  for (let period = 2; period <= MAX_PERIOD && i + period * MIN_BLOCK_REPS <= to; period++) {
    let reps = 1;
    while (i + (reps + 1) * period <= to && sameBlock(lines, i, i + reps * period, period)) reps++;
    if (reps >= MIN_BLOCK_REPS && (!best || reps * period > best.reps * best.period)) best = { period, reps };
  }
  return best;
}

function sameBlock(lines: readonly string[], a: number, b: number, period: number): boolean {
  for (let k = 0; k < period; k++) if (lines[a + k] !== lines[b + k]) return false;
  return true;
}

/** How many lines a segment stands for. */
export function segmentLength(segment: Segment): number {
  switch (segment.kind) {
    case "line":
      return 1;
    case "repeat":
      return segment.count;
    case "block":
      return segment.period * segment.reps;
    case "similar":
      return segment.to - segment.from + 1;
  }
}
