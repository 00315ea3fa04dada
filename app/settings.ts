// Every setting pitwall runs with, resolved once per run: a flag beats the environment, the
// environment beats ~/.pitwall/config.json, the config beats the built-in default (the sandbox's
// profile alone is never taken from the environment: resolveSandbox). Every mode
// resolves them here and passes the one Settings object down (createSetup, the coding agent, the
// providers, the job registry, bash and grep). This file is the only one that reads a PITWALL_ or
// PI_BASH_ variable; the few read before the rest can load (the launcher's code cache, the home
// folder of `pitwall jobs`) come from the small functions at its top, which the launcher's bundle
// takes alone (app/build/bundle-cli.ts).
//
// A new setting: a field in Settings, a line in config.ts's CONFIG_FIELDS if the file may set it,
// and one `pick` below naming its flag, its environment variables and its default.
import { homedir } from "node:os";
import { join } from "node:path";
import type { CodingAgentSettings } from "../agent/coding-agent.js";
import { DEFAULT_STREAM_TIMEOUTS } from "../agent/providers/stall-guard.js";
import { DEFAULT_RETRY_POLICY } from "../agent/retry.js";
import { DEFAULT_MAX_OUTPUT_CHARS, fitOutputChars } from "../tools/output-cap.js";
import { clamp, clampDebounceMs, HOST_GREETING_MS, HOST_SILENCE_MS, clampSteerGraceMs, clampYieldMs, DEFAULT_JOB_TTL_MS, DEFAULT_WATCH_DEBOUNCE_MS, DEFAULT_STEER_GRACE_MS, DEFAULT_YIELD_MS, MAX_JOB_TTL_MS, MIN_JOB_TTL_MS, MIN_WATCH_DEBOUNCE_MS, MIN_YIELD_MS, type ServiceSandbox } from "../tools/jobs/index.js";
import type { CliOptions, SandboxChoice } from "./cli-options.js";
import { sandboxPolicy } from "../tools/sandbox/index.js";
import { DEFAULT_KEEP_JOBS_MINUTES, loadConfig, MAX_KEEP_JOBS_MINUTES, type PitwallConfig } from "./config.js";
import { DEFAULT_NOTIFY_IDLE_MS, NOTIFY_MODES, type NotifyMode, type NotifySettings } from "./notifications.js";

/** Where pitwall keeps its files (config, keymap, sessions, job hosts, the code cache): PITWALL_HOME, or ~/.pitwall. */
export function pitwallHome(env: NodeJS.ProcessEnv): string {
  return env.PITWALL_HOME || join(homedir(), ".pitwall");
}

/** What the launcher's code cache (code-cache.ts) runs with. */
export interface CodeCacheSettings {
  /** PITWALL_NO_CODE_CACHE=1 turns it off. */
  enabled: boolean;
  /** The cache goes under it when the install is not writable. */
  home: string;
}

/** The ssh command of remote sessions: PITWALL_SSH_COMMAND, config's sshCommand, or `ssh` (as git's core.sshCommand). */
export function sshCommandSetting(env: NodeJS.ProcessEnv, config: PitwallConfig = loadConfig(pitwallHome(env)).config): string {
  return pick(env, { env: ["PITWALL_SSH_COMMAND"], parse: (raw) => raw.trim(), config: config.sshCommand, fallback: "ssh" });
}

/** How long a job host that took the connection has to greet: PITWALL_HOST_GREETING_MS, config's hostGreetingMs, or 5 s. */
export function hostGreetingSetting(env: NodeJS.ProcessEnv, config: PitwallConfig = loadConfig(pitwallHome(env)).config): number {
  return pick(env, { env: ["PITWALL_HOST_GREETING_MS"], parse: positive, config: config.hostGreetingMs, fallback: HOST_GREETING_MS });
}

export function codeCacheSettings(env: NodeJS.ProcessEnv): CodeCacheSettings {
  return { enabled: env.PITWALL_NO_CODE_CACHE !== "1", home: pitwallHome(env) };
}

/** For the benchmarks: files the dashboard writes what it measured to. */
export interface Instrumentation {
  /** PITWALL_STARTUP_TRACE: "<milestone> <ms since start> <cpu ms>" lines (startup-trace.ts). */
  startupTrace?: string;
  /** PITWALL_FRAME_STATS: how long each frame took, written when the dashboard ends. */
  frameStats?: string;
}

export interface Settings {
  /** ~/.pitwall, or PITWALL_HOME. */
  home: string;
  /** Where sessions are written: --session-dir, or <home>/sessions. */
  sessionRoot: string;
  /** config.json's path and what it held that could be used. The provider, model and thinking level
   * are chosen in session-setup.ts, since a resumed session's come between the flags and the file. */
  configPath: string;
  config: PitwallConfig;
  /** --base-url, else config.json (OPENAI_BASE_URL and ANTHROPIC_BASE_URL: providers/connections.ts). */
  baseUrl?: string;
  /** config.json's keymap path, relative to home; ~/.pitwall/keymap.json when not set. */
  keymap?: string;
  /** The environment pitwall was started with: commands and jobs inherit it. */
  env: NodeJS.ProcessEnv;
  /** What the coding agent, its tools and its job registry work within. */
  agent: CodingAgentSettings;
  /** How long the job host keeps the jobs a dashboard left running while none is attached. */
  keepJobsMs: number;
  /** How long the job host may say nothing while a call waits before pitwall gives up on it. */
  hostSilenceMs: number;
  /** How long a job host of this machine that took the connection has to greet before pitwall gives up on it. */
  hostGreetingMs: number;
  /** How long a call picked in the chat holds the tool-output pane after the last pick or scroll (readingHoldMs, PITWALL_READING_HOLD_MS); undefined: the pane's own 15 s. */
  readingHoldMs: number | undefined;
  /**
   * An idle dashboard's warm-ups (idle-warm-up.ts): the job host started ahead of the first command
   * and a throwaway answer and output drawn (idleWarmUp, PITWALL_IDLE_WARM_UP; default true). Off,
   * the host starts with the first command and the first answer and output pay their first draw.
   */
  idleWarmUp: boolean;
  /** How long local model servers get to answer when no key is set (PITWALL_LOCAL_PROBE_MS; a loaded machine's tests); undefined: the probe's own 150 ms. */
  localProbeMs: number | undefined;
  /** Terminal notifications while the person is not looking (the dashboard's). */
  notify: NotifySettings;
  /** The sandbox as the person set it (also in agent.sandbox): the flag beats config.json beats `workspace`. */
  sandbox: ServiceSandbox;
  /** The ssh command of remote sessions: PITWALL_SSH_COMMAND, config's sshCommand, or `ssh`. */
  sshCommand: string;
  /** Where tools and jobs run: --remote, else config's remote; undefined: this machine. */
  remote: string | undefined;
  instrumentation: Instrumentation;
  /** PITWALL_THEME, else config.json's theme: the dashboard's colours are chosen for it instead of asking the terminal. */
  theme?: "dark" | "light";
  /** What was wrong in config.json, one line each; shown, never fatal. */
  warnings: string[];
}

interface Choice<T> {
  flag?: T;
  /** Variables in order of precedence: pitwall's own name before the seed's PI_ name. */
  env?: readonly string[];
  /** The value a variable's text stands for; undefined when it is not usable (then the next source counts). */
  parse?: (raw: string) => T | undefined;
  config?: T;
  fallback: T;
  /** Brings any value into its allowed range. */
  fit?: (value: T) => T;
}

/** The first source that has a value: the flag, the environment, config.json, the default. */
function pick<T>(env: NodeJS.ProcessEnv, choice: Choice<T>): T {
  const fromEnv = (): T | undefined => {
    for (const name of choice.env ?? []) {
      const raw = env[name];
      const value = raw === undefined || raw.trim() === "" ? undefined : choice.parse?.(raw);
      if (value !== undefined) return value;
    }
    return undefined;
  };
  const value = choice.flag ?? fromEnv() ?? choice.config ?? choice.fallback;
  return choice.fit ? choice.fit(value) : value;
}

function positive(raw: string): number | undefined {
  const value = Number(raw);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

function nonNegative(raw: string): number | undefined {
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** 1/0, true/false, on/off, yes/no. */
function onOff(raw: string): boolean | undefined {
  const word = raw.trim().toLowerCase();
  if (["1", "true", "on", "yes"].includes(word)) return true;
  if (["0", "false", "off", "no"].includes(word)) return false;
  return undefined;
}

export function resolveSettings(options: CliOptions, env: NodeJS.ProcessEnv): Settings {
  const home = pitwallHome(env);
  const { config, path, warnings } = loadConfig(home);
  const maxOutputChars = pick(env, {
    env: ["PITWALL_BASH_MAX_OUTPUT_CHARS", "PI_BASH_MAX_OUTPUT_CHARS"],
    parse: positive,
    config: config.bashMaxOutputChars,
    fallback: DEFAULT_MAX_OUTPUT_CHARS,
    fit: fitOutputChars,
  });
  const ttlMs = pick(env, {
    env: ["PITWALL_BASH_JOB_TTL_MS", "PI_BASH_JOB_TTL_MS"],
    parse: positive,
    config: config.bashJobTtlMs,
    fallback: DEFAULT_JOB_TTL_MS,
    fit: (ms) => clamp(Math.floor(ms), MIN_JOB_TTL_MS, MAX_JOB_TTL_MS),
  });
  // bash_stream's shortest wait: 1 s; only the environment lowers it (a test's jobs that never end by themselves).
  const minYieldMs = pick(env, { env: ["PITWALL_BASH_MIN_YIELD_MS"], parse: nonNegative, fallback: MIN_YIELD_MS, fit: (ms) => clamp(ms, 0, MIN_YIELD_MS) });
  const defaultYieldMs = pick(env, {
    flag: options.bashYieldMs,
    env: ["PITWALL_BASH_YIELD_MS", "PI_BASH_YIELD_MS"],
    parse: positive,
    config: config.bashYieldMs,
    fallback: DEFAULT_YIELD_MS,
    fit: (ms) => clampYieldMs(ms, DEFAULT_YIELD_MS, minYieldMs),
  });
  const steerGraceMs = pick(env, {
    env: ["PITWALL_STEER_GRACE_MS"],
    parse: nonNegative,
    config: config.steerGraceMs,
    fallback: DEFAULT_STEER_GRACE_MS,
    fit: clampSteerGraceMs,
  });
  const keepJobsMinutes = pick(env, {
    env: ["PITWALL_KEEP_JOBS_MINUTES"],
    parse: nonNegative,
    config: config.keepJobsMinutes,
    fallback: DEFAULT_KEEP_JOBS_MINUTES,
    fit: (minutes) => Math.min(minutes, MAX_KEEP_JOBS_MINUTES),
  });
  // The floor of every trigger's window: 1 s; only the environment lowers it (a test's quick triggers).
  const minWatchDebounceMs = pick(env, { env: ["PITWALL_WATCH_MIN_DEBOUNCE_MS"], parse: nonNegative, fallback: MIN_WATCH_DEBOUNCE_MS, fit: (ms) => clamp(ms, 0, MIN_WATCH_DEBOUNCE_MS) });
  const watchDebounceMs = pick(env, {
    env: ["PITWALL_WATCH_DEBOUNCE_MS"],
    parse: positive,
    config: config.watchDebounceMs,
    fallback: DEFAULT_WATCH_DEBOUNCE_MS,
    fit: (ms) => clampDebounceMs(ms, minWatchDebounceMs),
  });
  const baseDelayMs = pick(env, { env: ["PITWALL_RETRY_BASE_MS"], parse: nonNegative, fallback: DEFAULT_RETRY_POLICY.baseDelayMs });
  const headerMs = pick(env, { env: ["PITWALL_HEADER_TIMEOUT_MS"], parse: positive, config: config.headerTimeoutMs, fallback: DEFAULT_STREAM_TIMEOUTS.headerMs });
  const idleMs = pick(env, { env: ["PITWALL_IDLE_TIMEOUT_MS"], parse: positive, config: config.idleTimeoutMs, fallback: DEFAULT_STREAM_TIMEOUTS.idleMs });
  const hostSilenceMs = pick(env, { env: ["PITWALL_HOST_SILENCE_MS"], parse: positive, config: config.hostSilenceMs, fallback: HOST_SILENCE_MS });
  const notifyMode = pick<NotifyMode>(env, { env: ["PITWALL_NOTIFY"], parse: (raw) => NOTIFY_MODES.find((mode) => mode === raw.trim().toLowerCase()), config: config.notify, fallback: "osc" });
  const notifyIdleMs = pick(env, { env: ["PITWALL_NOTIFY_IDLE_MS"], parse: positive, config: config.notifyIdleMs, fallback: DEFAULT_NOTIFY_IDLE_MS });
  const sandbox = resolveSandbox(options, env, home, config);
  return {
    home,
    sessionRoot: options.sessionDir ?? join(home, "sessions"),
    configPath: path,
    config,
    baseUrl: options.baseUrl ?? config.baseUrl,
    keymap: config.keymap,
    env,
    agent: {
      env,
      maxOutputChars,
      jobs: { ttlMs, defaultYieldMs, minYieldMs, steerGraceMs, watchDebounceMs, minWatchDebounceMs },
      retry: { ...DEFAULT_RETRY_POLICY, baseDelayMs },
      streamTimeouts: { headerMs, idleMs },
      context: { contextWindow: options.contextWindow ?? config.contextWindow, compactAtPercent: options.compactAt ?? config.compactAt },
      passKeysToTools: options.passKeys ?? config.passKeysToTools ?? false,
      sandbox,
    },
    keepJobsMs: Math.round(keepJobsMinutes * 60_000),
    hostSilenceMs,
    hostGreetingMs: hostGreetingSetting(env, config),
    idleWarmUp: pick(env, { env: ["PITWALL_IDLE_WARM_UP"], parse: onOff, config: config.idleWarmUp, fallback: true }),
    localProbeMs: pick<number | undefined>(env, { env: ["PITWALL_LOCAL_PROBE_MS"], parse: positive, fallback: undefined }),
    readingHoldMs: pick<number | undefined>(env, { env: ["PITWALL_READING_HOLD_MS"], parse: positive, config: config.readingHoldMs, fallback: undefined }),
    notify: { mode: notifyMode, idleMs: notifyIdleMs },
    sandbox,
    sshCommand: sshCommandSetting(env, config),
    remote: options.remote ?? config.remote,
    instrumentation: { startupTrace: env.PITWALL_STARTUP_TRACE || undefined, frameStats: env.PITWALL_FRAME_STATS || undefined },
    theme: pick<"dark" | "light" | undefined>(env, { env: ["PITWALL_THEME"], parse: (raw) => (raw === "dark" || raw === "light" ? raw : undefined), config: config.theme, fallback: undefined }),
    warnings,
  };
}

/**
 * The sandbox from the flag and config.json only: no variable sets the profile, and nothing in a
 * project's folder is read for it (config.json is in pitwall's home, read-only to commands).
 * PITWALL_BWRAP names the bubblewrap program (tests point it at one that is missing).
 */
function resolveSandbox(options: CliOptions, env: NodeJS.ProcessEnv, home: string, config: PitwallConfig): ServiceSandbox {
  const choice: SandboxChoice = options.sandbox ?? config.sandbox ?? "workspace";
  const policy = sandboxPolicy({
    profile: choice === "required" ? "workspace" : choice,
    required: choice === "required",
    home: env.HOME || homedir(),
    pitwallHome: home,
    ...(options.sessionDir ? { sessionRoot: options.sessionDir } : {}),
    ...(config.sandboxWritable ? { writable: config.sandboxWritable } : {}),
    ...(config.sandboxHidden ? { hidden: config.sandboxHidden } : {}),
    ...(env.XDG_RUNTIME_DIR ? { runtimeDir: env.XDG_RUNTIME_DIR } : {}),
    ...(env.SSH_AUTH_SOCK ? { sshAuthSock: env.SSH_AUTH_SOCK } : {}),
    ...(env.PITWALL_BWRAP ? { bwrap: env.PITWALL_BWRAP } : {}),
  });
  return { policy, personProfile: config.personSandbox ?? "off" };
}
