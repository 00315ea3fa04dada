// Loads a session file streamed, line by line, so memory follows what the model will be sent, not
// the size of the file. What is kept: the latest compaction's summary, and the newest messages
// after it that fit the model's budget. Messages before those (a long session that never
// compacted, or one resumed with a smaller model) stay on disk and are described as the "older
// part": its line range, read again when it is summarised. Counts for /session and the session
// list are gathered on the way.
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { OlderHistory } from "../context/compaction.js";
import { summaryMessageText, transcriptOf } from "../context/summary-prompt.js";
import { estimateMessageTokens } from "../context/token-estimate.js";
import type { Message, ThinkingLevel } from "../messages.js";
import { toolCallsOf } from "../messages.js";
import { lineRecordId } from "./session-ids.js";
import { recordValidators } from "./session-schema.js";
import { SessionFileError, SessionLineChecker, type CompactionRecord, type SessionHeader, type SessionRecord } from "./session-file.js";

export interface SessionStats {
  messages: number;
  userMessages: number;
  toolCalls: number;
  /** Tokens the provider counted, over every reply. */
  tokens: number;
  /** Of those, the ones read from the provider's prompt cache. */
  cachedTokens: number;
  /** Dollars, or null when no message had a known price. */
  cost: number | null;
}

/** Message records left on disk, by line number (1-based, inclusive). */
export interface OlderPart {
  /** The file they are in (a copy made of a session keeps reading its original). */
  path: string;
  fromLine: number;
  toLine: number;
  count: number;
  /** The oldest messages no summary will read (beyond the cost cap), when there are any. */
  omitted?: { count: number; fromLine: number; toLine: number };
}

export interface LoadedSession {
  path: string;
  header: SessionHeader;
  /** What the model is sent: the latest summary (when there is one) and the newest messages after it. */
  messages: Message[];
  /** Record ids of the messages after the summary, in order. */
  messageIds: string[];
  /** The latest compaction. */
  compaction?: CompactionRecord;
  /** Messages not loaded because they did not fit the budget; a compaction summarises them. */
  older?: OlderPart;
  /** The person's first prompt in the whole file (cut to 500 characters). */
  firstPrompt: string;
  stats: SessionStats;
  /** Every record id in the file, so new ones never collide. */
  ids: Set<string>;
  /** The model and thinking level in force at the end of the file. */
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  warnings: string[];
}

export interface LoadOptions {
  /** Tokens of newest messages to keep in memory while `model` is in force (default: all). */
  budgetFor?: (provider: string, model: string) => number;
  /** Most transcript tokens of the older part a summary reads (default: four budgets); older ones are omitted. */
  olderCapTokens?: number;
}

/** One line of a file with its number, streamed. */
export async function* readLines(path: string): AsyncGenerator<{ text: string; number: number }> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 64 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const text of lines) {
      number++;
      yield { text, number };
    }
  } finally {
    lines.close();
    stream.destroy();
  }
}

interface Entry {
  id: string;
  line: number;
  tokens: number;
  /** Length of the message as a summary transcript shows it. */
  transcriptChars: number;
  /** Dropped once the entry leaves the in-memory tail. */
  message: Message | undefined;
}

/** Whether the file's last byte is a newline (else its last line was torn by a crash mid-write). */
async function endsWithNewline(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

export async function loadSession(path: string, options: LoadOptions = {}): Promise<LoadedSession> {
  const checker = new SessionLineChecker(path);
  const notes: string[] = [];
  const ids = new Set<string>();
  const stats: SessionStats = { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cachedTokens: 0, cost: null };
  let provider = "";
  let model = "";
  let thinkingLevel: ThinkingLevel = "off";
  let firstPrompt: string | undefined;
  let compaction: CompactionRecord | undefined;
  let budget = Infinity;
  // Messages after the latest compaction's first kept one; only entries[tailStart…] hold their message.
  let entries: Entry[] = [];
  let tailStart = 0;
  let tailTokens = 0;
  const fitTail = (): void => {
    while (tailTokens > budget && tailStart < entries.length - 1) {
      const entry = entries[tailStart++]!;
      entry.message = undefined;
      tailTokens -= entry.tokens;
    }
  };

  let finalNewline: boolean;
  try {
    finalNewline = await endsWithNewline(path);
    for await (const { text, number } of readLines(path)) {
      const hadHeader = checker.header !== undefined;
      const record: SessionRecord | undefined = checker.check(text, number);
      if (!hadHeader && checker.header) {
        ({ provider, model, thinkingLevel } = checker.header);
        budget = options.budgetFor?.(provider, model) ?? Infinity;
      }
      if (!record) continue;
      const id = record.id ?? lineRecordId(number);
      ids.add(id);
      if (record.type === "message") {
        const message = record.message;
        countMessage(stats, message);
        if (firstPrompt === undefined && message.role === "user" && (message.origin ?? "prompt") === "prompt") firstPrompt = message.content.slice(0, 500);
        const tokens = estimateMessageTokens(message);
        entries.push({ id, line: number, tokens, transcriptChars: transcriptOf(message).length, message });
        tailTokens += tokens;
        fitTail();
      } else if (record.type === "compaction") {
        compaction = record;
        const kept = record.firstKeptId === null ? -1 : entries.findIndex((e) => e.id === record.firstKeptId);
        if (kept === -1 && record.firstKeptId !== null) notes.push(`${path}: a compaction names message ${record.firstKeptId}, which is not in the file; its summary alone is used.`);
        const dropped = kept === -1 ? entries.length : kept;
        entries = entries.slice(dropped);
        tailStart = Math.max(0, tailStart - dropped);
        tailTokens = entries.slice(tailStart).reduce((sum, e) => sum + e.tokens, 0);
      } else if (record.type === "model_change") {
        provider = record.provider;
        model = record.model;
        budget = options.budgetFor?.(provider, model) ?? Infinity;
        fitTail();
      } else if (record.type === "thinking_change") {
        thinkingLevel = record.level;
      }
    }
  } catch (error) {
    if (error instanceof SessionFileError) throw error;
    throw new SessionFileError(`Cannot open session ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const { header, warnings } = checker.finish(finalNewline);
  warnings.push(...notes);

  // The kept part never starts with a tool result whose call stayed on disk.
  while (tailStart < entries.length && entries[tailStart]!.message?.role === "toolResult") {
    entries[tailStart]!.message = undefined;
    tailStart++;
  }
  const tail = entries.slice(tailStart);
  const messages: Message[] = tail.map((e) => e.message!);
  if (compaction) messages.unshift({ role: "user", content: summaryMessageText(compaction.summary), origin: "summary", timestamp: Date.parse(compaction.timestamp) || 0 });
  return {
    path,
    header,
    messages,
    messageIds: tail.map((e) => e.id),
    compaction,
    older: olderPart(path, entries.slice(0, tailStart), options.olderCapTokens ?? 4 * budget),
    firstPrompt: firstPrompt ?? "",
    stats,
    ids,
    provider,
    model,
    thinkingLevel,
    warnings,
  };
}

/** The part left on disk, newest first up to the cap; anything older is named as omitted. */
function olderPart(path: string, left: Entry[], capTokens: number): OlderPart | undefined {
  if (left.length === 0) return undefined;
  let start = left.length;
  let chars = 0;
  while (start > 0 && chars + left[start - 1]!.transcriptChars <= capTokens * 4) chars += left[--start]!.transcriptChars;
  if (start === left.length) start--; // at least the newest one
  const part: OlderPart = { path, fromLine: left[start]!.line, toLine: left.at(-1)!.line, count: left.length - start };
  if (start > 0) part.omitted = { count: start, fromLine: left[0]!.line, toLine: left[start - 1]!.line };
  return part;
}

/** Adds one message to the counts /session and the session list show. */
export function countMessage(stats: SessionStats, message: Message): void {
  stats.messages++;
  if (message.role === "user") stats.userMessages++;
  if (message.role !== "assistant") return;
  stats.tokens += message.usage.totalTokens;
  stats.cachedTokens += message.usage.cacheRead;
  stats.toolCalls += toolCallsOf(message).length;
  if (message.usage.cost) stats.cost = (stats.cost ?? 0) + message.usage.cost.total;
}

/** The messages of an older part, read again from the file, oldest first. */
export async function* readOlderMessages(part: OlderPart): AsyncGenerator<Message> {
  for await (const { text, number } of readLines(part.path)) {
    if (number < part.fromLine) continue;
    if (number > part.toLine) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue; // A damaged line: it was named when the session was loaded.
    }
    if (recordValidators.message.check(value)) yield value.message;
  }
}

/** The older part of a loaded session as the context keeper reads it: again from the file, when summarised. */
export function olderHistoryOf(session: LoadedSession): OlderHistory | undefined {
  const part = session.older;
  if (!part) return undefined;
  const omitted = part.omitted
    ? `The ${part.omitted.count} oldest messages of this session (lines ${part.omitted.fromLine}–${part.omitted.toLine} of ${part.path}) are left out of this summary to keep its cost bounded.${session.firstPrompt ? ` The session began with the request: ${JSON.stringify(session.firstPrompt)}` : ""}`
    : undefined;
  return { count: part.count, omitted, messages: () => readOlderMessages(part) };
}
