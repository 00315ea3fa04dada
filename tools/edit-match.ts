// Finding `old_string` in a file for the edit tool. Matching happens in a normalised view of the
// file that maps every character back to its span in the original, so a replacement changes only the
// bytes it matched:
// 1. Line endings: CRLF and LF are the same for matching, in both directions; each match is written
//    back with the line ending it had in the file.
// 2. If that finds nothing, pi's normalisations: trailing whitespace, curly quotes, Unicode dashes,
//    non-breaking and other Unicode spaces, compatibility forms (fullwidth letters, ligatures). The
//    result names the ones that were needed.
// Occurrences are counted in the same view, so a CRLF copy and an LF copy of a block are two.

export type LineEnding = "\r\n" | "\n";

/** One place to replace: original offsets [start, end) and the line ending to write there. */
export interface EditMatch {
  start: number;
  end: number;
  eol: LineEnding;
}

export interface MatchResult {
  matches: EditMatch[];
  /** Names of the normalisations the match needed beyond line endings; empty for an exact match. */
  normalisations: string[];
}

interface Normalisation {
  name: string;
  /** Rewrites one segment (a character with its combining marks). */
  segment?: (text: string) => string;
}

const NORMALISATIONS: Normalisation[] = [
  { name: "Unicode compatibility forms (fullwidth, ligatures)", segment: (s) => s.normalize("NFKC") },
  { name: "trailing whitespace" },
  { name: "curly quotes", segment: (s) => s.replace(/[\u2018\u2019\u201A\u201B]/g, "'").replace(/[\u201C\u201D\u201E\u201F]/g, '"') },
  { name: "Unicode dashes", segment: (s) => s.replace(/[\u2010-\u2015\u2212]/g, "-") },
  { name: "non-breaking and other Unicode spaces", segment: (s) => s.replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ") },
];
const TRAILING_WHITESPACE = "trailing whitespace";

/** Text as matched, with each UTF-16 unit's original span [start[i], end[i]). */
interface View {
  text: string;
  start: number[];
  end: number[];
}

// A CRLF pair, or one code point with the combining marks that follow it (NFKC composes them).
const SEGMENT = /\r\n|[^]\p{M}*/gu;

/** The view of `text` under `kinds` (names from NORMALISATIONS); CRLF always reads as LF. */
function viewOf(text: string, kinds: readonly Normalisation[]): View {
  const units: string[] = [];
  const start: number[] = [];
  const end: number[] = [];
  for (const m of text.matchAll(SEGMENT)) {
    let s = m[0];
    if (s === "\r\n") s = "\n";
    else for (const kind of kinds) if (kind.segment) s = kind.segment(s);
    const from = m.index;
    const to = from + m[0].length;
    for (const unit of s) {
      for (let k = 0; k < unit.length; k++) {
        units.push(unit[k]!);
        start.push(from);
        end.push(to);
      }
    }
  }
  if (kinds.some((kind) => kind.name === TRAILING_WHITESPACE)) dropTrailingWhitespace(units, start, end);
  return { text: units.join(""), start, end };
}

/** Removes whitespace units that end a line (before a LF or at the end), keeping the maps aligned. */
function dropTrailingWhitespace(units: string[], start: number[], end: number[]): void {
  let atLineEnd = true;
  for (let i = units.length - 1; i >= 0; i--) {
    const unit = units[i]!;
    if (unit === "\n") atLineEnd = true;
    else if (atLineEnd && /\s/.test(unit)) {
      units.splice(i, 1);
      start.splice(i, 1);
      end.splice(i, 1);
    } else atLineEnd = false;
  }
}

/** CRLF when most line breaks in `text` are CRLF; LF otherwise (including text with no breaks). */
function detectLineEnding(text: string): LineEnding {
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
function findOccurrences(haystack: string, needle: string): number[] {
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

/**
 * The line ending a match is written back with: the one inside it, else the one ending its line,
 * else (the last line of the file) the file's usual one.
 */
function lineEndingAt(text: string, start: number, end: number, fileEol: LineEnding): LineEnding {
  const inside = text.slice(start, end);
  if (inside.includes("\r\n")) return "\r\n";
  if (inside.includes("\n")) return "\n";
  const next = text.indexOf("\n", end);
  if (next === -1) return fileEol;
  return next > 0 && text[next - 1] === "\r" ? "\r\n" : "\n";
}

function matchesIn(text: string, view: View, needle: string): EditMatch[] {
  const fileEol = detectLineEnding(text);
  return findOccurrences(view.text, needle).map((index) => {
    const start = view.start[index]!;
    const end = view.end[index + needle.length - 1]!;
    return { start, end, eol: lineEndingAt(text, start, end, fileEol) };
  });
}

/**
 * Every occurrence of `needle` in `text`: exact up to line endings first, then (unless `normalise`
 * is false) normalised.
 */
export function findMatches(text: string, needle: string, normalise = true): MatchResult {
  const exact = matchesIn(text, viewOf(text, []), withLineEnding(needle, "\n"));
  if (exact.length > 0 || !normalise) return { matches: exact, normalisations: [] };
  const fuzzyNeedle = viewOf(withLineEnding(needle, "\n"), NORMALISATIONS).text;
  if (fuzzyNeedle.length === 0) return { matches: [], normalisations: [] };
  const matches = matchesIn(text, viewOf(text, NORMALISATIONS), fuzzyNeedle);
  if (matches.length === 0) return { matches, normalisations: [] };
  return { matches, normalisations: normalisationsNeeded(text, matches, needle) };
}

/**
 * A smallest set of normalisations that still explains every match: each is dropped in turn when the
 * matches hold without it (NFKC goes first, since it overlaps the others).
 */
function normalisationsNeeded(text: string, matches: EditMatch[], needle: string): string[] {
  let kept = [...NORMALISATIONS];
  for (const kind of NORMALISATIONS) {
    const without = kept.filter((k) => k !== kind);
    const wanted = viewOf(withLineEnding(needle, "\n"), without).text;
    if (matches.every((m) => viewOf(text.slice(m.start, m.end), without).text === wanted)) kept = without;
  }
  return kept.map((kind) => kind.name);
}

/** `text` with each match replaced by `replacement`, written with that match's line ending. */
export function applyMatches(text: string, matches: readonly EditMatch[], replacement: string): string {
  const parts: string[] = [];
  let from = 0;
  for (const match of matches) {
    parts.push(text.slice(from, match.start), withLineEnding(replacement, match.eol));
    from = match.end;
  }
  parts.push(text.slice(from));
  return parts.join("");
}
