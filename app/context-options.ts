// The two context settings a person can give (--context-window / contextWindow, --compact-at /
// compactAt): how they are written and what values make sense, shared by the flags and the config.
import { MAX_COMPACT_AT_PERCENT, MIN_COMPACT_AT_PERCENT, MIN_CONTEXT_WINDOW } from "../agent/context/context-budget.js";

/** "200000", "200k", "1m" → tokens; undefined when it is not a count. */
export function parseTokenCount(value: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([km]?)\s*$/i.exec(value);
  if (!m) return undefined;
  const n = Number(m[1]) * (m[2]!.toLowerCase() === "k" ? 1_000 : m[2]!.toLowerCase() === "m" ? 1_000_000 : 1);
  return Number.isInteger(n) ? n : undefined;
}

/** What is wrong with a context window value, for a flag or a config field. */
export function contextWindowProblem(tokens: number | undefined): string | undefined {
  if (tokens === undefined) return "must be a number of tokens (e.g. 32000 or 32k)";
  return tokens < MIN_CONTEXT_WINDOW ? `must be at least ${MIN_CONTEXT_WINDOW} tokens` : undefined;
}

export function compactAtProblem(percent: number): string | undefined {
  return Number.isInteger(percent) && percent >= MIN_COMPACT_AT_PERCENT && percent <= MAX_COMPACT_AT_PERCENT
    ? undefined
    : `must be a whole percent from ${MIN_COMPACT_AT_PERCENT} to ${MAX_COMPACT_AT_PERCENT}`;
}

