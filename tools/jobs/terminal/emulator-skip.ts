// Which queued output of a flooding job can never be seen, so its emulator need not parse it. A
// terminal keeps only its screen and scrollback: lines of plain text (nothing that changes the
// terminal's state but colours: no other escape sequence, no charset shift, no C1 control) followed
// by at least scrollback + 2 × rows more such line feeds are pushed out of both before anyone could
// look at them. Skipping them, then replaying the colours they left set (sgr-scan.ts), leaves the
// screen, the scrollback and what is written next exactly as parsing them would
// (test/jobs/emulator-skip.test.ts compares the two), and makes a flood cost the emulator only what
// it keeps. The plain-text log the model reads is written before the emulator and always gets everything.
import { cutSgrAt, hasC1Control, resetsAll, sgrChars, sgrEnd, sgrsBackwards } from "../log/sgr-scan.js";
import { countNewlines } from "../../output-cap.js";

/** One chunk waiting for the emulator, with what the skip decision needs to know about it. */
export interface QueuedOutput {
  text: string;
  /** Line feeds in the text. */
  newlines: number;
  /**
   * Nothing in it changes the terminal's state beyond the cursor, the cells it writes and their
   * colours: no escape sequence but complete SGRs, no SO/SI (charset shifts), no C1 control
   * (U+0080–U+009F, which xterm also takes as controls: U+009B is CSI, U+0088 sets a tab stop).
   * Other C0 controls (BEL, BS, HT, LF, VT, FF, CR…) only move the cursor or are ignored, once the
   * parser is between sequences.
   */
  plain: boolean;
  /** It holds SGR sequences (whose effect a skip must replay). */
  coloured: boolean;
  /**
   * Where it ends inside an SGR sequence that the next chunk may finish (the index of its ESC),
   * everything before being plain; else -1. A flood read 4 KB at a time cuts many colour
   * sequences in two, and each cut would otherwise end a run of skippable chunks.
   */
  cutSgr: number;
}

const NOT_PLAIN = { plain: false, coloured: false, cutSgr: -1 };

/**
 * The check runs on every chunk of a flood: the common cases are answered by native searches.
 * `colourChars`: sgrChars(text), when the caller has it.
 */
function classify(text: string, colourChars?: number): Pick<QueuedOutput, "plain" | "coloured" | "cutSgr"> {
  if (text.indexOf("\x0e") !== -1 || text.indexOf("\x0f") !== -1) return NOT_PLAIN;
  if (hasC1Control(text)) return NOT_PLAIN;
  const escapes = colourChars ?? sgrChars(text);
  if (escapes !== -1) return { plain: true, coloured: escapes > 0, cutSgr: -1 };
  const cut = cutSgrAt(text);
  return cut !== -1 && sgrChars(text, 0, cut) !== -1 ? { plain: false, coloured: true, cutSgr: cut } : NOT_PLAIN;
}

/**
 * The whole SGR sequence `entry` ends in the middle of, when `next` (plain, or plain up to a cut of
 * its own) finishes it; else undefined.
 */
function sequenceAcross(entry: QueuedOutput, next: QueuedOutput | undefined): string | undefined {
  if (entry.cutSgr === -1 || !next || !(next.plain || next.cutSgr !== -1)) return undefined;
  const tail = entry.text.slice(entry.cutSgr);
  const joined = tail + next.text.slice(0, 64);
  const after = sgrEnd(joined, 0);
  return after > tail.length ? joined.slice(0, after) : undefined;
}

/** Whether a run of skippable output goes on through queue[i]: it is plain, or its cut colour sequence is finished by the next chunk. */
function inRun(queue: readonly QueuedOutput[], i: number): boolean {
  const entry = queue[i]!;
  return entry.plain || sequenceAcross(entry, queue[i + 1]) !== undefined;
}

/** `newlines` and `colourChars` (sgrChars of the text), when the caller has them already. */
export function queuedOutput(text: string, newlines: number = countNewlines(text), colourChars?: number): QueuedOutput {
  return { text, newlines, ...classify(text, colourChars) };
}

export interface SkipContext {
  rows: number;
  scrollback: number;
  /** The emulator turns a bare LF into CR LF (pipe jobs). */
  convertEol: boolean;
  /** The view is at the bottom (a person reading the scrollback sees it parsed line by line). */
  following: boolean;
  /** No scroll region is set: every line feed at the bottom scrolls the whole screen. */
  fullScrollRegion: boolean;
  /** The parser is between sequences (not inside an OSC or DCS begun by earlier output). */
  parserInGround: boolean;
}

/** Where a skip ends: in `queue[chunk]`, before `offset` (right after a line end). */
export interface SkipEnd {
  chunk: number;
  offset: number;
}

/** How many plain line feeds must follow a skipped line for it to be pushed out of screen and scrollback. */
export function linesToPushOut(ctx: Pick<SkipContext, "rows" | "scrollback">): number {
  return ctx.scrollback + 2 * ctx.rows;
}

/**
 * For the run of plain chunks starting at `queue[head]`: the stretch that can be skipped, from right
 * after the first line end in the head chunk to right after a later line end (possibly chunks
 * further on) that enough plain lines follow; or undefined. Both ends are line ends (CR LF, or LF
 * when the emulator converts it), so the cursor is at column 0 on both sides whether or not the
 * stretch is parsed. One run can span many chunks, so a flood costs two parse calls a batch rather
 * than two a chunk.
 */
export function skippableRun(queue: readonly QueuedOutput[], head: number, ctx: SkipContext): { start: number; end: SkipEnd } | undefined {
  const first = queue[head];
  if (!first || !inRun(queue, head) || !ctx.following || !ctx.fullScrollRegion || !ctx.parserInGround || first.newlines === 0) return undefined;
  const eol = ctx.convertEol ? "\n" : "\r\n";
  const firstEol = first.text.indexOf(eol);
  if (firstEol === -1) return undefined;
  const start = firstEol + eol.length;
  // Line feeds from the start of the head chunk through the plain run.
  let total = 0;
  let runEnd = head;
  for (; runEnd < queue.length && inRun(queue, runEnd); runEnd++) total += queue[runEnd]!.newlines;
  // The skip ends after line feed number `k` (0-based from the head chunk's start) when `total - k - 1`
  // line feeds follow it. A line feed that is not a line end (a bare LF on a pty) moves the end back.
  const latest = total - linesToPushOut(ctx) - 1;
  for (let k = latest; k >= 0 && k > latest - 8; k--) {
    const end = lineFeedAt(queue, head, runEnd, k);
    if (!end) return undefined;
    const text = queue[end.chunk]!.text;
    const isLineEnd = ctx.convertEol || (end.offset > 0 && text.charCodeAt(end.offset - 1) === 0x0d);
    if (!isLineEnd) continue;
    if (end.chunk === head && end.offset + 1 <= start) return undefined;
    return { start, end: { chunk: end.chunk, offset: end.offset + 1 } };
  }
  return undefined;
}

/** The `k`-th line feed (0-based) in queue[head..runEnd), as a chunk index and the offset of the LF. */
function lineFeedAt(queue: readonly QueuedOutput[], head: number, runEnd: number, k: number): SkipEnd | undefined {
  let before = 0;
  for (let i = head; i < runEnd; i++) {
    const entry = queue[i]!;
    if (before + entry.newlines > k) {
      let at = entry.text.indexOf("\n");
      for (let n = before; n < k; n++) at = entry.text.indexOf("\n", at + 1);
      return { chunk: i, offset: at };
    }
    before += entry.newlines;
  }
  return undefined;
}

/**
 * The SGR sequences to replay after skipping queue[head] from `start` to `end`: each colour sequence
 * of the stretch once, in the order of its last appearance, or "" when it holds none. Replaying them
 * sets every attribute to the value the stretch last gave it: the last sequence to set an attribute
 * is the last appearance of its own text, and none replayed after it sets that attribute. The
 * stretch is read from its end back to its last full reset (sgr-scan.ts's resetsAll), since nothing
 * before that survives it: a coloured log line ends in one, so a skip reads a line, not the flood.
 */
export function skippedColours(queue: readonly QueuedOutput[], head: number, start: number, end: SkipEnd): string {
  const seen = new Set<string>();
  const lastFirst: string[] = [];
  const take = (sequence: string): boolean => {
    if (!seen.has(sequence)) {
      seen.add(sequence);
      lastFirst.push(sequence);
    }
    return resetsAll(sequence);
  };
  // The sequence queue[i] begins and queue[i + 1] finishes: found as the chunk after's `before`.
  let across: string | undefined;
  for (let i = end.chunk; i >= head; i--) {
    const entry = queue[i]!;
    // It comes after everything else in this chunk.
    if (across !== undefined && take(across)) break;
    const before = i > head ? crossing(queue, i - 1, head, start) : undefined;
    if (entry.coloured) {
      // The start of this chunk that finishes a sequence the chunk before began is taken with it.
      const from = i === head ? start : before === undefined ? 0 : before.length - (queue[i - 1]!.text.length - queue[i - 1]!.cutSgr);
      const to = i === end.chunk ? end.offset : entry.text.length;
      if (sgrsBackwards(entry.text, from, to, take)) break;
    }
    across = before;
  }
  return lastFirst.reverse().join("");
}

/** The whole SGR sequence that queue[i] begins inside the stretch (from `start` in the head chunk) and queue[i + 1] finishes, if any. */
function crossing(queue: readonly QueuedOutput[], i: number, head: number, start: number): string | undefined {
  const entry = queue[i]!;
  return entry.cutSgr !== -1 && entry.cutSgr >= (i === head ? start : 0) ? sequenceAcross(entry, queue[i + 1]) : undefined;
}
