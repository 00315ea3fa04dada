// JSON mode: commands arrive as JSON lines on stdin ({"type":"message"|"steer"|"follow_up",
// "content":…}, {"type":"compact","instructions"?:…}, {"type":"rewind","prompt":n|"to":id,
// "files"?:bool}, {"type":"fork"} or {"type":"interrupt"}); every bus event leaves as one JSON line
// on stdout, in order, as it happens (a rewind's result is a `branch_change` event, a fork's a
// `session_forked`; a rewind that cannot be done is an `error` event saying why). A malformed line
// becomes an `error` event naming the line, and the process keeps going. EOF lets the current and
// queued work finish, then exits 0 (1 when part of the conversation could not be saved to the
// session file). A reader that goes away (stdout closed: EPIPE) or a terminal that hangs up (SIGHUP)
// ends it cleanly too: the turn is aborted, every job is stopped, and the exit code is 0.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import { promptWhenIdle, untilIdle } from "../agent/agent.js";
import type { PitwallEvent } from "../agent/events.js";
import { BranchError, type RewindTarget } from "../agent/session-control.js";
import type { CliOptions } from "./cli-options.js";
import { closeSession, createSetup, type Setup } from "./session-setup.js";
import type { Settings } from "./settings.js";
import { installJobCleanup } from "../tools/jobs/index.js";
import { expandPromptCommand } from "../agent/resources/prompt-commands.js";
import { localServerOffer, probeLocalServers } from "../agent/providers/local-servers.js";

export type JsonCommand =
  | { type: "message"; content: string }
  | { type: "steer"; content: string }
  | { type: "follow_up"; content: string }
  | { type: "compact"; instructions?: string }
  /** `prompt`: the n-th of the person's messages counting back from the newest (1: the last); `to`: a record id. */
  | ({ type: "rewind"; files?: boolean } & RewindTarget)
  | { type: "fork" }
  | { type: "interrupt" };

const EXAMPLE = '{"type":"message","content":"…"}';

/** Parses one input line; returns an explanation instead when the line is not a command. */
export function parseJsonCommand(line: string): JsonCommand | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { problem: `is not valid JSON (${(error as Error).message}); expected e.g. ${EXAMPLE}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return { problem: `is not a JSON object; expected e.g. ${EXAMPLE}` };
  const { type, content, instructions } = value as { type?: unknown; content?: unknown; instructions?: unknown };
  if (type === "interrupt" || type === "fork") return { type };
  if (type === "rewind") return parseRewind(value as { to?: unknown; prompt?: unknown; files?: unknown });
  if (type === "compact") {
    if (instructions !== undefined && typeof instructions !== "string") return { problem: 'has type "compact" but "instructions" is not a string' };
    return instructions ? { type, instructions } : { type };
  }
  if (type === "message" || type === "steer" || type === "follow_up") {
    if (typeof content !== "string" || content.trim() === "") return { problem: `has type "${type}" but no "content" string` };
    return { type, content };
  }
  return { problem: `has unknown type ${JSON.stringify(type)}: use message, steer, follow_up, compact, rewind, fork or interrupt` };
}

function parseRewind({ to, prompt, files }: { to?: unknown; prompt?: unknown; files?: unknown }): JsonCommand | { problem: string } {
  if (files !== undefined && typeof files !== "boolean") return { problem: 'has type "rewind" but "files" is not true or false' };
  const withFiles = files === undefined ? {} : { files };
  if (to !== undefined && prompt !== undefined) return { problem: 'has type "rewind" with both "to" and "prompt": give one' };
  if (typeof to === "string" && to) return { type: "rewind", to, ...withFiles };
  if (typeof prompt === "number" && Number.isInteger(prompt) && prompt >= 1) return { type: "rewind", prompt, ...withFiles };
  return { problem: 'has type "rewind" but neither "prompt" (1 for your last message, 2 for the one before…) nor "to" (a record id)' };
}

/** Errors of a stdout whose reader is gone. */
const READER_GONE = new Set(["EPIPE", "ECONNRESET", "EIO", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);

export async function runJsonMode(setup: Setup, input: Readable, output: Writable): Promise<number> {
  const { agent, bus } = setup.coding;
  let readerGone = false;
  const unsubscribe = bus.subscribe((event: PitwallEvent) => {
    if (!readerGone) output.write(`${JSON.stringify(event)}\n`);
  });
  for (const warning of setup.warnings) bus.emit({ type: "error", message: warning, source: "config" });
  for (const warning of setup.sessionWarnings) bus.emit({ type: "error", message: warning, source: "session" });
  if (setup.missingKey) {
    // A local server that is running is offered (never used without the person saying so).
    const offer = localServerOffer(await probeLocalServers({ deadlineMs: setup.settings.localProbeMs }));
    bus.emit({ type: "error", message: offer ? `${setup.missingKey} ${offer}` : setup.missingKey, source: "config" });
  }

  // Messages, compactions, rewinds and forks run one after another, in the order they came.
  const waiting: Array<{ prompt: string } | { compact: string | undefined } | { rewind: RewindTarget; files: boolean } | { fork: true }> = [];
  let running: Promise<void> | undefined;
  // Whether what runs is a prompt (a steer or follow-up can join it) rather than a compaction, rewind or fork.
  let promptRunning = false;
  // What stops a command is said as an error event; the next command runs all the same.
  const failed = (error: unknown): void => {
    bus.emit({ type: "error", message: error instanceof Error ? error.message : String(error), source: error instanceof BranchError ? "input" : "session" });
  };
  const promptFailed = (error: unknown): void => {
    bus.emit({ type: "error", message: `The message could not be run: ${error instanceof Error ? error.message : String(error)}`, source: "input" });
  };
  const start = async (item: (typeof waiting)[number]): Promise<void> => {
    promptRunning = "prompt" in item;
    // A run a watch trigger started (wake) finishes first; nothing can start between it and the prompt.
    if ("prompt" in item) return promptWhenIdle(agent, item.prompt).catch(promptFailed);
    await untilIdle(agent);
    // Their results are on the bus (branch_change, session_forked).
    if ("rewind" in item) return setup.coding.rewind(item.rewind, { files: item.files }).then(() => undefined, failed);
    if ("fork" in item) return setup.coding.fork().then(() => undefined, failed);
    return agent.compact(item.compact).then((result) => {
      // A compaction that ran or failed is on the bus already; one with nothing to do says why.
      if (result.note) bus.emit({ type: "error", message: result.note, source: "input" });
    }, failed);
  };
  const runNext = (): void => {
    if (running) return;
    const next = waiting.shift();
    if (next === undefined) return;
    running = start(next).finally(() => {
      running = undefined;
      runNext();
    });
  };

  const lines = createInterface({ input, crlfDelay: Infinity });
  // Nobody reads what we write any more: stop the work and end as if input had ended. The listener
  // stays, so a later write's error is swallowed too instead of crashing the exit.
  output.on("error", (error: NodeJS.ErrnoException) => {
    if (!READER_GONE.has(error.code ?? "")) throw error;
    if (readerGone) return;
    readerGone = true;
    waiting.length = 0;
    agent.abort();
    lines.close();
  });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    const command = parseJsonCommand(line);
    if ("problem" in command) {
      bus.emit({ type: "error", message: `Input line ${lineNumber} ${command.problem}.`, source: "input" });
      continue;
    }
    if ("content" in command) {
      // A prompt template (/review src/app.ts) or /skill:name goes as the text it stands for.
      const expanded = expandPromptCommand(command.content, setup.resources);
      if (expanded && "problem" in expanded) {
        bus.emit({ type: "error", message: `Input line ${lineNumber}: ${expanded.problem}`, source: "input" });
        continue;
      }
      if (expanded) command.content = expanded.prompt;
    }
    // A steer or follow-up during a compaction has no run to join: it waits its turn as a message.
    // With nothing of ours running, a run a watch trigger started (wake) takes them too.
    const busy = running !== undefined ? promptRunning : agent.state.isStreaming;
    if (command.type === "interrupt") agent.abort();
    else if (command.type === "compact") {
      waiting.push({ compact: command.instructions });
      runNext();
    } else if (command.type === "rewind") {
      waiting.push({ rewind: "to" in command ? { to: command.to } : { prompt: command.prompt }, files: command.files ?? false });
      runNext();
    } else if (command.type === "fork") {
      waiting.push({ fork: true });
      runNext();
    }
    else if (command.type === "steer" && busy) agent.steer(command.content);
    else if (command.type === "follow_up" && busy) agent.followUp(command.content);
    else {
      // A new message while busy waits its turn; a steer or follow-up when idle is simply a message.
      waiting.push({ prompt: command.content });
      runNext();
    }
  }
  // EOF: finish what is running and what is waiting.
  while (running) await running;
  const unsaved = closeSession(setup);
  if (unsaved) bus.emit({ type: "error", message: unsaved, source: "session" });
  unsubscribe();
  return unsaved ? 1 : 0;
}

export async function runJsonModeFromCli(options: CliOptions, settings: Settings): Promise<number> {
  const setup = await createSetup(options, settings, { jobClient: "json" });
  // A closed terminal (SIGHUP) is an ordinary end for a JSON client: clean up and exit 0.
  const uninstall = installJobCleanup(setup.coding.jobs, { guard: setup.guard, exitCodes: { SIGHUP: 0 } });
  try {
    return await runJsonMode(setup, process.stdin, process.stdout);
  } finally {
    setup.session?.close();
    await setup.dispose();
    uninstall();
  }
}
