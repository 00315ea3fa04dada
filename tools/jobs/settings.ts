// The limits the job registry and the job tools work within: output shown to the model, how long
// finished jobs stay listed, how long bash_stream waits before yielding, how many jobs may run at
// once, how often a watch trigger may fire. A person tunes them with flags, the environment or config.json (app/settings.ts).
import { DEFAULT_MAX_OUTPUT_CHARS } from "../output-cap.js";
import { DEFAULT_KILL_GRACE_MS } from "../process-group.js";
import { DEFAULT_WATCH_DEBOUNCE_MS, MIN_WATCH_DEBOUNCE_MS } from "./watch/trigger-spec.js";

export interface JobSettings {
  /** Plain-text output returned to the model per result (head and tail kept). */
  maxOutputChars: number;
  /** Finished jobs stay listed this long, then are removed. */
  ttlMs: number;
  /** Jobs that may run at the same time. */
  maxJobs: number;
  /** How long bash_stream waits for a job before yielding. */
  defaultYieldMs: number;
  /** The shortest wait bash_stream takes: a call's yieldMs below it is raised to it. */
  minYieldMs: number;
  /** Once the person steers, a bash call still running gets this much longer before it becomes a job. */
  steerGraceMs: number;
  /** Between TERM and KILL when a job is stopped. */
  killGraceMs: number;
  /** Size of a job's terminal. */
  cols: number;
  rows: number;
  /** Lines of scrollback in a job's emulator. */
  scrollback: number;
  /** A watch trigger fires at most once per this many ms (unless it sets its own window). */
  watchDebounceMs: number;
  /** The shortest window a trigger may have: a shorter one is raised to it (1 s; a test lowers it). */
  minWatchDebounceMs: number;
}

export const DEFAULT_JOB_TTL_MS = 30 * 60_000;
export const MIN_JOB_TTL_MS = 60_000;
export const MAX_JOB_TTL_MS = 3 * 60 * 60_000;
export const DEFAULT_YIELD_MS = 60_000;
export const MIN_YIELD_MS = 1_000;
export const MAX_YIELD_MS = 120_000;
/** A steer lets a command about to finish do so (and its result reach the model whole) rather than turn it into a job. */
export const DEFAULT_STEER_GRACE_MS = 1_000;
export const DEFAULT_MAX_JOBS = 16;
/** Bytes of input one job may receive through write_stdin over its life. */
export const MAX_STDIN_BYTES = 256 * 1024;

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A yield window as given (a call's `yieldMs`, the CLI flag, the environment), clamped to `min` (1 s unless set otherwise)–120 s. */
export function clampYieldMs(value: number | undefined, fallback: number = DEFAULT_YIELD_MS, min: number = MIN_YIELD_MS): number {
  if (value === undefined || !Number.isFinite(value)) return clamp(fallback, min, MAX_YIELD_MS);
  return clamp(Math.floor(value), min, MAX_YIELD_MS);
}

/** A steer's grace as given (config, environment, a test), within 0–120 s. */
export function clampSteerGraceMs(ms: number): number {
  return clamp(Math.floor(ms), 0, MAX_YIELD_MS);
}

/** The registry's settings: the defaults, with the ones given (the app's resolved settings, a test's needs) in their place; the yield window is always clamped. */
export function resolveJobSettings(given: Partial<JobSettings> = {}): JobSettings {
  const settings: JobSettings = {
    maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
    ttlMs: DEFAULT_JOB_TTL_MS,
    maxJobs: DEFAULT_MAX_JOBS,
    defaultYieldMs: DEFAULT_YIELD_MS,
    minYieldMs: MIN_YIELD_MS,
    steerGraceMs: DEFAULT_STEER_GRACE_MS,
    killGraceMs: DEFAULT_KILL_GRACE_MS,
    cols: 120,
    rows: 30,
    scrollback: 5_000,
    watchDebounceMs: DEFAULT_WATCH_DEBOUNCE_MS,
    minWatchDebounceMs: MIN_WATCH_DEBOUNCE_MS,
    ...definedOnly(given),
  };
  settings.minWatchDebounceMs = clamp(settings.minWatchDebounceMs, 0, MIN_WATCH_DEBOUNCE_MS);
  settings.minYieldMs = clamp(settings.minYieldMs, 0, MIN_YIELD_MS);
  settings.defaultYieldMs = clampYieldMs(settings.defaultYieldMs, DEFAULT_YIELD_MS, settings.minYieldMs);
  settings.steerGraceMs = clampSteerGraceMs(settings.steerGraceMs);
  return settings;
}

function definedOnly<T extends object>(value: Partial<T>): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
