// Parses pitwall's command line (node:util's parseArgs) into plain options. Unknown flags and bad values throw a
// UsageError whose one-line message the entry point prints before exiting with 2.
import { parseRemote } from "../tools/jobs/index.js";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { THINKING_LEVELS, type ThinkingLevel } from "../agent/messages.js";
import { DEFAULT_MODELS, isProviderName, OPENAI_APIS, type OpenAIApi, type ProviderName } from "../agent/models.js";
import { compactAtProblem, contextWindowProblem, parseTokenCount } from "./context-options.js";

export class UsageError extends Error {}

/** What --sandbox takes: a profile, or `required` (the workspace profile, refusing commands it cannot fence). */
export const SANDBOX_CHOICES = ["workspace", "strict", "off", "required"] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];

export interface CliOptions {
  prompts: string[];
  print: boolean;
  json: boolean;
  continue: boolean;
  resume: boolean;
  sessionFile?: string;
  noSession: boolean;
  sessionDir?: string;
  /** Write the session's current branch as Markdown here: after the prompts, or alone ("-": stdout). */
  export?: string;
  /** --force: --export may replace a file that is there. */
  force: boolean;
  model?: string;
  provider?: ProviderName;
  baseUrl?: string;
  apiKey?: string;
  /** OpenAI: Chat Completions or Responses, whatever the model. */
  api?: OpenAIApi;
  thinking?: ThinkingLevel;
  /** Tokens: the window of a model the table does not know, or a cap below a known one. */
  contextWindow?: number;
  /** Percent of the window at which the conversation is compacted. */
  compactAt?: number;
  /** Resolved text: `@file` is read here. */
  systemPrompt?: string;
  /** A list of tool names, or the read-only set. */
  tools?: string[] | "read-only";
  cwd: string;
  /** --remote [user@]host[:port]:/path: the tools and jobs run there, over ssh. */
  remote?: string;
  bashYieldMs?: number;
  /** --pass-keys: leave the provider keys in the environment of commands and jobs. */
  passKeys?: boolean;
  /** --trust-project: load the project's own skills and prompt templates this run (see project-trust.ts). */
  trustProject: boolean;
  /** --sandbox: the profile the model's commands run under, or "required" (workspace, and no command runs unfenced). */
  sandbox?: SandboxChoice;
  printSystemPrompt: boolean;
  mouse: boolean;
  help: boolean;
  version: boolean;
}

export const HELP = `
  pitwall: a coding agent in a full-screen terminal cockpit

  Usage
    $ pitwall [options] [prompt...]

  Modes
    (default)                 Full-screen dashboard on a terminal; prompts given are sent in order
    -p, --print               Run the prompts, stream plain text to stdout, exit (non-zero on failure)
    --json                    JSON lines: commands on stdin, every event on stdout

  Sessions
    -c, --continue            Resume the newest session of this directory
    -r, --resume              Pick a session to resume
    --session <file>          Open this session file
    --no-session              Do not save this session
    --session-dir <dir>       Where sessions live (default ~/.pitwall/sessions; PITWALL_HOME moves ~/.pitwall)
    --export <file>           With prompts: run them (print mode), then write the session's current branch as
                              Markdown to file. Alone, with --session, --continue or --resume: only write it
                              (file - writes to stdout). A file that is there is not replaced without --force
    --force                   Let --export replace a file that is there

  Model
    --model <id>              A known id (${DEFAULT_MODELS.anthropic}, ${DEFAULT_MODELS.openai}, …) or provider/id (openai/llama3.1)
    --provider <name>         anthropic | openai
    --base-url <url>          An OpenAI-compatible server (Ollama, llama.cpp, vLLM); also OPENAI_BASE_URL,
                              ANTHROPIC_BASE_URL for Anthropic-compatible gateways
    --api-key-file <file>     Read the key from this file (one line), instead of ANTHROPIC_API_KEY /
                              OPENAI_API_KEY
    --api-key <key>           The key itself (other users see it in ps while pitwall starts: prefer
                              the environment or --api-key-file)
    --api <chat|responses>    OpenAI's API: by default Responses for GPT-5 and o-series models, Chat
                              Completions for the rest and for any --base-url server
    --thinking <level>        off | minimal | low | medium | high
    --context-window <tokens> The model's context window when pitwall does not know it (default 128000),
                              or a smaller cap for one it knows (e.g. 200k)
    --compact-at <percent>    Compact the conversation before a request would pass this much of the
                              window (default 80)

  Agent
    --system-prompt <text>    Replace the built-in instructions (text, or @file)
    --tools <list>            Comma-separated tool names, or read-only (read, grep, find, ls)
    --cwd <dir>               Working directory (default: the current one)
    --remote <[user@]host[:port]:/path>
                              Run the tools and jobs on that machine, in that folder, over your ssh
                              (PITWALL_SSH_COMMAND or sshCommand in config.json: the ssh command)
    --bash-yield-ms <ms>      How long bash and bash_stream wait before yielding (default 60000; PITWALL_BASH_YIELD_MS)
    --pass-keys               Leave ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment of commands and
                              jobs (removed by default; config.json: "passKeysToTools": true)
    --trust-project           Load this project's own skills and prompt templates (.pitwall/skills,
                              .agents/skills, .pitwall/prompts) for this run; the dashboard asks once
                              and remembers the answer in ~/.pitwall/trust.json
    --sandbox <profile>       workspace (default): commands write only in the working directory, /tmp and
                              build caches, secrets hidden; strict: that and no network; off: no sandbox;
                              required: workspace, and commands are refused when no sandbox can be made
                              (Linux, bubblewrap; config.json: "sandbox")
    --print-system-prompt     Show the system prompt and what it loaded, then exit
    --mouse                   Let the mouse wheel scroll panes (the terminal's own selection stops working)

  Jobs (they run in this folder's job host, and may outlive the dashboard)
    pitwall jobs [list]       List this folder's jobs with their status
    pitwall jobs stop ID|all  Stop jobs, with every process they started
    pitwall jobs tail ID [-f] A job's last lines; -f follows them (pitwall jobs --help)
    pitwall jobs --remote <[user@]host:/path> …   The same for the jobs of a remote folder

    --version                 Show the version
    --help                    Show this help

  Examples
    $ pitwall
    $ pitwall "make the tests pass"
    $ pitwall -p "summarise README.md" > summary.txt
    $ pitwall --continue
    $ pitwall --export session.md --continue
    $ pitwall --provider openai --base-url http://localhost:11434/v1 --model qwen2.5-coder
    $ echo '{"type":"message","content":"list the files"}' | pitwall --json
`;

/** Every flag, by its camelCase name; `short` is its one-letter form. Booleans also take --no-<name>. */
const FLAGS = {
  print: { type: "boolean", short: "p" },
  json: { type: "boolean" },
  continue: { type: "boolean", short: "c" },
  resume: { type: "boolean", short: "r" },
  // A string flag; `--no-session` arrives as session === false.
  session: { type: "string" },
  sessionDir: { type: "string" },
  export: { type: "string" },
  force: { type: "boolean" },
  model: { type: "string" },
  provider: { type: "string" },
  baseUrl: { type: "string" },
  apiKey: { type: "string" },
  apiKeyFile: { type: "string" },
  api: { type: "string" },
  thinking: { type: "string" },
  contextWindow: { type: "string" },
  compactAt: { type: "string" },
  systemPrompt: { type: "string" },
  tools: { type: "string" },
  cwd: { type: "string" },
  remote: { type: "string" },
  bashYieldMs: { type: "string" },
  passKeys: { type: "boolean" },
  trustProject: { type: "boolean" },
  sandbox: { type: "string" },
  printSystemPrompt: { type: "boolean" },
  mouse: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies Record<string, { type: "boolean" | "string"; short?: string }>;

type FlagName = keyof typeof FLAGS;
type FlagValues = {
  [K in FlagName]?: (typeof FLAGS)[K]["type"] extends "string" ? string : boolean;
};

/** parseArgs's options: the flags under their kebab-case names, as typed on the command line. */
const PARSE_OPTIONS = Object.fromEntries(Object.entries(FLAGS).map(([name, flag]) => [kebab(name), flag]));
const FLAG_BY_KEBAB = new Map(Object.keys(FLAGS).map((name) => [kebab(name), name as FlagName]));

/**
 * Node's own parser (node:util): it costs nothing to load, where meow and its dependencies took
 * 45–70 ms of every start. Lenient mode, so an unknown flag or a missing value is reported by us in
 * one line that says what to do.
 */
function readFlags(argv: string[]): { flags: FlagValues; positionals: string[] } {
  const { values, positionals, tokens } = parseArgs({ args: argv, options: PARSE_OPTIONS, allowPositionals: true, allowNegative: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    const name = FLAG_BY_KEBAB.get(token.name.startsWith("no-") && !FLAG_BY_KEBAB.has(token.name) ? token.name.slice(3) : token.name);
    if (name === undefined) throw new UsageError(`unknown flag ${token.rawName}`);
  }
  const flags: Record<string, string | boolean> = {};
  for (const [key, value] of Object.entries(values)) {
    const name = FLAG_BY_KEBAB.get(key)!;
    const negated = value === false;
    if (FLAGS[name].type === "string" && value === true) throw new UsageError(`--${key} needs a value`);
    if (negated && FLAGS[name].type === "string" && name !== "session") throw new UsageError(`unknown flag --no-${key}`);
    if (value !== undefined) flags[name] = value;
  }
  return { flags: flags as FlagValues, positionals };
}

export function parseCliArgs(argv: string[], baseCwd: string = process.cwd()): CliOptions {
  const { flags: f, positionals } = readFlags(argv);
  const text = (name: string, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    if (value.trim() === "") throw new UsageError(`--${kebab(name)} needs a value`);
    return value;
  };

  const provider = text("provider", f.provider);
  if (provider !== undefined && !isProviderName(provider)) throw new UsageError(`--provider must be anthropic or openai, not '${provider}'`);
  const thinking = text("thinking", f.thinking);
  if (thinking !== undefined && !(THINKING_LEVELS as readonly string[]).includes(thinking)) {
    throw new UsageError(`--thinking must be one of ${THINKING_LEVELS.join(", ")}, not '${thinking}'`);
  }
  const api = text("api", f.api);
  if (api !== undefined && !(OPENAI_APIS as readonly string[]).includes(api)) throw new UsageError(`--api must be chat or responses, not '${api}'`);
  if (api !== undefined && provider === "anthropic") throw new UsageError("--api chooses between OpenAI's two APIs: it does not apply to --provider anthropic");
  const baseUrl = text("baseUrl", f.baseUrl);
  if (baseUrl !== undefined && !/^https?:\/\/[^\s]+$/.test(baseUrl)) throw new UsageError(`--base-url must be an http(s) URL, not '${baseUrl}'`);
  const sandbox = text("sandbox", f.sandbox);
  if (sandbox !== undefined && !(SANDBOX_CHOICES as readonly string[]).includes(sandbox)) {
    throw new UsageError(`--sandbox must be one of ${SANDBOX_CHOICES.join(", ")}, not '${sandbox}'`);
  }
  let bashYieldMs: number | undefined;
  if (f.bashYieldMs !== undefined) {
    bashYieldMs = Number(f.bashYieldMs);
    if (!Number.isInteger(bashYieldMs) || bashYieldMs <= 0) throw new UsageError(`--bash-yield-ms must be a positive whole number of milliseconds, not '${f.bashYieldMs}'`);
  }
  const contextWindow = mapDefined(text("contextWindow", f.contextWindow), (v) => {
    const tokens = parseTokenCount(v);
    const problem = contextWindowProblem(tokens);
    if (problem) throw new UsageError(`--context-window ${problem}, not '${v}'`);
    return tokens!;
  });
  const compactAt = mapDefined(text("compactAt", f.compactAt), (v) => {
    const percent = Number(v.replace(/%$/, ""));
    const problem = compactAtProblem(percent);
    if (problem) throw new UsageError(`--compact-at ${problem}, not '${v}'`);
    return percent;
  });
  const toolsFlag = text("tools", f.tools);
  const tools = toolsFlag === undefined ? undefined : toolsFlag.trim() === "read-only" ? ("read-only" as const) : parseToolList(toolsFlag);
  const cwd = resolve(baseCwd, text("cwd", f.cwd) ?? ".");
  const remote = text("remote", f.remote);
  if (remote !== undefined) {
    try {
      parseRemote(remote);
    } catch (error) {
      throw new UsageError(`--remote: ${(error as Error).message}`);
    }
  }
  const session = f.session as string | boolean | undefined;
  const sessionFile = typeof session === "string" ? text("session", session) : undefined;
  if (f.json && f.print) throw new UsageError("--json and --print are different modes: pick one");
  const resumeFlags = [f.continue && "--continue", f.resume && "--resume", sessionFile !== undefined && "--session"].filter(Boolean);
  if (resumeFlags.length > 1) throw new UsageError(`${resumeFlags.join(" and ")} each pick a session: use one`);
  if (session === false && resumeFlags.length > 0) throw new UsageError(`--no-session cannot be combined with ${resumeFlags[0]}`);
  const exportFile = text("export", f.export);
  if (exportFile !== undefined && f.json) throw new UsageError("--export works with print mode (prompts) or alone, not with --json");
  if (exportFile === "-" && (positionals.length > 0 || f.print)) throw new UsageError("--export - writes to stdout, where print mode writes the answer: name a file");
  if (exportFile !== undefined && positionals.length === 0 && !f.print && resumeFlags.length === 0) {
    throw new UsageError("--export without a prompt writes a session you name: add --session <file>, --continue or --resume");
  }

  return {
    prompts: positionals,
    print: f.print ?? false,
    json: f.json ?? false,
    continue: f.continue ?? false,
    resume: f.resume ?? false,
    sessionFile: sessionFile === undefined ? undefined : resolve(baseCwd, sessionFile),
    noSession: session === false,
    sessionDir: mapDefined(text("sessionDir", f.sessionDir), (d) => resolve(baseCwd, d)),
    ...(exportFile !== undefined ? { export: exportFile } : {}),
    force: f.force ?? false,
    model: text("model", f.model),
    provider: provider as ProviderName | undefined,
    baseUrl,
    apiKey: keyOption(text("apiKey", f.apiKey), mapDefined(text("apiKeyFile", f.apiKeyFile), (file) => resolve(baseCwd, file))),
    api: api as OpenAIApi | undefined,
    thinking: thinking as ThinkingLevel | undefined,
    contextWindow,
    compactAt,
    systemPrompt: mapDefined(text("systemPrompt", f.systemPrompt), (v) => readPromptArgument(v, baseCwd)),
    tools,
    cwd,
    ...(remote !== undefined ? { remote } : {}),
    bashYieldMs,
    passKeys: f.passKeys,
    trustProject: f.trustProject ?? false,
    ...(sandbox !== undefined ? { sandbox: sandbox as SandboxChoice } : {}),
    printSystemPrompt: f.printSystemPrompt ?? false,
    mouse: f.mouse ?? false,
    help: f.help ?? false,
    version: f.version ?? false,
  };
}

function parseToolList(value: string): string[] {
  const names = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError("--tools needs at least one tool name, or read-only");
  return names;
}

/** --api-key, or the first line of --api-key-file (not both). */
function keyOption(key: string | undefined, file: string | undefined): string | undefined {
  if (file === undefined) return key;
  if (key !== undefined) throw new UsageError("--api-key and --api-key-file both give a key: use one");
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--api-key-file: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const line = text.split(/\r?\n/, 1)[0]!.trim();
  if (!line) throw new UsageError(`--api-key-file: ${file} holds no key on its first line`);
  return line;
}

function readPromptArgument(value: string, baseCwd: string): string {
  if (!value.startsWith("@")) return value;
  const path = resolve(baseCwd, value.slice(1));
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(`--system-prompt ${value}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function mapDefined<T, R>(value: T | undefined, fn: (value: T) => R): R | undefined {
  return value === undefined ? undefined : fn(value);
}
