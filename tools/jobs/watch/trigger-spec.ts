// What a watch trigger is: a pattern tested against every line a job prints, and what pitwall does
// when a line matches (tell the agent with its next request, steer it, queue a follow-up, or wake
// it). Patterns run on RE2 (tools/search-pattern.ts), so a trigger costs time linear in the output
// whatever its pattern: `(a+)+$` cannot freeze pitwall. Plain data only: triggers and their
// firings cross the job host's socket as events.
import { WATCH_ACTIONS, type JobStarter, type TriggerInfo, type WatchAction } from "../events.js";
import { compileSearchPattern, type LineMatcher, type PatternAdvice } from "../../search-pattern.js";

export const MAX_TRIGGERS_PER_JOB = 32;
export const DEFAULT_WATCH_DEBOUNCE_MS = 10_000;
export const MIN_WATCH_DEBOUNCE_MS = 1_000;
export const MAX_WATCH_DEBOUNCE_MS = 60 * 60_000;
/** Longer patterns are refused: nobody types one, and RE2's compile cost grows with the size. */
export const MAX_PATTERN_CHARS = 500;

export interface TriggerSpec {
  pattern: string;
  action: WatchAction;
  /** Undefined: smart case (case-insensitive unless the pattern has an upper-case letter). */
  ignoreCase?: boolean;
  /** At most one firing per this many ms; the job's default (the registry's setting) when left out. */
  debounceMs?: number;
  setBy: JobStarter;
  /** The host client whose agent set it: its firings wake that agent, whoever owns the job. */
  owner?: string;
}

/** A trigger that cannot be added: the message says what to do instead. */
export class WatchError extends Error {}

export function isWatchAction(value: string): value is WatchAction {
  return (WATCH_ACTIONS as readonly string[]).includes(value);
}

const TRIGGER_ADVICE: PatternAdvice = {
  lookaround:
    "Watch for the main part without the assertion instead: every firing shows 3 lines of context around each matching line, so what comes before or after can be judged there.",
  backreference: "Spell the repeated text out instead, e.g. (FAIL|ERROR) rather than (\\w+) \\1.",
  syntax: "Escape special characters such as ( [ . * + ? with a backslash to match them as text.",
};

/** Upper-case letters outside escapes (\W, \S, \D, \p{Lu} …) make the pattern case-sensitive. */
export function smartIgnoreCase(pattern: string): boolean {
  return !/[A-Z]/.test(pattern.replace(/\\(?:[pP]\{[^}]*\}|[pP][A-Za-z]|.)/g, ""));
}

/**
 * Whether testing many lines joined by "\n" (multiline mode) can only over-report, never miss, a
 * line's match: false for the absolute anchors \A and \z and for a flag group that turns multiline off.
 */
function joinedTestIsSafe(pattern: string): boolean {
  return !/\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/.test(pattern);
}

export interface CompiledTrigger {
  /** Tests one line. */
  line: LineMatcher;
  /** Tests a batch of lines joined by "\n" at once (a cheap first pass); undefined when unsafe. */
  joined: LineMatcher | undefined;
  ignoreCase: boolean;
}

/** Checks and compiles a trigger's pattern; throws a WatchError saying what is wrong and what to do. */
export function compileTrigger(pattern: string, ignoreCase?: boolean): CompiledTrigger {
  if (pattern.trim() === "") throw new WatchError("The pattern is empty: give a regular expression to watch for, e.g. FAIL|Error.");
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new WatchError(`The pattern is ${pattern.length} characters long; at most ${MAX_PATTERN_CHARS} are allowed. Watch for a shorter, distinctive part of the line.`);
  }
  const caseless = ignoreCase ?? smartIgnoreCase(pattern);
  try {
    const line = compileSearchPattern(pattern, { ignoreCase: caseless, advice: TRIGGER_ADVICE });
    const joined = joinedTestIsSafe(pattern) ? compileSearchPattern(pattern, { ignoreCase: caseless, multiline: true, advice: TRIGGER_ADVICE }) : undefined;
    return { line, joined, ignoreCase: caseless };
  } catch (error) {
    throw new WatchError(error instanceof Error ? error.message : String(error));
  }
}

/** A debounce window as given, clamped to `min` (1 s unless set otherwise)–1 h. */
export function clampDebounceMs(value: number, min: number = MIN_WATCH_DEBOUNCE_MS): number {
  return Math.min(MAX_WATCH_DEBOUNCE_MS, Math.max(min, Math.floor(value)));
}

/** "/FAIL/" or "/fail/i": how a trigger's pattern is shown to people and the model. */
export function patternLabel(trigger: Pick<TriggerInfo, "pattern" | "ignoreCase">): string {
  return `/${trigger.pattern}/${trigger.ignoreCase ? "i" : ""}`;
}
