// The current branch of a session as Markdown, to share it or paste it into an issue: the person's
// messages and the agent's text as they were, each tool call folded with its result in a
// <details> block, thinking folded too, compactions marked where they happened (with the summary
// the model saw from there on, folded). Read from the session file, streamed, so the whole branch
// is exported (what a compaction replaced included) without holding it in memory; without a
// session file, from the conversation in memory.
import { summaryFromMessage } from "../context/summary-prompt.js";
import type { AssistantMessage, ImageContent, Message, ToolCall, ToolResultMessage, UserMessage } from "../messages.js";
import { toolCallsOf } from "../messages.js";
import { describeToolCall } from "../../tools/tool-call-summary.js";
import { lineRecordId } from "./session-ids.js";
import { readLines } from "./session-load.js";
import { SessionLineChecker, type CompactionRecord, type SessionHeader } from "./session-file.js";
import type { SessionTreeView } from "./session-tree.js";

/** What the export shows, in the branch's order. */
export type BranchItem =
  | { kind: "message"; message: Message }
  | { kind: "compaction"; compaction: Pick<CompactionRecord, "summary" | "reason" | "tokensBefore" | "tokensAfter" | "messagesSummarized" | "timestamp"> }
  | { kind: "model"; provider: string; model: string };

export interface ExportHeading {
  header?: SessionHeader;
  /** The session file, when there is one. */
  path?: string;
  /** Branches of the file that are not the exported one. */
  otherBranches?: number;
  now?: Date;
}

/** The records of the branch ending at the tree's current leaf, read from the file in order. */
export async function* branchItemsFromFile(path: string, tree: SessionTreeView): AsyncGenerator<BranchItem> {
  const onBranch = new Set(tree.pathTo().map((node) => node.id));
  if (onBranch.size === 0) return;
  const checker = new SessionLineChecker(path);
  for await (const { text, number } of readLines(path)) {
    const record = checker.check(text, number);
    if (!record || record.type === "leaf") continue;
    const id = record.id ?? lineRecordId(number);
    const line = tree.get(id)?.line;
    if (!onBranch.has(line === undefined || line === 0 || line === number ? id : lineRecordId(number))) continue;
    if (record.type === "message") yield { kind: "message", message: record.message };
    else if (record.type === "compaction") yield { kind: "compaction", compaction: record };
    else if (record.type === "model_change") yield { kind: "model", provider: record.provider, model: record.model };
  }
}

/** A conversation in memory (no session file): a leading summary is shown as a compaction. */
export function* branchItemsFromMessages(messages: readonly Message[]): Generator<BranchItem> {
  for (const message of messages) {
    if (message.role === "user" && message.origin === "summary") {
      const timestamp = new Date(message.timestamp).toISOString();
      yield { kind: "compaction", compaction: { summary: summaryFromMessage(message.content), reason: "manual", tokensBefore: 0, tokensAfter: 0, messagesSummarized: 0, timestamp } };
    } else yield { kind: "message", message };
  }
}

const pad = (n: number): string => String(n).padStart(2, "0");
function day(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
function clock(date: Date): string {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** A fenced block whose fence is longer than any run of backticks inside it. */
export function fenced(text: string, language = ""): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => (line ? `> ${line}` : ">"))
    .join("\n");
}

function imageNote(images: readonly ImageContent[] | undefined): string {
  if (!images?.length) return "";
  const notes = images.map((image) => `_[image: ${image.mimeType}, ${Math.round((image.data.length * 3) / 4 / 1024)} KB]_`);
  return `${notes.join("\n")}\n\n`;
}

function details(summary: string, body: string): string {
  return `<details>\n<summary>${escapeHtml(summary)}</summary>\n\n${body}\n\n</details>\n\n`;
}

function tokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}

/** Renders the branch, a piece at a time. */
export async function* branchMarkdown(items: AsyncIterable<BranchItem> | Iterable<BranchItem>, heading: ExportHeading = {}): AsyncGenerator<string> {
  const now = heading.now ?? new Date();
  const header = heading.header;
  const lines = ["# pitwall session", ""];
  if (header) {
    const started = new Date(header.timestamp);
    lines.push(`- **Session:** \`${header.id}\`${heading.path ? ` (\`${heading.path}\`)` : ""}`);
    lines.push(`- **Started:** ${day(started)} ${clock(started)} in \`${header.cwd}\``);
    lines.push(`- **Model:** ${header.provider}/${header.model}`);
  }
  const others = heading.otherBranches ?? 0;
  lines.push(`- **Exported:** ${day(now)} ${clock(now)}: the current branch${others > 0 ? ` (${others} other branch${others === 1 ? "" : "es"} of this session left out)` : ""}`);
  yield `${lines.join("\n")}\n\n---\n\n`;

  let lastDay: string | undefined;
  const when = (timestamp: number): string => {
    const date = new Date(timestamp);
    if (!Number.isFinite(date.getTime()) || timestamp <= 0) return "";
    const today = day(date);
    const text = today === lastDay ? clock(date) : `${today} ${clock(date)}`;
    lastDay = today;
    return ` · ${text}`;
  };
  // Calls wait for their results, which come in the messages after the assistant's.
  let pending: ToolCall[] = [];
  const flushPending = function* (): Generator<string> {
    for (const call of pending) yield details(`${describeToolCall(call.name, call.arguments)} (no result: the call was interrupted)`, `Arguments:\n\n${fenced(JSON.stringify(call.arguments, null, 2), "json")}`);
    pending = [];
  };

  for await (const item of items) {
    if (item.kind === "message" && item.message.role === "toolResult") {
      const result: ToolResultMessage = item.message;
      const at = pending.findIndex((call) => call.id === result.toolCallId);
      const call = at >= 0 ? pending.splice(at, 1)[0] : undefined;
      const title = `${result.isError ? "✗" : "✓"} ${describeToolCall(result.toolName, call?.arguments ?? {})}`;
      const args = call ? `Arguments:\n\n${fenced(JSON.stringify(call.arguments, null, 2), "json")}\n\n` : "";
      yield details(title, `${args}${result.isError ? "Error" : "Result"}:\n\n${fenced(result.content || "(empty)")}${result.images?.length ? `\n\n${imageNote(result.images).trim()}` : ""}`);
      continue;
    }
    yield* flushPending();
    if (item.kind === "model") {
      yield `_Model from here: ${item.provider}/${item.model}._\n\n`;
    } else if (item.kind === "compaction") {
      const c = item.compaction;
      const numbers = c.tokensBefore > 0 ? `, ${tokens(c.tokensBefore)} → ${tokens(c.tokensAfter)} tokens` : "";
      yield `**⟲ Compacted** (${c.reason}${numbers}): from here on the model saw the summary below in place of ${c.messagesSummarized > 0 ? `the ${c.messagesSummarized} messages` : "the messages"} above.\n\n`;
      yield details("Summary", c.summary);
    } else if (item.message.role === "user") {
      const message = item.message;
      if (message.origin === "notice") {
        yield `${quote(`**pitwall notice:** ${message.content.replace(/^\[pitwall notice\]\n?/, "")}`)}\n\n`;
        continue;
      }
      yield `## ${speaker(message)}${when(message.timestamp)}\n\n${imageNote(message.images)}${message.content}\n\n`;
    } else if (item.message.role === "assistant") {
      yield* assistantMarkdown(item.message, when(item.message.timestamp));
      pending = toolCallsOf(item.message);
    }
  }
  yield* flushPending();
}

/** Who a user-role message came from, as its heading says. */
function speaker(message: UserMessage): string {
  switch (message.origin ?? "prompt") {
    case "steer":
      return "You (steering, while the agent worked)";
    case "follow_up":
      return "You (follow-up)";
    case "summary":
      return "Summary";
    case "trigger":
      return `Watch trigger${message.trigger ? ` on job ${message.trigger.jobId} (${message.trigger.action})` : ""}`;
    default:
      return "You";
  }
}

function* assistantMarkdown(message: AssistantMessage, when: string): Generator<string> {
  let body = "";
  for (const part of message.content) {
    if (part.type === "text" && part.text.trim()) body += `${part.text.trim()}\n\n`;
    else if (part.type === "thinking" && !part.redacted && part.thinking.trim()) body += details("Thinking", part.thinking.trim());
  }
  if (message.stopReason === "error") body += `${quote(`✗ The request failed: ${message.errorMessage ?? "unknown error"}`)}\n\n`;
  else if (message.stopReason === "aborted") body += "_(aborted)_\n\n";
  else if (message.stopReason === "length") body += "_(cut off at the model's output limit)_\n\n";
  yield `## pitwall${when}\n\n${body}`;
}
