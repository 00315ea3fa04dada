// Caps text shown to the model: keeps the head and the tail, and says how much was left out, so a
// command that prints a million lines costs the model the same as one that printed a page.

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
export const HARD_MAX_OUTPUT_CHARS = 150_000;

export interface CappedOutput {
  text: string;
  truncated: boolean;
  /** Characters of the original left out of `text`. */
  omittedChars: number;
  /** Lines of the original left out of `text` (whole or partial). */
  omittedLines: number;
  totalChars: number;
}

/** An output cap someone asked for, as a whole number of characters no larger than the hard max. */
export function fitOutputChars(value: number): number {
  return Math.min(Math.floor(value), HARD_MAX_OUTPUT_CHARS);
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** How `maxChars` is split: about 40 % for the head, the rest for the tail (where errors are). */
export function headTailBudgets(maxChars: number): { head: number; tail: number } {
  const head = Math.floor(maxChars * 0.4);
  return { head, tail: maxChars - head };
}

/** Where the kept head of `text` ends: at `budget`, or just after a newline in its second half. */
export function headCutIndex(text: string, budget: number): number {
  const newline = text.lastIndexOf("\n", budget);
  return newline > budget * 0.5 ? newline + 1 : budget;
}

/** Where the kept tail of `text` starts: `budget` from the end, or just after a newline soon after. */
export function tailCutIndex(text: string, budget: number): number {
  const start = text.length - budget;
  const newline = text.indexOf("\n", start);
  return newline !== -1 && newline < start + budget * 0.5 ? newline + 1 : start;
}

/** Head, marker line, tail: the shape of every capped output. */
export function joinWithOmission(head: string, tail: string, omittedChars: number, omittedLines: number): string {
  const marker = `\n... [${omittedChars} characters, ${omittedLines} lines omitted] ...\n`;
  return (head.endsWith("\n") ? head.slice(0, -1) : head) + marker + tail;
}

/**
 * Keeps about 40 % of the budget from the head and 60 % from the tail (the end of a log is where
 * errors are), cutting at line boundaries when one is near, with a marker line in between.
 */
export function capOutput(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS): CappedOutput {
  const totalChars = text.length;
  if (totalChars <= maxChars) {
    return { text, truncated: false, omittedChars: 0, omittedLines: 0, totalChars };
  }
  const budgets = headTailBudgets(maxChars);
  const headEnd = headCutIndex(text, budgets.head);
  const tailStart = tailCutIndex(text, budgets.tail);
  const omitted = text.slice(headEnd, tailStart);
  const omittedChars = omitted.length;
  const omittedLines = countLines(omitted);
  return {
    text: joinWithOmission(text.slice(0, headEnd), text.slice(tailStart), omittedChars, omittedLines),
    truncated: true,
    omittedChars,
    omittedLines,
    totalChars,
  };
}
