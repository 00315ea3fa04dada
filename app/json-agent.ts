// One agent of JSON mode: its commands run in the order they came (messages, compactions, rewinds
// and forks one after another; a steer or follow-up joins the run in progress), and what goes wrong
// with one is an `error` event on its bus. json-mode.ts reads the lines and hands each agent its own.
import { promptWhenIdle, untilIdle } from "../agent/agent.js";
import { BranchError, type RewindTarget } from "../agent/session-control.js";
import { expandPromptCommand } from "../agent/resources/prompt-commands.js";
import type { Setup } from "./session-setup.js";

export type JsonCommand =
  | { type: "message"; content: string }
  | { type: "steer"; content: string }
  | { type: "follow_up"; content: string }
  | { type: "compact"; instructions?: string }
  /** `prompt`: the n-th of the person's messages counting back from the newest (1: the last); `to`: a record id. */
  | ({ type: "rewind"; files?: boolean } & RewindTarget)
  | { type: "fork" }
  | { type: "interrupt" };

type Work = { prompt: string } | { compact: string | undefined } | { rewind: RewindTarget; files: boolean } | { fork: true };

export class JsonAgent {
  private readonly waiting: Work[] = [];
  private running: Promise<void> | undefined;
  /** Whether what runs is a prompt (a steer or follow-up can join it) rather than a compaction, rewind or fork. */
  private promptRunning = false;

  constructor(readonly setup: Setup) {}

  /** Carries out one command of input line `lineNumber`. */
  handle(command: JsonCommand, lineNumber: number): void {
    const { agent, bus } = this.setup.coding;
    if ("content" in command) {
      // A prompt template (/review src/app.ts) or /skill:name goes as the text it stands for.
      const expanded = expandPromptCommand(command.content, this.setup.resources);
      if (expanded && "problem" in expanded) {
        bus.emit({ type: "error", message: `Input line ${lineNumber}: ${expanded.problem}`, source: "input" });
        return;
      }
      if (expanded) command.content = expanded.prompt;
    }
    // A steer or follow-up during a compaction has no run to join: it waits its turn as a message.
    // With nothing of ours running, a run a watch trigger started (wake) takes them too.
    const busy = this.running !== undefined ? this.promptRunning : agent.state.isStreaming;
    if (command.type === "interrupt") agent.abort();
    else if (command.type === "compact") this.queue({ compact: command.instructions });
    else if (command.type === "rewind") this.queue({ rewind: "to" in command ? { to: command.to } : { prompt: command.prompt }, files: command.files ?? false });
    else if (command.type === "fork") this.queue({ fork: true });
    else if (command.type === "steer" && busy) agent.steer(command.content);
    else if (command.type === "follow_up" && busy) agent.followUp(command.content);
    // A new message while busy waits its turn; a steer or follow-up when idle is simply a message.
    else this.queue({ prompt: command.content });
  }

  /** Nobody reads any more: what waits is dropped and the turn aborted. */
  abandon(): void {
    this.waiting.length = 0;
    this.setup.coding.agent.abort();
  }

  /** Resolves once what runs and what waits is done. */
  async finished(): Promise<void> {
    while (this.running) await this.running;
  }

  private queue(work: Work): void {
    this.waiting.push(work);
    this.runNext();
  }

  private runNext(): void {
    if (this.running) return;
    const next = this.waiting.shift();
    if (next === undefined) return;
    this.running = this.start(next).finally(() => {
      this.running = undefined;
      this.runNext();
    });
  }

  private async start(item: Work): Promise<void> {
    const { agent, bus } = this.setup.coding;
    // What stops a command is said as an error event; the next command runs all the same.
    const failed = (error: unknown): void => {
      bus.emit({ type: "error", message: error instanceof Error ? error.message : String(error), source: error instanceof BranchError ? "input" : "session" });
    };
    this.promptRunning = "prompt" in item;
    // A run a watch trigger started (wake) finishes first; nothing can start between it and the prompt.
    if ("prompt" in item) {
      return promptWhenIdle(agent, item.prompt).catch((error: unknown) => {
        bus.emit({ type: "error", message: `The message could not be run: ${error instanceof Error ? error.message : String(error)}`, source: "input" });
      });
    }
    await untilIdle(agent);
    // Their results are on the bus (branch_change, session_forked).
    if ("rewind" in item) return this.setup.coding.rewind(item.rewind, { files: item.files }).then(() => undefined, failed);
    if ("fork" in item) return this.setup.coding.fork().then(() => undefined, failed);
    return agent.compact(item.compact).then((result) => {
      // A compaction that ran or failed is on the bus already; one with nothing to do says why.
      if (result.note) bus.emit({ type: "error", message: result.note, source: "input" });
    }, failed);
  }
}
