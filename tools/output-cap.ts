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

/** The output cap in force: `PI_BASH_MAX_OUTPUT_CHARS` when it is a positive number, clamped to the hard max. */
export function maxOutputCharsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = Number(env.PI_BASH_MAX_OUTPUT_CHARS);
  if (!Number.isFinite(raw) || raw <= 0) return DEFAULT_MAX_OUTPUT_CHARS;
  return Math.min(Math.floor(raw), HARD_MAX_OUTPUT_CHARS);
}

function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
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
  const headBudget = Math.floor(maxChars * 0.4);
  const tailBudget = maxChars - headBudget;
  let headEnd = headBudget;
  const headNewline = text.lastIndexOf("\n", headBudget);
  if (headNewline > headBudget * 0.5) headEnd = headNewline + 1;
  let tailStart = totalChars - tailBudget;
  const tailNewline = text.indexOf("\n", tailStart);
  if (tailNewline !== -1 && tailNewline < tailStart + tailBudget * 0.5) tailStart = tailNewline + 1;
  const omitted = text.slice(headEnd, tailStart);
  const omittedChars = omitted.length;
  const omittedLines = countLines(omitted);
  const marker = `\n... [${omittedChars} characters, ${omittedLines} lines omitted] ...\n`;
  const head = text.slice(0, headEnd);
  return {
    text: (head.endsWith("\n") ? head.slice(0, -1) : head) + marker + text.slice(tailStart),
    truncated: true,
    omittedChars,
    omittedLines,
    totalChars,
  };
}
