// Which queued output of a flooding job can never be seen, so its emulator need not parse it. A
// terminal keeps only its screen and scrollback: lines of plain text (nothing that changes the
// terminal's state: no escape sequence, no charset shift, no C1 control) followed by at least
// scrollback + 2 × rows more plain line feeds are pushed out of both before anyone could look at
// them. Skipping them leaves the screen and the
// scrollback exactly as parsing them would (test/jobs/emulator-skip.test.ts compares the two), and
// makes a flood cost the emulator only what it keeps. The plain-text log the model reads is written
// before the emulator and always gets everything.

/** One chunk waiting for the emulator, with what the skip decision needs to know about it. */
export interface QueuedOutput {
  text: string;
  /** Line feeds in the text. */
  newlines: number;
  /**
   * Nothing in it changes the terminal's state beyond the cursor and the cells it writes: no ESC, no
   * SO/SI (charset shifts), no C1 control (U+0080–U+009F, which xterm also takes as controls: U+009B
   * is CSI, U+0088 sets a tab stop). Other C0 controls (BEL, BS, HT, LF, VT, FF, CR…) only move the
   * cursor or are ignored, once the parser is between sequences.
   */
  plain: boolean;
}

const C1 = /[\x80-\x9f]/;

/** The check runs on every chunk of a flood: the common cases are answered by native searches. */
function isPlain(text: string): boolean {
  if (text.indexOf("\x1b") !== -1 || text.indexOf("\x0e") !== -1 || text.indexOf("\x0f") !== -1) return false;
  // Pure ASCII has no C1 control; only other text needs the (slower) scan.
  return Buffer.byteLength(text, "utf8") === text.length || !C1.test(text);
}

export function queuedOutput(text: string): QueuedOutput {
  let newlines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) newlines++;
  return { text, newlines, plain: isPlain(text) };
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
  if (!first || !first.plain || !ctx.following || !ctx.fullScrollRegion || !ctx.parserInGround || first.newlines === 0) return undefined;
  const eol = ctx.convertEol ? "\n" : "\r\n";
  const firstEol = first.text.indexOf(eol);
  if (firstEol === -1) return undefined;
  const start = firstEol + eol.length;
  // Line feeds from the start of the head chunk through the plain run.
  let total = 0;
  let runEnd = head;
  for (; runEnd < queue.length && queue[runEnd]!.plain; runEnd++) total += queue[runEnd]!.newlines;
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
