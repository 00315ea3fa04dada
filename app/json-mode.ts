// JSON mode: commands arrive as JSON lines on stdin ({"type":"message"|"steer"|"follow_up",
// "content":…}, {"type":"compact","instructions"?:…}, {"type":"rewind","prompt":n|"to":id,
// "files"?:bool}, {"type":"fork"} or {"type":"interrupt"}); every bus event leaves as one JSON line
// on stdout, in order, as it happens (a rewind's result is a `branch_change` event, a fork's a
// `session_forked`; a rewind that cannot be done is an `error` event saying why). A malformed line
// becomes an `error` event naming the line, and the process keeps going. EOF lets the current and
// queued work finish, then exits 0 (1 when part of the conversation could not be saved to the
// session file). A reader that goes away (stdout closed: EPIPE) or a terminal that hangs up (SIGHUP)
// ends it cleanly too: the turn is aborted, every job is stopped, and the exit code is 0.
//
// Several agents: a command with `"agent":"<name>"` goes to that agent, started with the first
// command that names it (its own conversation, queue and session file; the folder's jobs shared,
// each agent's its own to stop). Its events carry `"agent":"<name>"`; the first agent's (no name,
// or "main") carry none, as with one agent.
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { PitwallEvent } from "../agent/events.js";
import { FIRST_AGENT, badAgentName } from "./agent-roster.js";
import type { CliOptions } from "./cli-options.js";
import { JsonAgent, type JsonCommand } from "./json-agent.js";
import { closeSession, createSetup, type Setup } from "./session-setup.js";
import type { Settings } from "./settings.js";
import { installJobCleanup } from "../tools/jobs/index.js";
import { localServerOffer, probeLocalServers } from "../agent/providers/local-servers.js";

export type { JsonCommand } from "./json-agent.js";

const EXAMPLE = '{"type":"message","content":"…"}';

/** Parses one input line; returns an explanation instead when the line is not a command. */
export function parseJsonCommand(line: string): (JsonCommand & { agent?: string }) | { problem: string } {
  const parsed = parseCommand(line);
  if ("problem" in parsed) return parsed;
  const agent = (JSON.parse(line) as { agent?: unknown }).agent;
  if (agent === undefined || agent === FIRST_AGENT) return parsed;
  if (typeof agent !== "string") return { problem: 'has an "agent" that is not a string (the name of an agent, e.g. "tests")' };
  const bad = badAgentName(agent, []);
  return bad ? { problem: `names an agent that cannot be: ${bad}` } : { ...parsed, agent };
}

function parseCommand(line: string): JsonCommand | { problem: string } {
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

/** Starts another agent for JSON mode; undefined where only one agent can run (a test's own setup). */
export type MakeJsonAgent = (name: string) => Promise<Setup>;

export async function runJsonMode(setup: Setup, input: Readable, output: Writable, makeAgent?: MakeJsonAgent): Promise<number> {
  const { bus } = setup.coding;
  let readerGone = false;
  const writer = (name: string | undefined) => (event: PitwallEvent): void => {
    if (!readerGone) output.write(`${JSON.stringify(name === undefined ? event : { ...event, agent: name })}\n`);
  };
  const unsubscribe = [bus.subscribe(writer(undefined))];
  for (const warning of setup.warnings) bus.emit({ type: "error", message: warning, source: "config" });
  for (const warning of setup.sessionWarnings) bus.emit({ type: "error", message: warning, source: "session" });
  if (setup.missingKey) {
    // A local server that is running is offered (never used without the person saying so).
    const offer = localServerOffer(await probeLocalServers(setup.settings.localProbeMs !== undefined ? { deadlineMs: setup.settings.localProbeMs } : {}));
    bus.emit({ type: "error", message: offer ? `${setup.missingKey} ${offer}` : setup.missingKey, source: "config" });
  }

  const first = new JsonAgent(setup);
  // Named agents, made with the first command that names them; their commands wait for them in order.
  const named = new Map<string, Promise<JsonAgent | undefined>>();
  const agentNamed = (name: string, lineNumber: number): Promise<JsonAgent | undefined> => {
    let made = named.get(name);
    if (!made) {
      made = makeAgent
        ? makeAgent(name).then(
            (other) => {
              unsubscribe.push(other.coding.bus.subscribe(writer(name)));
              return new JsonAgent(other);
            },
            (error: unknown) => {
              bus.emit({ type: "error", message: `Input line ${lineNumber}: agent ${name} could not start: ${error instanceof Error ? error.message : String(error)}`, source: "input" });
              return undefined;
            },
          )
        : Promise.resolve(undefined);
      named.set(name, made);
    }
    return made;
  };
  const everyAgent = async (): Promise<JsonAgent[]> => [first, ...(await Promise.all(named.values())).filter((a): a is JsonAgent => a !== undefined)];

  const lines = createInterface({ input, crlfDelay: Infinity });
  // Nobody reads what we write any more: stop the work and end as if input had ended. The listener
  // stays, so a later write's error is swallowed too instead of crashing the exit.
  output.on("error", (error: NodeJS.ErrnoException) => {
    if (!READER_GONE.has(error.code ?? "")) throw error;
    if (readerGone) return;
    readerGone = true;
    void everyAgent().then((agents) => agents.forEach((agent) => agent.abandon()));
    lines.close();
  });
  let lineNumber = 0;
  // Commands for a named agent go in order after it has started.
  let handOver = Promise.resolve();
  for await (const line of lines) {
    lineNumber++;
    if (!line.trim()) continue;
    const command = parseJsonCommand(line);
    if ("problem" in command) {
      bus.emit({ type: "error", message: `Input line ${lineNumber} ${command.problem}.`, source: "input" });
      continue;
    }
    const { agent: name, ...rest } = command;
    const at = lineNumber;
    if (name === undefined) {
      first.handle(rest, at);
      continue;
    }
    if (!makeAgent) {
      bus.emit({ type: "error", message: `Input line ${at} names agent ${name}, but this run has one agent only: leave "agent" out.`, source: "input" });
      continue;
    }
    const target = agentNamed(name, at);
    handOver = handOver.then(() => target).then((agent) => agent?.handle(rest, at));
  }
  // EOF: finish what is running and what is waiting, in every agent.
  await handOver;
  const agents = await everyAgent();
  await Promise.all(agents.map((agent) => agent.finished()));
  let failedToSave = false;
  for (const agent of agents) {
    const unsaved = closeSession(agent.setup);
    if (unsaved) agent.setup.coding.bus.emit({ type: "error", message: unsaved, source: "session" });
    failedToSave ||= unsaved !== undefined;
  }
  for (const stop of unsubscribe) stop();
  await Promise.all(agents.filter((agent) => agent !== first).map((agent) => agent.setup.dispose()));
  return failedToSave ? 1 : 0;
}

export async function runJsonModeFromCli(options: CliOptions, settings: Settings): Promise<number> {
  const setup = await createSetup(options, settings, { jobClient: "json", agentName: FIRST_AGENT });
  // A closed terminal (SIGHUP) is an ordinary end for a JSON client: clean up and exit 0.
  const uninstall = installJobCleanup(setup.coding.jobs, { guard: setup.guard, exitCodes: { SIGHUP: 0 } });
  try {
    const makeAgent: MakeJsonAgent = (name) =>
      createSetup({ ...options, prompts: [], continue: false, resume: false, sessionFile: undefined }, settings, { jobClient: "json", fresh: true, agentName: name, guard: setup.guard, sharedFiles: setup.sharedFiles });
    return await runJsonMode(setup, process.stdin, process.stdout, makeAgent);
  } finally {
    setup.session?.close();
    await setup.dispose();
    uninstall();
  }
}
