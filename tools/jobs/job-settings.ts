// The limits the job registry and the job tools work within, read from the environment so a person
// can tune them without code: output shown to the model, how long finished jobs stay listed, how long
// bash_stream waits before yielding, how many jobs may run at once.
import { DEFAULT_MAX_OUTPUT_CHARS, maxOutputCharsFromEnv } from "../output-cap.js";
import { DEFAULT_KILL_GRACE_MS } from "../process-group.js";

export interface JobSettings {
  /** Plain-text output returned to the model per result (head and tail kept). */
  maxOutputChars: number;
  /** Finished jobs stay listed this long, then are removed. */
  ttlMs: number;
  /** Jobs that may run at the same time. */
  maxJobs: number;
  /** How long bash_stream waits for a job before yielding. */
  defaultYieldMs: number;
  /** Between TERM and KILL when a job is stopped. */
  killGraceMs: number;
  /** Size of a job's terminal. */
  cols: number;
  rows: number;
  /** Lines of scrollback in a job's emulator. */
  scrollback: number;
}

export const DEFAULT_JOB_TTL_MS = 30 * 60_000;
export const MIN_JOB_TTL_MS = 60_000;
export const MAX_JOB_TTL_MS = 3 * 60 * 60_000;
export const DEFAULT_YIELD_MS = 60_000;
export const MIN_YIELD_MS = 1_000;
export const MAX_YIELD_MS = 120_000;
export const DEFAULT_MAX_JOBS = 16;
/** Bytes of input one job may receive through write_stdin over its life. */
export const MAX_STDIN_BYTES = 256 * 1024;

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A yield window as given (a call's `yieldMs`, the CLI flag, the environment), clamped to 1 s–120 s. */
export function clampYieldMs(value: number | undefined, fallback: number = DEFAULT_YIELD_MS): number {
  if (value === undefined || !Number.isFinite(value)) return clamp(fallback, MIN_YIELD_MS, MAX_YIELD_MS);
  return clamp(Math.floor(value), MIN_YIELD_MS, MAX_YIELD_MS);
}

function positiveNumber(raw: string | undefined): number | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Settings from `PI_BASH_MAX_OUTPUT_CHARS` (default 30 000, at most 150 000), `PI_BASH_JOB_TTL_MS`
 * (default 30 min, clamped 1 min–3 h) and `PI_BASH_YIELD_MS` (default 60 s, clamped 1 s–120 s);
 * `overrides` (the CLI's flags, a test's needs) win over the environment and are used as given,
 * except the yield window, which is always clamped.
 */
export function jobSettingsFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<JobSettings> = {}): JobSettings {
  const ttl = positiveNumber(env.PI_BASH_JOB_TTL_MS);
  const yieldMs = positiveNumber(env.PI_BASH_YIELD_MS);
  const settings: JobSettings = {
    maxOutputChars: env.PI_BASH_MAX_OUTPUT_CHARS === undefined ? DEFAULT_MAX_OUTPUT_CHARS : maxOutputCharsFromEnv(env),
    ttlMs: ttl === undefined ? DEFAULT_JOB_TTL_MS : clamp(Math.floor(ttl), MIN_JOB_TTL_MS, MAX_JOB_TTL_MS),
    maxJobs: DEFAULT_MAX_JOBS,
    defaultYieldMs: clampYieldMs(yieldMs),
    killGraceMs: DEFAULT_KILL_GRACE_MS,
    cols: 120,
    rows: 30,
    scrollback: 5_000,
    ...definedOnly(overrides),
  };
  settings.defaultYieldMs = clampYieldMs(settings.defaultYieldMs);
  return settings;
}

function definedOnly<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
