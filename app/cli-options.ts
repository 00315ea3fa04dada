// Parses pitwall's command line (meow) into plain options. Unknown flags and bad values throw a
// UsageError whose one-line message the entry point prints before exiting with 2.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import meow from "meow";
import { THINKING_LEVELS, type ThinkingLevel } from "../agent/messages.js";
import { DEFAULT_MODELS, isProviderName, OPENAI_APIS, type OpenAIApi, type ProviderName } from "../agent/models.js";
import { compactAtProblem, contextWindowProblem, parseTokenCount } from "./context-options.js";

export class UsageError extends Error {}

export interface CliOptions {
  prompts: string[];
  print: boolean;
  json: boolean;
  continue: boolean;
  resume: boolean;
  sessionFile?: string;
  noSession: boolean;
  sessionDir?: string;
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
  bashYieldMs?: number;
  /** --pass-keys: leave the provider keys in the environment of commands and jobs. */
  passKeys?: boolean;
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

  Model
    --model <id>              A known id (${DEFAULT_MODELS.anthropic}, ${DEFAULT_MODELS.openai}, …) or provider/id (openai/llama3.1)
    --provider <name>         anthropic | openai
    --base-url <url>          An OpenAI-compatible server (Ollama, llama.cpp, vLLM); also OPENAI_BASE_URL,
                              ANTHROPIC_BASE_URL for Anthropic-compatible gateways
    --api-key <key>           Instead of ANTHROPIC_API_KEY / OPENAI_API_KEY
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
    --bash-yield-ms <ms>      How long bash and bash_stream wait before yielding (default 60000; PITWALL_BASH_YIELD_MS)
    --pass-keys               Leave ANTHROPIC_API_KEY / OPENAI_API_KEY in the environment of commands and
                              jobs (removed by default; config.json: "passKeysToTools": true)
    --print-system-prompt     Show the system prompt and what it loaded, then exit
    --mouse                   Let the mouse wheel scroll panes (the terminal's own selection stops working)

  Jobs (they run in this folder's job host, and may outlive the dashboard)
    pitwall jobs [list]       List this folder's jobs with their status
    pitwall jobs stop ID|all  Stop jobs, with every process they started
    pitwall jobs tail ID [-f] A job's last lines; -f follows them (pitwall jobs --help)

    --version                 Show the version
    --help                    Show this help

  Examples
    $ pitwall
    $ pitwall "make the tests pass"
    $ pitwall -p "summarise README.md" > summary.txt
    $ pitwall --continue
    $ pitwall --provider openai --base-url http://localhost:11434/v1 --model qwen2.5-coder
    $ echo '{"type":"message","content":"list the files"}' | pitwall --json
`;

const FLAGS = {
  print: { type: "boolean", shortFlag: "p", default: false },
  json: { type: "boolean", default: false },
  continue: { type: "boolean", shortFlag: "c", default: false },
  resume: { type: "boolean", shortFlag: "r", default: false },
  // A string flag; `--no-session` arrives as session === false.
  session: { type: "string" },
  sessionDir: { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  baseUrl: { type: "string" },
  apiKey: { type: "string" },
  api: { type: "string" },
  thinking: { type: "string" },
  contextWindow: { type: "string" },
  compactAt: { type: "string" },
  systemPrompt: { type: "string" },
  tools: { type: "string" },
  cwd: { type: "string" },
  bashYieldMs: { type: "string" },
  passKeys: { type: "boolean" },
  printSystemPrompt: { type: "boolean", default: false },
  mouse: { type: "boolean", default: false },
  help: { type: "boolean", shortFlag: "h", default: false },
  version: { type: "boolean", shortFlag: "v", default: false },
} as const;

const KNOWN = new Set<string>(Object.keys(FLAGS));
const SHORT = new Set(["p", "c", "r", "h", "v"]);

export function parseCliArgs(argv: string[], baseCwd: string = process.cwd()): CliOptions {
  const cli = meow(HELP, {
    importMeta: import.meta,
    argv,
    flags: FLAGS,
    allowUnknownFlags: true, // reported below as one line, not meow's two
    autoHelp: false,
    autoVersion: false,
    booleanDefault: undefined,
  });
  for (const key of Object.keys(cli.flags)) {
    if (!KNOWN.has(key) && !SHORT.has(key)) throw new UsageError(`unknown flag ${key.length === 1 ? "-" : "--"}${kebab(key)}`);
  }
  const f = cli.flags;
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
  const session = f.session as string | boolean | undefined;
  const sessionFile = typeof session === "string" ? text("session", session) : undefined;
  if (f.json && f.print) throw new UsageError("--json and --print are different modes: pick one");
  const resumeFlags = [f.continue && "--continue", f.resume && "--resume", sessionFile !== undefined && "--session"].filter(Boolean);
  if (resumeFlags.length > 1) throw new UsageError(`${resumeFlags.join(" and ")} each pick a session: use one`);
  if (session === false && resumeFlags.length > 0) throw new UsageError(`--no-session cannot be combined with ${resumeFlags[0]}`);

  return {
    prompts: cli.input.map(String),
    print: f.print,
    json: f.json,
    continue: f.continue,
    resume: f.resume,
    sessionFile: sessionFile === undefined ? undefined : resolve(baseCwd, sessionFile),
    noSession: session === false,
    sessionDir: mapDefined(text("sessionDir", f.sessionDir), (d) => resolve(baseCwd, d)),
    model: text("model", f.model),
    provider: provider as ProviderName | undefined,
    baseUrl,
    apiKey: text("apiKey", f.apiKey),
    api: api as OpenAIApi | undefined,
    thinking: thinking as ThinkingLevel | undefined,
    contextWindow,
    compactAt,
    systemPrompt: mapDefined(text("systemPrompt", f.systemPrompt), (v) => readPromptArgument(v, baseCwd)),
    tools,
    cwd,
    bashYieldMs,
    passKeys: f.passKeys,
    printSystemPrompt: f.printSystemPrompt,
    mouse: f.mouse,
    help: f.help,
    version: f.version,
  };
}

function parseToolList(value: string): string[] {
  const names = value.split(",").map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError("--tools needs at least one tool name, or read-only");
  return names;
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
