// Patterns the model gives (grep's, bash_stream's readyPattern, watch triggers) run on RE2 (the pure-JS re2js port):
// matching takes time linear in the text whatever the pattern, so `(a+)+$` on a long line of a's
// cannot freeze the event loop the way a backtracking engine does. The price: no lookaround and no
// backreferences, which the error says. JavaScript's \uXXXX and \u{…} escapes are accepted.
// A pure-JS engine is used rather than a worker with a deadline because the same matcher can then
// run on every line of a job's output as it arrives (cheap, synchronous, never stuck).
import { RE2JS } from "re2js";

/** Tests one line (or any text) for a match. RegExp has the same shape. */
export interface LineMatcher {
  test(text: string): boolean;
}

export class PatternError extends Error {}

export interface PatternOptions {
  ignoreCase?: boolean;
  /** The pattern is plain text. */
  literal?: boolean;
  /** ^ and $ also match at each line's start and end, for a text of many lines tested at once. */
  multiline?: boolean;
  /** What the error tells the caller to do instead, per problem; a search's advice by default. */
  advice?: PatternAdvice;
}

/** The next step an error message offers for each kind of pattern RE2 refuses. */
export interface PatternAdvice {
  lookaround: string;
  backreference: string;
  syntax: string;
}

const SEARCH_ADVICE: PatternAdvice = {
  lookaround: "Search for the main part without the assertion and narrow the lines with a second search, or use bash (grep -P) for it.",
  backreference: "Search without it, or use bash (grep -E) for it.",
  syntax: "Escape the special characters, or pass literal: true to search for the text as written.",
};

/** JavaScript escapes RE2 spells differently: \uXXXX and \u{X…} become \x{…}. */
function fromJavaScriptSyntax(source: string): string {
  return source.replace(/\\\\|\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (match, braced: string | undefined, four: string | undefined) =>
    match === "\\\\" ? match : `\\x{${braced ?? four}}`,
  );
}

function explain(source: string, message: string, advice: PatternAdvice): string {
  const detail = message.replace(/^error parsing regexp: /, "");
  if (/\(\?[=!]|\(\?<[=!]/.test(source) || /`\(\?[=!<]/.test(detail)) {
    return `The pattern ${JSON.stringify(source)} uses lookahead or lookbehind, which is not supported: patterns run on RE2 (linear time, so no pattern can hang the search). ${advice.lookaround}`;
  }
  if (/invalid escape sequence: `\\[1-9k]/.test(detail)) {
    return `The pattern ${JSON.stringify(source)} uses a backreference, which is not supported: patterns run on RE2 (linear time, so no pattern can hang the search). ${advice.backreference}`;
  }
  return `The pattern ${JSON.stringify(source)} is not a valid regular expression (${detail}). Patterns use RE2 syntax, which is JavaScript's without lookaround and backreferences. ${advice.syntax}`;
}

/** Compiles a pattern for linear-time matching; throws a PatternError whose message says what to do. */
export function compileSearchPattern(source: string, options: PatternOptions = {}): LineMatcher {
  const flags = (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (options.multiline ? RE2JS.MULTILINE : 0);
  try {
    const re = RE2JS.compile(options.literal ? RE2JS.quote(source) : fromJavaScriptSyntax(source), flags);
    return { test: (text) => re.test(text) };
  } catch (error) {
    throw new PatternError(explain(source, error instanceof Error ? error.message : String(error), options.advice ?? SEARCH_ADVICE));
  }
}
