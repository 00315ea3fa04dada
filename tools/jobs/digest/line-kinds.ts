// What a log line is, for a digest: an error, a warning or neither (by the words CI logs use, not
// fooled by "0 errors" or a passing test whose name says "error"), and the key under which lines
// that differ only in numbers, ids or a progress bar count as the same line. Fixed patterns that
// stay linear on long lines.

export type LineKind = "error" | "warning";

const ERROR = /\b(?:errors?|fail(?:s|ed|ing|ures?)?|fatal|panic(?:ked)?|exceptions?|traceback|uncaught|unhandled|segmentation fault|core dumped)\b|\bERR!|[✗✖✘❌]/i;
const NOT_ERROR = /\b(?:0|no|zero|without)\s+(?:errors?|failures?|fail(?:s|ed)?|exceptions?)\b|\b(?:errors?|failures?|failed)\s*[:=]\s*0\b/gi;
const WARNING = /\b(?:warn(?:ing|ings|s)?|deprecat(?:ed|ion))\b|⚠/i;
const NOT_WARNING = /\b(?:0|no|zero)\s+warn(?:ing)?s?\b|\bwarn(?:ing)?s?\s*[:=]\s*0\b/gi;
/** A line that reports success ("✓ handles errors", "PASS src/error.test.ts") is not a problem. */
const PASSED = /^\s*(?:[✓✔√]|PASS\b|ok\b)/;

export function lineKind(line: string): LineKind | undefined {
  if (PASSED.test(line)) return undefined;
  if (ERROR.test(line) && ERROR.test(line.replace(NOT_ERROR, ""))) return "error";
  if (WARNING.test(line) && WARNING.test(line.replace(NOT_WARNING, ""))) return "warning";
  return undefined;
}

/**
 * Lines with the same key are the same message: numbers, long hex ids, progress bars and runs of
 * spaces do not count ("downloading 12%" and "downloading 57%", "GET /u/1 200 3ms" and "GET /u/9 200 8ms").
 */
export function similarityKey(line: string): string {
  return line
    .replace(/\[[=#>\-.\s█▉▊▋▌▍▎▏░▒▓■□]*\]/g, "[~]")
    .replace(/[█▉▊▋▌▍▎▏░▒▓■□]+/g, "~")
    .replace(/\b[0-9a-f]{8,}\b/gi, "h")
    .replace(/\d+/g, "0")
    .replace(/\s+/g, " ")
    .trim();
}
