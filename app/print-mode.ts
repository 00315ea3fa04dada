// Print mode: runs the prompts in order and writes the assistant's text as plain text to stdout.
// Tool activity, retries, errors and the sandbox's notes (print-sandbox-notes.ts) go to stderr
// (dimmed on a terminal unless NO_COLOR), so stdout holds only the answer. Exits 0 when every prompt
// finished and was saved, non-zero with the error otherwise (a conversation that could not be saved
// to its session file is a failure).
//
// Each reply is on stdout once, even when a dropped stream was retried: into a pipe or a file every
// reply is written whole when it ends (what a script reading stdout needs); on a terminal it streams
// as it arrives (what a person watching wants), and a retry starts a new line, said on stderr.
import { promptWhenIdle } from "../agent/agent.js";
import type { PitwallEvent } from "../agent/events.js";
import type { AssistantMessage } from "../agent/messages.js";
import { describeToolCall } from "../tools/tool-call-summary.js";
import { formatWait } from "../panes/text/format.js";
import { closeSession, type Setup } from "./session-setup.js";
import { expandPromptCommand } from "../agent/resources/prompt-commands.js";
import { localServerOffer, probeLocalServers } from "../agent/providers/local-servers.js";
import { PrintSandboxNotes } from "./print-sandbox-notes.js";

// Control sequences never reach stdout: models occasionally echo them from tool output.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(\u0007|\u001b\\)|\u001b[@-_]|[\u0000-\u0008\u000b-\u001f\u007f]/g;

export function stripControl(text: string): string {
  return text.replace(ESCAPES, "");
}

export async function runPrintMode(setup: Setup, prompts: string[]): Promise<number> {
  const { agent } = setup.coding;
  const useColor = Boolean(process.stderr.isTTY) && !process.env.NO_COLOR;
  const note = (text: string): void => {
    process.stderr.write(useColor ? `\u001b[2m${text}\u001b[22m\n` : `${text}\n`);
  };
  for (const warning of [...setup.warnings, ...setup.sessionWarnings]) note(`pitwall: ${warning}`);
  setup.onRemoteStatus((text) => note(`pitwall: ${text}`));
  if (setup.missingKey) {
    // A local server that is running is offered (never used without the person saying so).
    const offer = localServerOffer(await probeLocalServers(setup.settings.localProbeMs !== undefined ? { deadlineMs: setup.settings.localProbeMs } : {}));
    process.stderr.write(`pitwall: ${setup.missingKey}\n${offer ? `pitwall: ${offer}\n` : ""}`);
    return 1;
  }

  const sandboxNotes = new PrintSandboxNotes(setup.coding.sandbox, setup.coding.jobs, (text) => note(`pitwall: ${text}`));
  const live = Boolean(process.stdout.isTTY);
  let atLineStart = true;
  /** Text of the reply being streamed already on the terminal (live only). */
  let shownOfReply = false;
  const out = (text: string): void => {
    if (!text) return;
    process.stdout.write(text);
    atLineStart = text.endsWith("\n");
  };
  const unsubscribe = agent.subscribe((event: PitwallEvent) => {
    sandboxNotes.event(event);
    switch (event.type) {
      case "message_update":
        if (live && event.delta.kind === "text_delta") {
          out(stripControl(event.delta.delta));
          shownOfReply = true;
        }
        break;
      case "message_end":
        if (event.message.role !== "assistant") break;
        if (!live) out(stripControl(replyText(event.message as AssistantMessage)));
        if (!atLineStart) out("\n");
        shownOfReply = false;
        break;
      case "tool_execution_start":
        note(`→ ${describeToolCall(event.toolName, event.args)}`);
        break;
      case "tool_execution_end":
        if (event.isError) note(`✗ ${event.toolName}: ${firstLine(event.content)}`);
        break;
      case "compaction_start":
        note(`compacting the conversation (${event.reason})…`);
        break;
      case "compaction_end":
        note(event.error ? `compacting failed: ${event.error}` : `compacted ${event.tokensBefore} → ${event.tokensAfter} tokens`);
        break;
      case "error":
        if (event.source === "session") note(`pitwall: ${event.message}`);
        break;
      case "wake_count":
        if (event.message) note(`pitwall: ${event.message}`);
        break;
      case "retry":
        if (shownOfReply) {
          if (!atLineStart) out("\n");
          note("(the reply above was cut off; it starts again below)");
          shownOfReply = false;
        }
        note(`retrying in ${formatWait(event.delayMs)}, attempt ${event.attempt}/${event.maxAttempts}: ${event.reason}`);
        break;
      default:
        break;
    }
  });

  try {
    for (const prompt of prompts) {
      // A prompt template (/review src/app.ts) or /skill:name goes as the text it stands for.
      const expanded = expandPromptCommand(prompt, setup.resources);
      if (expanded && "problem" in expanded) {
        process.stderr.write(`pitwall: ${expanded.problem}\n`);
        return 1;
      }
      if (expanded) note(`${prompt.trim().split(/\s/, 1)[0]}: ${expanded.from}`);
      // A run a watch trigger started (wake) finishes first; nothing can start between it and the prompt.
      await promptWhenIdle(agent, expanded ? expanded.prompt : prompt);
      const last = lastAssistant(agent.state.messages);
      if (last?.stopReason === "error") {
        process.stderr.write(`pitwall: ${last.errorMessage ?? "the model request failed"}\n`);
        return 1;
      }
      if (last?.stopReason === "aborted") {
        process.stderr.write("pitwall: aborted\n");
        return 130;
      }
      if (last?.stopReason === "length") {
        process.stderr.write(`pitwall: the reply was cut off: it reached the output limit of ${last.model} (max_tokens). What arrived is above; ask for a shorter answer or for the rest.\n`);
        return 1;
      }
    }
    await sandboxNotes.settled();
    const unsaved = closeSession(setup);
    if (unsaved) {
      process.stderr.write(`pitwall: ${unsaved}\n`);
      return 1;
    }
    return 0;
  } finally {
    unsubscribe();
  }
}

function replyText(message: AssistantMessage): string {
  return message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

function lastAssistant(messages: readonly { role: string }[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === "assistant") return messages[i] as AssistantMessage;
  return undefined;
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
