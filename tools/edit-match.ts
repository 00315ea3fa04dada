// Finding `old_string` in a file for the edit tool: line-ending adaptation, counting occurrences,
// and, when there is no exact match, spotting a place that differs only in whitespace so the error
// can point the model at it.

export type LineEnding = "\r\n" | "\n";

/** CRLF when most line breaks in `text` are CRLF; LF otherwise (including text with no breaks). */
export function detectLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text[i - 1] === "\r") crlf++;
    else lf++;
  }
  return crlf > lf ? "\r\n" : "\n";
}

/** `text` with every line break (LF or CRLF) written as `eol`. */
export function withLineEnding(text: string, eol: LineEnding): string {
  return text.replace(/\r?\n/g, eol);
}

/** Start indices of the non-overlapping occurrences of `needle`, left to right. */
export function findOccurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  if (needle.length === 0) return found;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** 1-based line number of the character at `index`. */
export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** `text` with the occurrences at `indices` (each `length` long) replaced by `replacement`, verbatim. */
export function replaceAt(text: string, indices: readonly number[], length: number, replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const index of indices) {
    parts.push(text.slice(from, index), replacement);
    from = index + length;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

/** Runs of spaces and tabs become one space; leading and trailing whitespace goes. */
function squash(line: string): string {
  return line.replace(/[ \t]+/g, " ").trim();
}

/**
 * The 1-based line where `needle` would match `text` if differences in whitespace (indentation,
 * tabs vs spaces, runs of spaces, trailing spaces, CRLF vs LF) did not count; undefined when there is
 * no such place. The needle's first and last lines may be partial lines, as in an exact match.
 */
export function findWhitespaceNearMatch(text: string, needle: string): number | undefined {
  const lines = text.split(/\r?\n/).map(squash);
  const wanted = needle.split(/\r?\n/).map(squash);
  if (wanted.every((line) => line === "")) return undefined;
  if (wanted.length === 1) {
    const only = wanted[0] ?? "";
    const index = lines.findIndex((line) => line.includes(only));
    return index === -1 ? undefined : index + 1;
  }
  const first = wanted[0] ?? "";
  const last = wanted[wanted.length - 1] ?? "";
  for (let start = 0; start + wanted.length <= lines.length; start++) {
    if (!(lines[start] ?? "").endsWith(first)) continue;
    let matches = true;
    for (let k = 1; k < wanted.length - 1 && matches; k++) matches = lines[start + k] === wanted[k];
    if (matches && (lines[start + wanted.length - 1] ?? "").startsWith(last)) return start + 1;
  }
  return undefined;
}
