// Slash commands typed in the input (/help, /model, /thinking, /clear, /session, /skills, /new, /context, /compact,
// /rewind, /tree, /fork, /export, /jobs, /tail, /kill, /restart, /run, /watch, /unwatch, /agent, /agents, /stop, /quit), their
// completion on Tab (prompt templates and /skill:name too, with their descriptions), and the answer
// to an unknown command: shown in the chat, never sent to the model. The commands act through a
// small interface the dashboard implements.
import { THINKING_LEVELS, type ThinkingLevel } from "../agent/messages.js";
import type { WatchAction } from "../tools/jobs/index.js";
import { isSandboxProfile, SANDBOX_PROFILES, type SandboxProfile } from "../tools/sandbox/index.js";
import { DEFAULT_PERSON_ACTION, parseWatchInput } from "./watch-input.js";

/** What the job commands ask of the dashboard's job control (app/job-control.ts). */
export interface SlashJobControl {
  /** /jobs: the job list gets the focus. */
  focus(): void;
  /** The jobs' ids, for completion. */
  ids(): string[];
  /** The last `count` lines of a job's log, in the tool-output pane. */
  tail(id: string, count?: number): void;
  /** Stops a job: TERM, then KILL after the grace period. */
  stop(id: string | undefined): void;
  /** Runs a job again: under `profile` when given (the person may loosen the sandbox), else under its own. */
  restart(id: string | undefined, profile?: SandboxProfile): void;
  /** Starts a job of the person's. */
  run(command: string): void;
  watch(id: string, pattern: string, action: WatchAction): void;
  /** Removes one trigger of a job, or all of them. */
  unwatch(id: string | undefined, triggerId?: number): void;
  /** The triggers of one job, or of every job, in the chat. */
  listWatches(id?: string): void;
}

export interface SlashContext {
  /** Undefined where there is no job control (a test of the other commands). */
  jobControl?: SlashJobControl;
  notice(level: "info" | "warning" | "error", text: string): void;
  showHelp(): void;
  setModel(spec: string): void;
  setThinking(level: ThinkingLevel): void;
  quit(): void;
  /** /agent …: new [name] [--worktree], or a name to put in the chat; alone, the overview. */
  agentCommand(args: string): void;
  /** /agents: every agent, its state, last line, cost, context and changed files. */
  showAgents(): void;
  /** The agents' names, for completion. */
  agentNames(): string[];
  /** Ends the agent's turn now (what Esc does while it works). */
  stopTurn(): void;
  showSession(): void;
  newSession(): void;
  showContext(): void;
  /** Compacts the conversation now; `instructions` (may be "") focus the summary. */
  compact(instructions: string): void;
  /** Lists the person's messages to go back to before one (what Esc Esc does). */
  rewind(): void;
  /** Shows the session's branches to switch to one. */
  showTree(): void;
  /** Copies the current branch into a new session file and continues there. */
  fork(): void;
  /** Writes the current branch as Markdown to `file` ("" for the default name). */
  exportBranch(file: string): void;
  /** /skills: lists the skills and prompt templates loaded, and what trust left out. */
  showSkills(): void;
  /** Prompt templates and skills as commands (/review, /skill:name), for completion; empty until loaded. */
  promptCommands(): PromptCommandInfo[];
  modelIds(): string[];
  currentModel(): string;
  currentThinking(): ThinkingLevel;
}

/** A command that stands for a prompt: a template (/review) or a skill (/skill:name). */
export interface PromptCommandInfo {
  name: string;
  description: string;
}

export interface SlashCommand {
  name: string;
  args?: string;
  description: string;
  run(ctx: SlashContext, args: string): void;
  /** Candidates for the argument. */
  complete?(ctx: SlashContext): string[];
}

export const SLASH_COMMANDS: SlashCommand[] = [
  { name: "help", description: "Show the key bindings and commands", run: (ctx) => ctx.showHelp() },
  {
    name: "model",
    args: "<id>",
    description: "Switch the model (a known id, or provider/id for a local server's model)",
    run: (ctx, args) => {
      if (!args) {
        ctx.notice("info", `Model: ${ctx.currentModel()}. Known models: ${ctx.modelIds().join(", ")}. Use /model <id> (or provider/id).`);
        return;
      }
      ctx.setModel(args);
    },
    complete: (ctx) => ctx.modelIds(),
  },
  {
    name: "thinking",
    args: "<level>",
    description: `Set the thinking level (${THINKING_LEVELS.join(", ")})`,
    run: (ctx, args) => {
      if (!args) {
        ctx.notice("info", `Thinking: ${ctx.currentThinking()}. Levels: ${THINKING_LEVELS.join(", ")}.`);
        return;
      }
      const level = args.toLowerCase();
      if (!(THINKING_LEVELS as readonly string[]).includes(level)) {
        ctx.notice("error", `"${args}" is not a thinking level: use one of ${THINKING_LEVELS.join(", ")}.`);
        return;
      }
      ctx.setThinking(level as ThinkingLevel);
    },
    complete: () => [...THINKING_LEVELS],
  },
  {
    name: "clear",
    description: "Start a new conversation: chat, tool output and files start empty, in a new session file (jobs keep running; Ctrl+L redraws the screen)",
    run: (ctx) => ctx.newSession(),
  },
  { name: "session", description: "Show the session file and its statistics", run: (ctx) => ctx.showSession() },
  {
    name: "skills",
    description: "List the skills and prompt templates loaded (/skill:name puts a skill into the conversation, /name runs a template)",
    run: (ctx) => ctx.showSkills(),
  },
  { name: "new", description: "The same as /clear", run: (ctx) => ctx.newSession() },
  { name: "context", description: "Show how full the context window is and where the tokens go (system prompt, AGENTS.md, tools, messages, tool results, summary)", run: (ctx) => ctx.showContext() },
  {
    name: "compact",
    args: "[instructions]",
    description: "Compact the conversation now: the model summarises the older turns (optionally focused on what you say), the newest stay word for word",
    run: (ctx, args) => ctx.compact(args),
  },
  {
    name: "rewind",
    description: "Go back to before one of your messages (also Esc Esc on an empty input): it comes back into the input, optionally with the files the agent changed since",
    run: (ctx) => ctx.rewind(),
  },
  { name: "tree", description: "Show the branches of this session (your messages as a tree) and continue from any of them", run: (ctx) => ctx.showTree() },
  { name: "fork", description: "Copy the current branch into a new session file and continue there", run: (ctx) => ctx.fork() },
  {
    name: "export",
    args: "[file]",
    description: "Write the current branch as Markdown (tool calls folded) to file, or to pitwall-<date>-<session>.md in the working directory",
    run: (ctx, args) => ctx.exportBranch(args),
  },
  { name: "jobs", description: "Focus the jobs list", run: (ctx) => withJobs(ctx, (jobs) => jobs.focus()) },
  {
    name: "tail",
    args: "<id> [n]",
    description: "Show the last n lines (default 50) of a job's output in the tool-output pane",
    run: (ctx, args) => {
      const [id, n, extra] = args.split(/\s+/).filter((p) => p);
      const count = n === undefined ? undefined : Number(n);
      if (!id || extra !== undefined || (count !== undefined && !(Number.isInteger(count) && count > 0))) {
        ctx.notice("error", "Usage: /tail <job id> [lines], e.g. /tail 2 100 (lines: a positive whole number, default 50).");
        return;
      }
      withJobs(ctx, (jobs) => jobs.tail(id, count));
    },
    complete: (ctx) => ctx.jobControl?.ids() ?? [],
  },
  {
    name: "kill",
    args: "<id>",
    description: "Stop a job (TERM, then KILL after a grace period)",
    run: (ctx, args) => withJobId(ctx, "kill", args, (jobs, id) => jobs.stop(id)),
    complete: (ctx) => ctx.jobControl?.ids() ?? [],
  },
  {
    name: "restart",
    args: "<id> [profile]",
    description: "Run a job again as it was, or under another sandbox profile",
    run: (ctx, args) => {
      const [id, profile, ...rest] = args.split(/\s+/).filter((part) => part);
      if (id === undefined || rest.length > 0 || (profile !== undefined && !isSandboxProfile(profile))) {
        ctx.notice("error", `Usage: /restart <job id> [${SANDBOX_PROFILES.join("|")}], e.g. /restart 2, or /restart 2 off to run it without the sandbox. The jobs pane lists the ids.`);
        return;
      }
      withJobs(ctx, (jobs) => jobs.restart(id, profile as SandboxProfile | undefined));
    },
    complete: (ctx) => ctx.jobControl?.ids() ?? [],
  },
  {
    name: "run",
    args: "<command>",
    description: "Start a background job of yours (the agent sees it in list_processes)",
    run: (ctx, args) => {
      if (!args) {
        ctx.notice("error", "Usage: /run <command>, e.g. /run npm run dev. It runs in the working directory as a job; !<command> runs a one-off command instead.");
        return;
      }
      withJobs(ctx, (jobs) => jobs.run(args));
    },
  },
  {
    name: "watch",
    args: "<id> <regex> [action]",
    description: `Watch a job's output: lines matching the regex reach the agent (action notify, steer, follow-up or wake; ${DEFAULT_PERSON_ACTION} by default). /watch alone, or /watch <id>, lists the triggers`,
    run: (ctx, args) => {
      const [id, ...rest] = args.split(/\s+/).filter((p) => p);
      if (rest.length === 0) return withJobs(ctx, (jobs) => jobs.listWatches(id));
      const parsed = parseWatchInput(args.replace(/^\S+/, ""));
      if ("problem" in parsed) return ctx.notice("error", `Usage: /watch <job id> <regex> [action]. ${parsed.problem}`);
      withJobs(ctx, (jobs) => jobs.watch(id!, parsed.pattern, parsed.action));
    },
    complete: (ctx) => ctx.jobControl?.ids() ?? [],
  },
  {
    name: "unwatch",
    args: "<id> [n]",
    description: "Remove a job's watch trigger n, or all its triggers",
    run: (ctx, args) => {
      const [id, n, extra] = args.split(/\s+/).filter((p) => p);
      const triggerId = n === undefined ? undefined : Number(n);
      if (!id || extra !== undefined || (triggerId !== undefined && !(Number.isInteger(triggerId) && triggerId > 0))) {
        return ctx.notice("error", "Usage: /unwatch <job id> [trigger number], e.g. /unwatch 2 1; without the number, all of the job's triggers go. /watch lists them.");
      }
      withJobs(ctx, (jobs) => jobs.unwatch(id, triggerId));
    },
    complete: (ctx) => ctx.jobControl?.ids() ?? [],
  },
  {
    name: "agent",
    args: "new [name] [--worktree] [--sandbox <profile>] | close <name> | <name>",
    description: "Start another agent (its own conversation, queue and session file; --worktree: in a new git worktree on a new branch; --sandbox: its commands under that profile), close one, or put one in the chat",
    run: (ctx, args) => ctx.agentCommand(args),
    complete: (ctx) => ["new", ...ctx.agentNames()],
  },
  { name: "agents", description: "Show every agent: state, last line, cost, context, changed files; steer, follow up or stop one from there", run: (ctx) => ctx.showAgents() },
  { name: "stop", description: "Stop the agent's turn now, as Esc does (background jobs keep running)", run: (ctx) => ctx.stopTurn() },
  { name: "quit", description: "Quit pitwall (asks first while jobs run, then ends every job)", run: (ctx) => ctx.quit() },
];

function withJobs(ctx: SlashContext, run: (jobs: SlashJobControl) => void): void {
  if (!ctx.jobControl) {
    ctx.notice("warning", "Jobs are not available yet; try again in a moment.");
    return;
  }
  run(ctx.jobControl);
}

function withJobId(ctx: SlashContext, name: string, args: string, run: (jobs: SlashJobControl, id: string) => void): void {
  const parts = args.split(/\s+/).filter((p) => p);
  if (parts.length !== 1) {
    ctx.notice("error", `Usage: /${name} <job id>, e.g. /${name} 2. The jobs pane lists the ids.`);
    return;
  }
  withJobs(ctx, (jobs) => run(jobs, parts[0]!));
}

export interface ParsedSlash {
  name: string;
  args: string;
}

/** `/name args` → parts; undefined when the text is not a command (a path like /usr/bin is one). */
export function parseSlash(text: string): ParsedSlash | undefined {
  const m = /^\/([A-Za-z][\w-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  return { name: m[1]!.toLowerCase(), args: (m[2] ?? "").trim() };
}

/** Runs a command; returns false when `text` is not a slash command at all. */
export function runSlash(text: string, ctx: SlashContext): boolean {
  const parsed = parseSlash(text);
  if (!parsed) return false;
  const command = SLASH_COMMANDS.find((c) => c.name === parsed.name);
  if (!command) {
    const near = SLASH_COMMANDS.filter((c) => c.name.startsWith(parsed.name.slice(0, 2))).map((c) => `/${c.name}`);
    ctx.notice(
      "warning",
      `Unknown command /${parsed.name}${near.length ? ` (did you mean ${near.join(" or ")}?)` : ""}. Commands: ${SLASH_COMMANDS.map((c) => `/${c.name}`).join(" ")}. It was not sent to the model.`,
    );
    return true;
  }
  command.run(ctx, parsed.args);
  return true;
}

export interface Completion {
  /** The input text after completing (unchanged when nothing fits). */
  text: string;
  /** Everything that fits, for showing when several do. */
  candidates: string[];
}

/** What a completion candidate that is a command (`/review`) does: a template's first line; undefined for other candidates. */
export function describeCandidate(candidate: string, ctx: SlashContext): string | undefined {
  if (!candidate.startsWith("/")) return undefined;
  const name = candidate.slice(1);
  return [...SLASH_COMMANDS, ...ctx.promptCommands()].find((c) => c.name === name)?.description;
}

function commonPrefix(words: string[]): string {
  if (words.length === 0) return "";
  let prefix = words[0]!;
  for (const w of words) while (!w.startsWith(prefix)) prefix = prefix.slice(0, -1);
  return prefix;
}

/** Completes a command name or its argument; undefined when the text is not a command being typed. */
export function completeSlash(text: string, ctx: SlashContext): Completion | undefined {
  const nameOnly = /^\/([\w:-]*)$/.exec(text);
  if (nameOnly) {
    const partial = nameOnly[1]!.toLowerCase();
    const commands = [...SLASH_COMMANDS, ...ctx.promptCommands()].filter((c) => c.name.toLowerCase().startsWith(partial));
    const names = commands.map((c) => c.name);
    if (names.length === 0) return { text, candidates: [] };
    if (names.length === 1) return { text: `/${names[0]} `, candidates: names.map((n) => `/${n}`) };
    return { text: `/${commonPrefix(names)}`, candidates: names.map((n) => `/${n}`) };
  }
  const withArg = /^\/([\w-]+)\s+(\S*)$/.exec(text);
  if (withArg) {
    const command = SLASH_COMMANDS.find((c) => c.name === withArg[1]!.toLowerCase());
    if (!command?.complete) return undefined;
    const partial = withArg[2]!;
    const options = command.complete(ctx).filter((o) => o.startsWith(partial));
    if (options.length === 0) return { text, candidates: [] };
    const completed = options.length === 1 ? options[0]! : commonPrefix(options);
    return { text: `/${command.name} ${completed}`, candidates: options };
  }
  return undefined;
}
