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

/**
 * For the chunk at `queue[head]`: the span [start, end) of its text that can be skipped, or
 * undefined. The span is whole lines: it starts right after a line end and ends with one (CR LF,
 * or LF when the emulator converts it), so the cursor is at column 0 on both sides of it whether or
 * not it is parsed; and the plain chunks after it hold enough line feeds to push it out.
 */
export function skippableSpan(queue: readonly QueuedOutput[], head: number, ctx: SkipContext): [number, number] | undefined {
  const chunk = queue[head];
  if (!chunk || !chunk.plain || !ctx.following || !ctx.fullScrollRegion || !ctx.parserInGround || chunk.newlines < 2) return undefined;
  const needed = ctx.scrollback + 2 * ctx.rows;
  let after = 0;
  for (let i = head + 1; i < queue.length && after < needed; i++) {
    const next = queue[i]!;
    if (!next.plain) break;
    after += next.newlines;
  }
  if (after < needed) return undefined;
  const eol = ctx.convertEol ? "\n" : "\r\n";
  const first = chunk.text.indexOf(eol);
  const last = chunk.text.lastIndexOf(eol);
  if (first === -1 || last <= first) return undefined;
  return [first + eol.length, last + eol.length];
}
