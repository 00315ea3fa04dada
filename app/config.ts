// ~/.pitwall/config.json: defaults for provider, model, thinking, base URL, the keymap path and
// whether commands get the provider keys.
// Flags beat the config, the config beats built-in defaults. A bad file or field is reported and
// ignored, never fatal.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { THINKING_LEVELS, type ThinkingLevel } from "../agent/messages.js";
import { isProviderName, type ProviderName } from "../agent/models.js";
import { compactAtProblem, contextWindowProblem } from "./context-options.js";

export interface PitwallConfig {
  provider?: ProviderName;
  model?: string;
  thinking?: ThinkingLevel;
  baseUrl?: string;
  keymap?: string;
  /** Tokens (see --context-window). */
  contextWindow?: number;
  /** Percent (see --compact-at). */
  compactAt?: number;
  /** Leave ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment of commands and jobs. */
  passKeysToTools?: boolean;
}

export interface LoadedConfig {
  config: PitwallConfig;
  path: string;
  /** One line each: what is wrong and that it was ignored. */
  warnings: string[];
}

/** `PITWALL_HOME`, or ~/.pitwall. */
export function pitwallHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.PITWALL_HOME || join(homedir(), ".pitwall");
}

type FieldCheck = (value: unknown) => string | undefined;

const stringField: FieldCheck = (v) => (typeof v === "string" && v.trim() ? undefined : "must be a non-empty string");
const FIELDS: Record<keyof PitwallConfig, FieldCheck> = {
  provider: (v) => (typeof v === "string" && isProviderName(v) ? undefined : "must be \"anthropic\" or \"openai\""),
  model: stringField,
  thinking: (v) => (typeof v === "string" && (THINKING_LEVELS as readonly string[]).includes(v) ? undefined : `must be one of ${THINKING_LEVELS.join(", ")}`),
  baseUrl: (v) => (typeof v === "string" && /^https?:\/\/\S+$/.test(v) ? undefined : "must be an http(s) URL"),
  keymap: stringField,
  contextWindow: (v) => (typeof v === "number" ? contextWindowProblem(v) : "must be a number of tokens, e.g. 32000"),
  compactAt: (v) => (typeof v === "number" ? compactAtProblem(v) : "must be a number, a percent of the window, e.g. 80"),
  passKeysToTools: (v) => (typeof v === "boolean" ? undefined : "must be true or false"),
};

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
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { config: {}, path, warnings: [`${path} must hold a JSON object; using defaults.`] };
  }
  const config: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(parsed)) {
    const check = FIELDS[key as keyof PitwallConfig];
    if (!check) {
      warnings.push(`${path}: unknown field "${key}" ignored (known: ${Object.keys(FIELDS).join(", ")}).`);
      continue;
    }
    const problem = check(value);
    if (problem) warnings.push(`${path}: "${key}" ${problem}; ignored.`);
    else config[key] = value;
  }
  return { config: config as PitwallConfig, path, warnings };
}
