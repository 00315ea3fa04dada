// Which stretch of a flood the plain-text log may count instead of reading. The log keeps its last
// lines; lines that enough later lines will push out are only counted (their number and length),
// never cut, stored or scanned for escapes. That holds when the stretch is whole lines of text
// that only prints and ends lines: no escape sequence but complete colour sequences (SGR, which the
// log drops; any other could leave the state machine mid sequence), no vertical tab or form feed
// (which end lines too), no backspace or bare carriage return (which rewrite a line, so its length
// is not its characters), and no line longer than the log wraps (colours included). Other
// invisible controls (BEL, NUL…), which the log drops, are counted as characters: the total is then
// a few characters high, and the line count still exact.
import { cutSgrAt, hasC1Control, sgrChars, sgrEnd } from "./sgr-scan.js";

/** Characters of the next chunk looked at to finish a colour sequence cut by a chunk's end: longer ones are read. */
const MAX_CUT_SGR_TAIL = 64;

/** What a skipped stretch adds to the log's totals. */
export interface SkippedLines {
  /** Lines completed in it. */
  lines: number;
  /** Characters of plain text, a newline per line included (carriage returns are not). */
  chars: number;
}

/** True when `text` has `char` in [from, end). */
function has(text: string, char: string, from: number, end: number): boolean {
  const at = text.indexOf(char, from);
  return at !== -1 && at < end;
}

/**
 * A stretch of output that runs over consecutive chunks, as the log keeps them: from `from` in
 * chunks[first] to `end` (exclusive) in chunks[last]. Counting a run where it lies spares joining
 * its chunks into one string, which in a flood cost as much as reading the output in the first place.
 */
export interface ChunkRun {
  chunks: readonly string[];
  first: number;
  from: number;
  last: number;
  end: number;
  /** Each chunk's sgrChars over its whole text, where the writer scanned it already. */
  colourChars?: ReadonlyArray<number | undefined>;
}

/**
 * For text[from, end), which starts at a line start and ends right after a line feed: its lines and
 * characters when it can be counted instead of read, or undefined. `lines`, the stretch's line
 * feeds, saves a pass when the caller counted them and knows no line is longer than maxLineChars.
 */
export function countableLines(text: string, from: number, end: number, maxLineChars: number, lines?: number): SkippedLines | undefined {
  return countableRun({ chunks: [text], first: 0, from, last: 0, end }, maxLineChars, lines);
}

/**
 * countableLines over a run of chunks. A colour sequence cut in two by a chunk's end makes the run
 * not countable (as an unfinished escape does in one text): the caller then reads it instead.
 */
export function countableRun(run: ChunkRun, maxLineChars: number, lines?: number): SkippedLines | undefined {
  const { chunks, first, from, last, end } = run;
  if (last < first || (last === first && end <= from) || chunks[last]!.charCodeAt(end - 1) !== 0x0a) return undefined;
  let chars = 0;
  let lineCount = 0;
  /** The line under way's characters in the chunks before this one (a line runs over chunks). */
  let carried = 0;
  /** Characters at this chunk's start that end a colour sequence the chunk before began (counted there). */
  let finished = 0;
  for (let i = first; i <= last; i++) {
    const text = chunks[i]!;
    const a = i === first ? from : finished;
    const b = i === last ? end : text.length;
    carried += finished;
    if (has(text, "\x0b", a, b) || has(text, "\x0c", a, b) || has(text, "\b", a, b) || has(text, "\x7f", a, b)) return undefined;
    // The writer's scan of the whole chunk holds for [a, b) when that is all of it but the end of a
    // sequence the chunk before began (no escape there). Every escape of it is then a whole colour
    // sequence, so none is cut by the chunk's end.
    const known = run.colourChars?.[i];
    const scanned = known !== undefined && known !== -1 && b === text.length && (i !== first || from === 0);
    // A colour sequence that this chunk begins and the next ends: whole, it counts here.
    // (lastIndexOf is a slow scan in V8: only a chunk with an escape in it is searched backwards.)
    const escapes = scanned ? known > 0 : has(text, "\x1b", a, b);
    const cut = escapes && !scanned && i < last ? cutSgrAt(text) : -1;
    finished = 0;
    if (cut !== -1) {
      const whole = sgrEnd(text.slice(cut) + chunks[i + 1]!.slice(0, MAX_CUT_SGR_TAIL), 0);
      if (whole <= text.length - cut) return undefined;
      finished = whole - (text.length - cut);
    }
    const colourEnd = cut === -1 ? b : cut;
    const colours = !escapes ? 0 : scanned ? known : sgrChars(text, a, colourEnd);
    if (colours === -1) return undefined;
    if (lines === undefined) {
      let lineStart = a;
      for (let lf = text.indexOf("\n", a); lf !== -1 && lf < b; lf = text.indexOf("\n", lf + 1)) {
        if (carried + lf - lineStart > maxLineChars) return undefined;
        lineCount++;
        carried = 0;
        lineStart = lf + 1;
      }
      carried += b - lineStart;
    }
    // Every carriage return must end its line (CR LF, the LF perhaps in the next chunk); a bare one rewrites the line.
    let cr = 0;
    for (let at = text.indexOf("\r", a); at !== -1 && at < b; at = text.indexOf("\r", at + 1)) {
      const next = at + 1 < text.length ? text.charCodeAt(at + 1) : chunks[i + 1]?.charCodeAt(0);
      if (next !== 0x0a) return undefined;
      cr++;
    }
    if (hasC1Control(a === 0 && b === text.length ? text : text.slice(a, b))) return undefined;
    chars += b - a - cr - colours - (cut === -1 ? 0 : text.length - cut);
  }
  return { lines: lines ?? lineCount, chars };
}
