// Caps text shown to the model: keeps the head and the tail, and says how much was left out, so a
// command that prints a million lines costs the model the same as one that printed a page. Caps are
// in characters and, since a character can take four bytes, in bytes too: no result for the model
// passes 50 KB unless the person raised the character cap above it.
//
// One cap owns each result. The tool runner's backstop (agent/tool-runner.ts) cuts any result past
// `byteCapFor`; a tool that cuts its own output cuts its body to `bodyByteCapFor` instead and keeps
// what it says around the body (headers, next steps) within NOTICE_ROOM_BYTES, so the backstop never
// cuts a result a second time: a second cut would drop lines from the middle of a result whose own
// notice claims a contiguous range.

export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;
export const HARD_MAX_OUTPUT_CHARS = 150_000;
/** The byte cap of one tool result, as pi has it. */
export const MAX_RESULT_BYTES = 50 * 1024;

/** The byte cap that goes with a character cap: 50 KB, or the character cap when the person set it higher. */
export function byteCapFor(maxChars: number): number {
  return Math.max(MAX_RESULT_BYTES, maxChars);
}

/** What a tool may say around the body it cut (a header, notes, the next step), in bytes. */
export const NOTICE_ROOM_BYTES = 2 * 1024;

/** The bytes a tool's own cut body may take: the result's cap less the room for its notices. */
export function bodyByteCapFor(maxChars: number): number {
  return byteCapFor(maxChars) - NOTICE_ROOM_BYTES;
}

/** A next call a notice spells out is at most this long; a longer one (a huge pattern) is named by what changes. */
export const MAX_QUOTED_CALL = 400;

/** `text` cut to at most `maxChars` characters, with "…" at the cut: for names and arguments quoted in a notice. */
export function quoteCap(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 1)}…`;
}

/**
 * A cut made by characters (`cut`, given a character budget), shrunk until its text fits
 * `maxBytes` too: for cuts that keep whole lines or join parts, where cutting the result again by
 * bytes would make its own omission marker wrong.
 */
export function withinBytes<T extends { text: string }>(maxChars: number, maxBytes: number, cut: (chars: number) => T): T {
  let chars = maxChars;
  let result = cut(chars);
  let bytes = Buffer.byteLength(result.text);
  while (bytes > maxBytes && chars > 0) {
    chars = Math.max(0, Math.min(chars - 1, Math.floor((chars * maxBytes) / bytes) - 64));
    result = cut(chars);
    bytes = Buffer.byteLength(result.text);
  }
  return result;
}

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

export function countNewlines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/**
 * The lines a left-out part of the output touches, whole or partly: one per newline in it, and one
 * more when it ends inside a line. Cut at line ends, "3\n4\n" is two lines, not three.
 */
export function omittedLineCount(newlines: number, endsAtLineEnd: boolean): number {
  return newlines + (endsAtLineEnd ? 0 : 1);
}

function linesIn(omitted: string): number {
  return omitted.length === 0 ? 0 : omittedLineCount(countNewlines(omitted), omitted.endsWith("\n"));
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
 * errors are), cutting at line boundaries when one is near, with a marker line in between. The
 * result is within `maxChars` characters and `maxBytes` bytes of UTF-8: by default a tool's body,
 * leaving room for what the tool says around it.
 */
export function capOutput(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS, maxBytes: number = bodyByteCapFor(maxChars)): CappedOutput {
  const byChars = capChars(text, maxChars);
  return Buffer.byteLength(byChars.text) <= maxBytes ? byChars : capBytes(text, maxBytes);
}

function capChars(text: string, maxChars: number): CappedOutput {
  const totalChars = text.length;
  if (totalChars <= maxChars) {
    return { text, truncated: false, omittedChars: 0, omittedLines: 0, totalChars };
  }
  const budgets = headTailBudgets(maxChars);
  const headEnd = headCutIndex(text, budgets.head);
  const tailStart = tailCutIndex(text, budgets.tail);
  const omitted = text.slice(headEnd, tailStart);
  const omittedChars = omitted.length;
  const omittedLines = linesIn(omitted);
  return {
    text: joinWithOmission(text.slice(0, headEnd), text.slice(tailStart), omittedChars, omittedLines),
    truncated: true,
    omittedChars,
    omittedLines,
    totalChars,
  };
}

/** The marker line's room, so head + marker + tail stays within the cap. */
const MARKER_BYTES = 80;

/** Moves a byte offset back to the start of the UTF-8 character it falls in. */
function charStart(buffer: Buffer, offset: number): number {
  let i = offset;
  while (i > 0 && (buffer[i]! & 0xc0) === 0x80) i--;
  return i;
}

/** Head and tail by bytes, cut at line ends when one is near and never inside a character. */
export function capBytes(text: string, maxBytes: number): CappedOutput {
  const buffer = Buffer.from(text, "utf8");
  if (buffer.length <= maxBytes) return { text, truncated: false, omittedChars: 0, omittedLines: 0, totalChars: text.length };
  const budgets = headTailBudgets(Math.max(0, maxBytes - MARKER_BYTES));
  let headEnd = charStart(buffer, budgets.head);
  const newline = buffer.lastIndexOf(0x0a, headEnd - 1);
  if (newline > budgets.head * 0.5) headEnd = newline + 1;
  let tailStart = buffer.length - budgets.tail;
  while (tailStart < buffer.length && (buffer[tailStart]! & 0xc0) === 0x80) tailStart++;
  const next = buffer.indexOf(0x0a, tailStart);
  if (next !== -1 && next < tailStart + budgets.tail * 0.5) tailStart = next + 1;
  const omitted = buffer.subarray(headEnd, tailStart).toString("utf8");
  return {
    text: joinWithOmission(buffer.subarray(0, headEnd).toString("utf8"), buffer.subarray(tailStart).toString("utf8"), omitted.length, linesIn(omitted)),
    truncated: true,
    omittedChars: omitted.length,
    omittedLines: linesIn(omitted),
    totalChars: text.length,
  };
}

export interface HeadCut {
  text: string;
  truncated: boolean;
  /** Whole lines kept from the start. */
  shownLines: number;
  totalLines: number;
}

/** Whole lines from the start while they fit `maxBytes` (for listings, where the order matters). */
export function capHeadBytes(text: string, maxBytes: number): HeadCut {
  const lines = text.split("\n");
  if (Buffer.byteLength(text) <= maxBytes) return { text, truncated: false, shownLines: lines.length, totalLines: lines.length };
  let used = 0;
  let shown = 0;
  while (shown < lines.length) {
    const bytes = Buffer.byteLength(lines[shown]!) + 1;
    if (used + bytes > maxBytes) break;
    used += bytes;
    shown++;
  }
  return { text: lines.slice(0, shown).join("\n"), truncated: true, shownLines: shown, totalLines: lines.length };
}
