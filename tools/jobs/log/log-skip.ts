// Which stretch of a flood the plain-text log may count instead of reading. The log keeps its last
// lines; lines that enough later lines will push out are only counted (their number and length),
// never cut, stored or scanned for escapes. That holds when the stretch is whole lines of text
// that only prints and ends lines: no escape sequence but complete colour sequences (SGR, which the
// log drops; any other could leave the state machine mid sequence), no vertical tab or form feed
// (which end lines too), no backspace or bare carriage return (which rewrite a line, so its length
// is not its characters), and no line longer than the log wraps (colours included). Other
// invisible controls (BEL, NUL…), which the log drops, are counted as characters: the total is then
// a few characters high, and the line count still exact.
import { hasC1Control, sgrChars } from "./sgr-scan.js";

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
 * For text[from, end), which starts at a line start and ends right after a line feed: its lines and
 * characters when it can be counted instead of read, or undefined. `lines`, the stretch's line
 * feeds, saves a pass when the caller counted them and knows no line is longer than maxLineChars.
 */
export function countableLines(text: string, from: number, end: number, maxLineChars: number, lines?: number): SkippedLines | undefined {
  if (end <= from || text.charCodeAt(end - 1) !== 0x0a) return undefined;
  if (has(text, "\x0b", from, end) || has(text, "\x0c", from, end) || has(text, "\b", from, end) || has(text, "\x7f", from, end)) return undefined;
  const colours = has(text, "\x1b", from, end) ? sgrChars(text, from, end) : 0;
  if (colours === -1) return undefined;
  let lineCount = lines;
  if (lineCount === undefined) {
    lineCount = 0;
    let lineStart = from;
    for (let lf = text.indexOf("\n", from); lf !== -1 && lf < end; lf = text.indexOf("\n", lf + 1)) {
      if (lf - lineStart > maxLineChars) return undefined;
      lineCount++;
      lineStart = lf + 1;
    }
  }
  // Every carriage return must end its line (CR LF); a bare one rewrites the line.
  let cr = 0;
  for (let at = text.indexOf("\r", from); at !== -1 && at < end; at = text.indexOf("\r", at + 1)) {
    if (text.charCodeAt(at + 1) !== 0x0a) return undefined;
    cr++;
  }
  if (hasC1Control(text.slice(from, end))) return undefined;
  return { lines: lineCount, chars: end - from - cr - colours };
}
