// When edit finds no match, this says where the nearest text is and what differs, and claims only
// what it checked: "differs only in whitespace" when the file holds old_string with nothing but
// whitespace changed; otherwise the longest start (or end) of old_string that the file does hold,
// and the first characters where the two part ways, with invisible characters spelled out.
import { lineNumberAt, withLineEnding } from "./edit-match.js";

const PREVIEW_LINES = 12;
/** A quoted line is cut here (a minified file is one enormous line). */
const PREVIEW_LINE_CHARS = 500;
const DIVERGENCE_CHARS = 40;
/** A shared start or end shorter than this many non-space characters is a coincidence, not a lead. */
const MIN_SHARED_CHARS = 4;

/** `text` as a quoted string with control characters and invisible spaces escaped. */
export function visible(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u00a0\u00ad\u2000-\u200f\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A pattern that matches `needle` with any whitespace changed: runs of whitespace (line breaks
 * included) may differ, appear or vanish between characters; whitespace at the needle's ends must
 * meet whitespace or a line boundary in the file.
 */
function whitespaceInsensitive(needle: string): RegExp | undefined {
  const body = needle.trim();
  if (body === "") return undefined;
  const chars = [...body].filter((c) => !/\s/.test(c)).map(escapeRegExp);
  const lead = /^\s/.test(needle) ? "(?<=^|\\s)" : "";
  const trail = /\s$/.test(needle) ? "(?=\\s|$)" : "";
  return new RegExp(`${lead}${chars.join("\\s*")}${trail}`, "m");
}

function numberedLines(text: string, firstLine: number, count: number): string {
  return text
    .split("\n")
    .slice(firstLine - 1, firstLine - 1 + Math.min(count, PREVIEW_LINES))
    .map((line, k) => `${String(firstLine + k).padStart(6)}\t${line.length > PREVIEW_LINE_CHARS ? `${visible(line.slice(0, PREVIEW_LINE_CHARS))}… [line truncated: ${line.length} chars]` : visible(line)}`)
    .join("\n");
}

/** Length of the longest start of `needle` that occurs in `text` (binary search: starts nest). */
function longestSharedStart(text: string, needle: string): number {
  let low = 0;
  let high = needle.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (text.includes(needle.slice(0, mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

function longestSharedEnd(text: string, needle: string): number {
  let low = 0;
  let high = needle.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (text.includes(needle.slice(needle.length - mid))) low = mid;
    else high = mid - 1;
  }
  return low;
}

function upToLineEnd(text: string): string {
  const cut = text.slice(0, DIVERGENCE_CHARS);
  const lf = cut.indexOf("\n");
  return lf === -1 ? cut : cut.slice(0, lf + 1);
}

function backToLineStart(text: string): string {
  const cut = text.slice(Math.max(0, text.length - DIVERGENCE_CHARS));
  const lf = cut.lastIndexOf("\n", cut.length - 2);
  return lf === -1 ? cut : cut.slice(lf + 1);
}

function significant(text: string): number {
  return text.replace(/\s/g, "").length;
}

/** The sentence (or paragraph) to add to "old_string was not found in <file>". */
export function describeNearMiss(fileText: string, oldString: string): string {
  const text = withLineEnding(fileText, "\n");
  const needle = withLineEnding(oldString, "\n");
  const lineCount = needle.split("\n").length;

  const loose = whitespaceInsensitive(needle);
  const near = loose?.exec(text);
  if (near) {
    const line = lineNumberAt(text, near.index);
    return (
      ` It nearly matches at line ${line}: the text there differs from old_string only in whitespace ` +
      `(indentation, tabs vs spaces, spaces inside lines or line breaks). The file has:\n` +
      `${numberedLines(text, line, lineCount)}\nCopy old_string exactly from these lines (they are quoted to show every character) and try again.`
    );
  }

  const start = longestSharedStart(text, needle);
  const end = longestSharedEnd(text, needle);
  if (Math.max(significant(needle.slice(0, start)), significant(needle.slice(needle.length - end))) >= MIN_SHARED_CHARS) {
    if (start >= end) {
      const at = text.indexOf(needle.slice(0, start)) + start;
      const line = lineNumberAt(text, at);
      return (
        ` The file has the first ${start} of old_string's ${needle.length} characters (up to line ${line}); from there the ` +
        `file goes on with ${visible(upToLineEnd(text.slice(at)))} where old_string has ${visible(upToLineEnd(needle.slice(start)))}. ` +
        `The file around there:\n${numberedLines(text, Math.max(1, line - 1), 3)}\nRead those lines again and copy old_string exactly.`
      );
    }
    const from = text.indexOf(needle.slice(needle.length - end));
    const line = lineNumberAt(text, from);
    return (
      ` The file has the last ${end} of old_string's ${needle.length} characters (from line ${line}); just before ` +
      `them the file has ${visible(backToLineStart(text.slice(0, from)))} where old_string has ` +
      `${visible(backToLineStart(needle.slice(0, needle.length - end)))}. The file around there:\n` +
      `${numberedLines(text, Math.max(1, line - 1), 3)}\nRead those lines again and copy old_string exactly.`
    );
  }
  return " Read the file again and copy the text you want to replace.";
}
