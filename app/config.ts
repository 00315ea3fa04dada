// ~/.pitwall/config.json: defaults for the provider, model, thinking level, base URL, keymap path,
// the bash limits, how long kept jobs wait, the watch triggers' debounce window, the context window,
// how long a silent server is waited for, whether commands get the provider keys, how the person
// is notified, the theme, and the sandbox. Each field
// is checked against its TypeBox schema on its own: a bad file or field is reported and ignored,
// never fatal. app/settings.ts puts the fields in their place (flags and the environment beat
// them, they beat built-in defaults).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Type, type Static, type TLiteral, type TSchema, type TUnion } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { THINKING_LEVELS } from "../agent/messages.js";
import { PROVIDER_NAMES } from "../agent/models.js";
import { NOTIFY_MODES } from "./notifications.js";
import { MAX_COMPACT_AT_PERCENT, MIN_COMPACT_AT_PERCENT, MIN_CONTEXT_WINDOW } from "../agent/context/context-budget.js";
import { SANDBOX_PROFILES } from "../tools/sandbox/index.js";
import { SANDBOX_CHOICES } from "./cli-options.js";

/** A field's schema and what its warning says when a value does not fit it. */
interface ConfigField<S extends TSchema> {
  schema: S;
  problem: string;
}

function field<S extends TSchema>(schema: S, problem: string): ConfigField<S> {
  return { schema, problem };
}

function oneOf<T extends string>(values: readonly T[]): TUnion<Array<TLiteral<T>>> {
  return Type.Union(values.map((v) => Type.Literal(v)));
}

/** A day: jobs are never kept unowned for longer. */
export const MAX_KEEP_JOBS_MINUTES = 24 * 60;
export const DEFAULT_KEEP_JOBS_MINUTES = 30;

const nonEmptyString = field(Type.String({ pattern: "\\S" }), "must be a non-empty string");
const positiveMs = field(Type.Integer({ exclusiveMinimum: 0 }), "must be a positive whole number of milliseconds");

/** Every field config.json may hold. A new setting read from the file adds one line here. */
export const CONFIG_FIELDS = {
  provider: field(oneOf(PROVIDER_NAMES), 'must be "anthropic" or "openai"'),
  model: nonEmptyString,
  thinking: field(oneOf(THINKING_LEVELS), `must be one of ${THINKING_LEVELS.join(", ")}`),
  baseUrl: field(Type.String({ pattern: "^https?://\\S+$" }), "must be an http(s) URL"),
  keymap: nonEmptyString,
  bashYieldMs: positiveMs,
  /** Once the person steers, how much longer a running bash call may finish before it becomes a job (0–120 s). */
  steerGraceMs: field(Type.Integer({ minimum: 0 }), "must be a whole number of milliseconds, 0 or more"),
  bashJobTtlMs: positiveMs,
  bashMaxOutputChars: field(Type.Integer({ exclusiveMinimum: 0 }), "must be a positive whole number"),
  /** A watch trigger fires at most once per this many ms (1 s–1 h). */
  watchDebounceMs: positiveMs,
  /** Tokens (see --context-window). */
  contextWindow: field(Type.Integer({ minimum: MIN_CONTEXT_WINDOW }), `must be a number of tokens, at least ${MIN_CONTEXT_WINDOW} (e.g. 32000)`),
  /** Percent of the window (see --compact-at). */
  compactAt: field(
    Type.Integer({ minimum: MIN_COMPACT_AT_PERCENT, maximum: MAX_COMPACT_AT_PERCENT }),
    `must be a whole percent from ${MIN_COMPACT_AT_PERCENT} to ${MAX_COMPACT_AT_PERCENT}`,
  ),
  /** How long the job host keeps jobs a dashboard left running, with no dashboard attached (0: not at all). */
  keepJobsMinutes: field(Type.Number({ minimum: 0, maximum: MAX_KEEP_JOBS_MINUTES }), `must be a number of minutes from 0 to ${MAX_KEEP_JOBS_MINUTES}`),
  /** How long a request waits for the response headers before the attempt fails (and is retried). */
  headerTimeoutMs: positiveMs,
  /** How long a response may send nothing at all before the attempt fails (and is retried). */
  idleTimeoutMs: positiveMs,
  /** How long the job host may say nothing while a call waits before it is given up on. */
  hostSilenceMs: positiveMs,
  /** How long a job host of this machine that took the connection has to greet before it is given up on. */
  hostGreetingMs: positiveMs,
  /** How long a call picked in the chat holds the tool-output pane after the last pick or scroll. */
  readingHoldMs: positiveMs,
  /** An idle dashboard starts the job host and draws a throwaway answer, so the first command and answer are quick. */
  idleWarmUp: field(Type.Boolean(), "must be true or false"),
  /** Leave ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment of commands and jobs. */
  passKeysToTools: field(Type.Boolean(), "must be true or false"),
  /** Terminal notifications while the person is not looking: off, a bell, or OSC 9/777 (app/notifications.ts). */
  notify: field(oneOf(NOTIFY_MODES), `must be one of ${NOTIFY_MODES.join(", ")}`),
  /** Where the terminal does not report focus: no key for this long counts as not looking. */
  notifyIdleMs: positiveMs,
  /** The terminal's background, when asking the terminal (OSC 11) is not wanted or not answered. */
  theme: field(oneOf(["dark", "light"] as const), 'must be "dark" or "light"'),
  /** The model's commands' sandbox profile (see --sandbox). Only this file and the flag set it, never a project's files. */
  sandbox: field(oneOf(SANDBOX_CHOICES), `must be one of ${SANDBOX_CHOICES.join(", ")}`),
  /** The profile of the person's own `!command`s and jobs ("off" by default). */
  personSandbox: field(oneOf(SANDBOX_PROFILES), `must be one of ${SANDBOX_PROFILES.join(", ")}`),
  /** The build caches commands may write (`~` allowed); replaces the default list. */
  sandboxWritable: field(Type.Array(Type.String({ pattern: "\\S" })), "must be a list of paths"),
  /** More paths hidden from commands (`~` allowed), besides ~/.ssh, ~/.aws and the other secrets. */
  sandboxHidden: field(Type.Array(Type.String({ pattern: "\\S" })), "must be a list of paths"),
  /** The ssh command remote sessions run, as git's core.sshCommand (PITWALL_SSH_COMMAND wins). */
  sshCommand: nonEmptyString,
  /** Run every session's tools and jobs on this remote: [user@]host[:port]:/path (--remote wins). */
  remote: nonEmptyString,
};

type ConfigFields = typeof CONFIG_FIELDS;
export type PitwallConfig = { [K in keyof ConfigFields]?: Static<ConfigFields[K]["schema"]> };

export interface LoadedConfig {
  config: PitwallConfig;
  path: string;
  /** One line each: what is wrong and that it was ignored. */
  warnings: string[];
}


const FILE = Type.Record(Type.String(), Type.Unknown());

function isConfigField(key: string): key is keyof ConfigFields {
  return Object.hasOwn(CONFIG_FIELDS, key);
}

export function loadConfig(home: string): LoadedConfig {
  const path = join(home, "config.json");
  let raw: string;
  try {
    raw = readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { config: {}, path, warnings: code === "ENOENT" ? [] : [`${path}: cannot read it (${code}); using defaults.`] };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { config: {}, path, warnings: [`${path} is not valid JSON (${(error as Error).message}); using defaults.`] };
  }
  if (!Value.Check(FILE, parsed)) {
    return { config: {}, path, warnings: [`${path} must hold a JSON object; using defaults.`] };
  }
  const config: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    if (!isConfigField(key)) {
      warnings.push(`${path}: unknown field "${key}" ignored (known: ${Object.keys(CONFIG_FIELDS).join(", ")}).`);
      continue;
    }
    const { schema, problem } = CONFIG_FIELDS[key];
    if (Value.Check(schema, value)) config[key] = value;
    else warnings.push(`${path}: "${key}" ${problem}; ignored.`);
  }
  return { config: config as PitwallConfig, path, warnings };
}
