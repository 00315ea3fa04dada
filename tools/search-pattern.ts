// Patterns the model gives (grep's, bash_stream's readyPattern) run on RE2 (the pure-JS re2js port):
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
}

/** JavaScript escapes RE2 spells differently: \uXXXX and \u{X…} become \x{…}. */
function fromJavaScriptSyntax(source: string): string {
  return source.replace(/\\\\|\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (match, braced: string | undefined, four: string | undefined) =>
    match === "\\\\" ? match : `\\x{${braced ?? four}}`,
  );
}

function explain(source: string, message: string): string {
  const detail = message.replace(/^error parsing regexp: /, "");
  if (/\(\?[=!]|\(\?<[=!]/.test(source) || /`\(\?[=!<]/.test(detail)) {
    return `The pattern ${JSON.stringify(source)} uses lookahead or lookbehind, which is not supported: patterns run on RE2 (linear time, so no pattern can hang the search). Search for the main part without the assertion and narrow the lines with a second search, or use bash (grep -P) for it.`;
  }
  if (/invalid escape sequence: `\\[1-9k]/.test(detail)) {
    return `The pattern ${JSON.stringify(source)} uses a backreference, which is not supported: patterns run on RE2 (linear time, so no pattern can hang the search). Search without it, or use bash (grep -E) for it.`;
  }
  return `The pattern ${JSON.stringify(source)} is not a valid regular expression (${detail}). Patterns use RE2 syntax, which is JavaScript's without lookaround and backreferences. Escape the special characters, or pass literal: true to search for the text as written.`;
}

/** Compiles a pattern for linear-time matching; throws a PatternError whose message says what to do. */
export function compileSearchPattern(source: string, options: PatternOptions = {}): LineMatcher {
  const flags = options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    const re = RE2JS.compile(options.literal ? RE2JS.quote(source) : fromJavaScriptSyntax(source), flags);
    return { test: (text) => re.test(text) };
  } catch (error) {
    throw new PatternError(explain(source, error instanceof Error ? error.message : String(error)));
  }
}
