// What Enter does with the input: a slash command, a prompt template or /skill:name (sent as the
// text it stands for), a `!command` of the person's, or a message; a
// message is a prompt while the agent is idle, a steering message while it works (a follow-up with
// Alt+Enter), with the images its chips stand for. What is sent before the agent has loaded, while
// /compact runs or while the session moves (a rewind, a branch switch) waits and goes once it can.
import type { ImageContent } from "../agent/messages.js";
import type { ImageAttachment } from "../panes/input/input-pane.js";
import type { BranchFlow } from "./branch-flow.js";
import type { DashboardCommon } from "./dashboard-common.js";
import type { QueueFlow } from "./queue-flow.js";
import { expandPromptCommand } from "../agent/resources/prompt-commands.js";
import { SLASH_COMMANDS } from "./slash-commands.js";

/** `/name …` that is no built-in command: a prompt template or /skill:name, once the agent has loaded. */
const PROMPT_COMMAND = /^\s*\/([A-Za-z][\w-]*(?::[\w-]+)?)(?:\s|$)/;
const BUILT_IN = new Set(SLASH_COMMANDS.map((c) => c.name));

export type SendKind = "enter" | "followUp";

export interface SendHost {
  readonly queue: Pick<QueueFlow, "endEditing">;
  readonly branches: Pick<BranchFlow, "moving">;
  /** Runs `text` as a slash command; false when it is not one. */
  command(text: string): boolean;
  /** Runs the person's `!command`. */
  shell(command: string): void;
}

interface Waiting {
  text: string;
  kind: SendKind;
  images: ImageAttachment[];
}

export class SendFlow {
  /** Sent before the agent loaded, or while /compact runs or the session moves: sent once it is ready. */
  private readonly waiting: Waiting[] = [];
  private compactingNow = false;

  constructor(
    private readonly common: DashboardCommon,
    private readonly host: SendHost,
  ) {}

  /** /compact is running: what is sent waits for it. */
  get compacting(): boolean {
    return this.compactingNow;
  }

  /**
   * What Enter (or Alt+Enter) does with the input's text (and the images its chips stand for); a
   * follow-up taken back with Up stays one.
   */
  submitInput(kind: SendKind): void {
    const input = this.common.view.input;
    // A command's arguments stay text, even one that names an image.
    const command = /^\s*[/!]/.test(input.buffer.text);
    const images = command ? [] : input.takeImages();
    const text = input.value;
    if (!text.trim()) return;
    input.history.add(input.buffer.text);
    input.reset();
    const sendAs = this.host.queue.endEditing() === "follow_up" ? "followUp" : kind;
    this.send(text, sendAs, images);
    this.common.view.chat.toBottom();
    this.common.requestFrame();
  }

  send(typed: string, kind: SendKind, images: ImageAttachment[] = []): void {
    const { view } = this.common;
    const name = PROMPT_COMMAND.exec(typed)?.[1]?.toLowerCase();
    let text = typed;
    if (name !== undefined && !BUILT_IN.has(name)) {
      const setup = this.common.setup();
      // Templates and skills are known once the agent has loaded: the command waits for it.
      if (!setup) {
        this.waiting.push({ text, kind, images });
        view.chat.notice("info", `Waiting for the agent to load: /${name} runs then.`);
        return;
      }
      const expanded = expandPromptCommand(typed, setup.resources);
      if (expanded && "problem" in expanded) return this.common.notice("error", expanded.problem);
      if (expanded) text = expanded.prompt;
    }
    if (text === typed && this.host.command(text)) return;
    if (text.startsWith("!")) {
      const command = text.slice(1).trim();
      if (!command) this.common.notice("error", "Type a command after the !, e.g. !git status. It runs in the working directory; its output shows in the tool-output pane.");
      else this.host.shell(command);
      return;
    }
    const setup = this.common.setup();
    if (!setup) {
      this.waiting.push({ text, kind, images });
      view.chat.notice("info", `Waiting for the agent to load: "${text.length > 60 ? `${text.slice(0, 59)}…` : text}" will be sent then.`);
      return;
    }
    const agent = setup.coding.agent;
    // A message sent: the person is done reading an older tool call; the pane follows what comes next.
    view.followLiveTool();
    if (this.compactingNow || this.host.branches.moving) {
      this.waiting.push({ text, kind, images });
      const after = this.compactingNow ? "compacting ends" : "the session has moved";
      view.chat.notice("info", `Sent once ${after}: "${text.length > 60 ? `${text.slice(0, 59)}…` : text}".`);
      return;
    }
    if (images.length > 0) {
      void this.sendWithImages(text, kind, images);
      return;
    }
    if (agent.state.isStreaming) {
      if (kind === "followUp") agent.followUp(text);
      else agent.steer(text);
      return;
    }
    const missing = this.common.missingKey();
    if (missing) {
      view.chat.log.handle({ type: "message_start", message: { role: "user", content: text, origin: "prompt", timestamp: Date.now() } });
      view.chat.notice("error", `Not sent: ${missing}`);
      return;
    }
    agent.prompt(text).catch((error: unknown) => {
      view.chat.notice("error", `The prompt could not start: ${error instanceof Error ? error.message : String(error)}`);
      this.common.requestFrame();
    });
  }

  /** The agent has loaded: what was sent before goes now, each as it was sent. */
  agentLoaded(): void {
    for (const item of this.waiting.splice(0)) this.send(item.text, item.kind, item.images);
  }

  /** What was sent while a compaction or a rewind ran: the first as a prompt, the rest as follow-ups. */
  settled(): void {
    const [first, ...rest] = this.waiting.splice(0);
    if (first) this.send(first.text, "enter", first.images);
    for (const item of rest) this.send(item.text, "followUp", item.images);
    this.common.requestFrame();
  }

  /** /compact: compacts the conversation now; what is sent meanwhile waits for it. */
  compact(instructions: string): void {
    const agent = this.common.setup()?.coding.agent;
    if (!agent) return this.common.notice("warning", "The agent is still loading; try again in a moment.");
    if (agent.state.isStreaming) return this.common.notice("warning", "The agent is working: /compact once it is idle (Esc stops it).");
    const missing = this.common.missingKey();
    if (missing) return this.common.notice("error", `Not compacted: ${missing}`);
    this.compactingNow = true;
    agent
      .compact(instructions)
      .then(
        (result) => {
          // A compaction that ran (or failed) is in the chat already, from its events.
          if (result.note) this.common.notice("info", result.note);
        },
        (error: unknown) => {
          this.common.notice("error", `Compacting could not start: ${error instanceof Error ? error.message : String(error)}`);
        },
      )
      .finally(() => {
        this.compactingNow = false;
        this.common.view.status.state.phase = "idle";
        this.settled();
      });
  }

  /**
   * Reads and prepares the attached images (sharp loads on the first one), then sends them with the
   * text. Anything that stops them (a text-only model, a file that is not an image) is said in the
   * chat, and the text comes back into the input with its chips so nothing typed is lost.
   */
  private async sendWithImages(text: string, kind: SendKind, attachments: ImageAttachment[]): Promise<void> {
    const { view } = this.common;
    const agent = this.common.setup()!.coding.agent;
    const giveBack = (reason: string): void => {
      this.common.notice("error", `Not sent: ${reason}`);
      if (view.input.buffer.isEmpty) view.input.setText(text);
      this.common.requestFrame();
    };
    if (agent.state.model.textOnly) return giveBack(`${agent.state.model.id} takes text only; switch to a model that reads images (/model) or remove the image.`);
    const missing = this.common.missingKey();
    if (missing) return giveBack(missing);
    this.common.flash(`reading ${attachments.map((a) => a.name).join(", ")}…`);
    this.common.requestFrame();
    let images: ImageContent[];
    try {
      const { loadImageFile } = await import("../tools/images/image-prepare.js");
      images = await Promise.all(attachments.map(async (a) => a.image ?? (await loadImageFile(a.path!, a.name)).image));
    } catch (error) {
      return giveBack(error instanceof Error ? error.message : String(error));
    }
    try {
      if (agent.state.isStreaming) {
        if (kind === "followUp") agent.followUp(text, images);
        else agent.steer(text, images);
      } else {
        agent.prompt(text, images).catch((error: unknown) => {
          this.common.notice("error", `The prompt could not start: ${error instanceof Error ? error.message : String(error)}`);
          this.common.requestFrame();
        });
      }
    } catch (error) {
      giveBack(error instanceof Error ? error.message : String(error));
    }
    this.common.requestFrame();
  }
}
