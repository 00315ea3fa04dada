// Loads a session file streamed, line by line, so memory follows what the model will be sent, not
// the size of the file. The file is a tree (session-tree.ts): what is loaded is the branch ending at
// the current leaf. Of that branch what is kept is the latest compaction's summary, and the newest
// messages after it that fit the model's budget. Messages before those (a long session that never
// compacted, or one resumed with a smaller model) stay on disk and are described as the "older
// part": its line range and ids, read again when it is summarised. Counts for /session and the
// session list, and the tree itself (ids, parents, the person's messages, file changes), are
// gathered over the whole file on the way.
//
// One pass reads a file whose branch is the whole file (every file of one branch, old ones included);
// a file with branches is read a second time for the records of the current branch.
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
import { nodeOfRecord, SessionTree } from "./session-tree.js";
import type { WakeCount } from "../../tools/jobs/index.js";

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
  /** The ids of the branch's records, when the file has other branches whose lines lie in the range. */
  branch?: ReadonlySet<string>;
}

/** The branch ending at a leaf, as the model is sent it. */
export interface LoadedBranch {
  /** What the model is sent: the latest summary (when there is one) and the newest messages after it. */
  messages: Message[];
  /** Record ids of the messages after the summary, in order. */
  messageIds: string[];
  /** The latest compaction on the branch. */
  compaction?: CompactionRecord;
  /** Messages not loaded because they did not fit the budget; a compaction summarises them. */
  older?: OlderPart;
  /** The model and thinking level in force at the end of the branch. */
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
}

export interface LoadedSession extends LoadedBranch {
  path: string;
  header: SessionHeader;
  /** The person's first prompt in the whole file (cut to 500 characters). */
  firstPrompt: string;
  /** Over the whole file, every branch. */
  stats: SessionStats;
  /** Every record id in the file, so new ones never collide. */
  ids: Set<string>;
  /** Every record's place: ids, parents, the current leaf. */
  tree: SessionTree;
  /** The wake cap's count as it was last kept (the file's last `wake_count` record), when there is one. */
  wakes?: WakeCount;
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

/**
 * Follows one branch's records in order: keeps the newest messages within the budget of the
 * model in force, restarts from a compaction's kept messages, and remembers what it let go.
 */
class BranchReader {
  private provider: string;
  private model: string;
  private thinkingLevel: ThinkingLevel;
  private compaction: CompactionRecord | undefined;
  private budget: number;
  /** Messages after the latest compaction's first kept one; only entries[tailStart…] hold their message. */
  private entries: Entry[] = [];
  private tailStart = 0;
  private tailTokens = 0;
  readonly notes: string[] = [];

  constructor(
    private readonly path: string,
    header: SessionHeader,
    private readonly options: LoadOptions,
  ) {
    ({ provider: this.provider, model: this.model, thinkingLevel: this.thinkingLevel } = header);
    this.budget = options.budgetFor?.(this.provider, this.model) ?? Infinity;
  }

  add(record: SessionRecord, id: string, line: number): void {
    if (record.type === "message") {
      const message = record.message;
      const tokens = estimateMessageTokens(message);
      this.entries.push({ id, line, tokens, transcriptChars: transcriptOf(message).length, message });
      this.tailTokens += tokens;
      this.fitTail();
    } else if (record.type === "compaction") {
      this.compaction = record;
      const kept = record.firstKeptId === null ? -1 : this.entries.findIndex((e) => e.id === record.firstKeptId);
      if (kept === -1 && record.firstKeptId !== null) this.notes.push(`${this.path}: a compaction names message ${record.firstKeptId}, which is not in the file; its summary alone is used.`);
      const dropped = kept === -1 ? this.entries.length : kept;
      this.entries = this.entries.slice(dropped);
      this.tailStart = Math.max(0, this.tailStart - dropped);
      this.tailTokens = this.entries.slice(this.tailStart).reduce((sum, e) => sum + e.tokens, 0);
    } else if (record.type === "model_change") {
      this.provider = record.provider;
      this.model = record.model;
      this.budget = this.options.budgetFor?.(this.provider, this.model) ?? Infinity;
      this.fitTail();
    } else if (record.type === "thinking_change") {
      this.thinkingLevel = record.level;
    }
  }

  private fitTail(): void {
    while (this.tailTokens > this.budget && this.tailStart < this.entries.length - 1) {
      const entry = this.entries[this.tailStart++]!;
      entry.message = undefined;
      this.tailTokens -= entry.tokens;
    }
  }

  /** `branch`: the branch's ids when the file holds other records among them. */
  finish(branch: ReadonlySet<string> | undefined): LoadedBranch {
    const { entries } = this;
    // The kept part never starts with a tool result whose call stayed on disk.
    while (this.tailStart < entries.length && entries[this.tailStart]!.message?.role === "toolResult") {
      entries[this.tailStart]!.message = undefined;
      this.tailStart++;
    }
    const tail = entries.slice(this.tailStart);
    const messages: Message[] = tail.map((e) => e.message!);
    const compaction = this.compaction;
    if (compaction) messages.unshift({ role: "user", content: summaryMessageText(compaction.summary), origin: "summary", timestamp: Date.parse(compaction.timestamp) || 0 });
    const budget = this.options.budgetFor?.(this.provider, this.model) ?? Infinity;
    return {
      messages,
      messageIds: tail.map((e) => e.id),
      compaction,
      older: olderPart(this.path, entries.slice(0, this.tailStart), this.options.olderCapTokens ?? 4 * budget, branch),
      provider: this.provider,
      model: this.model,
      thinkingLevel: this.thinkingLevel,
    };
  }
}

/** A record's id: its own, or one from its line number (old files, and an id seen twice). */
function idOf(record: SessionRecord, line: number, taken: Set<string>): string {
  return record.id !== undefined && !taken.has(record.id) ? record.id : lineRecordId(line);
}

export async function loadSession(path: string, options: LoadOptions = {}): Promise<LoadedSession> {
  const checker = new SessionLineChecker(path);
  const notes: string[] = [];
  const ids = new Set<string>();
  const tree = new SessionTree();
  const stats: SessionStats = { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cachedTokens: 0, cost: null };
  let firstPrompt: string | undefined;
  let wakes: WakeCount | undefined;
  // Reads every record as if the file were one branch; right unless the file has others.
  let reader: BranchReader | undefined;

  let finalNewline: boolean;
  try {
    finalNewline = await endsWithNewline(path);
    for await (const { text, number } of readLines(path)) {
      const record: SessionRecord | undefined = checker.check(text, number);
      if (!reader && checker.header) reader = new BranchReader(path, checker.header, options);
      if (!record) {
        const opaque = checker.opaque;
        if (opaque && !ids.has(opaque.id)) {
          ids.add(opaque.id);
          const note = tree.add({ id: opaque.id, parentId: opaque.parentId, line: number, kind: "other" });
          if (note) notes.push(`${path}: ${note}.`);
        }
        continue;
      }
      const id = idOf(record, number, ids);
      ids.add(id);
      if (record.type === "leaf") {
        if (!tree.moveLeaf(record.parentId)) notes.push(`${path}: line ${number} moves the conversation to ${record.parentId}, which is not in the file; it was ignored.`);
        continue;
      }
      const note = tree.add(nodeOfRecord(record, id, number));
      if (note) notes.push(`${path}: ${note}.`);
      if (record.type === "wake_count") wakes = { unattended: record.unattended, told: record.told };
      if (record.type === "message") {
        const message = record.message;
        countMessage(stats, message);
        if (firstPrompt === undefined && message.role === "user" && (message.origin ?? "prompt") === "prompt") firstPrompt = message.content.slice(0, 500);
      }
      reader!.add(record, id, number);
    }
  } catch (error) {
    if (error instanceof SessionFileError) throw error;
    throw new SessionFileError(`Cannot open session ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
  }
  const { header, warnings } = checker.finish(finalNewline);
  const branch = tree.isStraight ? reader!.finish(undefined) : await loadBranch(path, header, tree, options);
  warnings.push(...notes, ...(tree.isStraight ? reader!.notes : []));
  return { path, header, ...branch, firstPrompt: firstPrompt ?? "", stats, ids, tree, ...(wakes ? { wakes } : {}), warnings };
}

/** The branch ending at `leafId` (the tree's current leaf by default), read from the file (again): only the records on it count. */
export async function loadBranch(path: string, header: SessionHeader, tree: SessionTree, options: LoadOptions = {}, leafId = tree.leafId): Promise<LoadedBranch> {
  const onBranch = new Set(tree.pathTo(leafId).map((node) => node.id));
  const reader = new BranchReader(path, header, options);
  const checker = new SessionLineChecker(path);
  if (onBranch.size > 0) {
    try {
      for await (const { text, number } of readLines(path)) {
        const record = checker.check(text, number);
        if (!record || record.type === "leaf") continue;
        const id = record.id ?? lineRecordId(number);
        // An id seen twice was given its line's id when the tree was built (records appended since have no line there).
        const line = tree.get(id)?.line;
        const known = line === undefined || line === 0 || line === number ? id : lineRecordId(number);
        if (onBranch.has(known)) reader.add(record, known, number);
      }
    } catch (error) {
      if (error instanceof SessionFileError) throw error;
      throw new SessionFileError(`Cannot read session ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}.`);
    }
  }
  return reader.finish(onBranch);
}

/** The part left on disk, newest first up to the cap; anything older is named as omitted. */
function olderPart(path: string, left: Entry[], capTokens: number, branch: ReadonlySet<string> | undefined): OlderPart | undefined {
  if (left.length === 0) return undefined;
  let start = left.length;
  let chars = 0;
  while (start > 0 && chars + left[start - 1]!.transcriptChars <= capTokens * 4) chars += left[--start]!.transcriptChars;
  if (start === left.length) start--; // at least the newest one
  const part: OlderPart = { path, fromLine: left[start]!.line, toLine: left.at(-1)!.line, count: left.length - start };
  if (start > 0) part.omitted = { count: start, fromLine: left[0]!.line, toLine: left[start - 1]!.line };
  if (branch) part.branch = branch;
  return part;
}

/** One record of the file, found by its id (`line`: where the tree saw it, 0 when unknown). */
export async function readRecord(path: string, id: string, line = 0): Promise<SessionRecord | undefined> {
  const checker = new SessionLineChecker(path);
  for await (const { text, number } of readLines(path)) {
    if (line > 0 && number < line && number > 1) continue;
    const record = checker.check(text, number);
    if (record && (record.id ?? lineRecordId(number)) === id) return record;
    if (line > 0 && number >= line) return undefined;
  }
  return undefined;
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

/** The messages of an older part, read again from the file, oldest first (of its branch only). */
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
    if (!recordValidators.message.check(value)) continue;
    if (part.branch && !part.branch.has(value.id ?? lineRecordId(number))) continue;
    yield value.message;
  }
}

/**
 * The older part of a loaded branch as the context keeper reads it: again from the file, when
 * summarised. `firstPrompt` (the conversation's first request) is named when the oldest are left out.
 */
export function olderHistoryOf(branch: LoadedBranch & { firstPrompt?: string }, firstPrompt = branch.firstPrompt): OlderHistory | undefined {
  const part = branch.older;
  if (!part) return undefined;
  const omitted = part.omitted
    ? `The ${part.omitted.count} oldest messages of this session (lines ${part.omitted.fromLine}–${part.omitted.toLine} of ${part.path}) are left out of this summary to keep its cost bounded.${firstPrompt ? ` The session began with the request: ${JSON.stringify(firstPrompt)}` : ""}`
    : undefined;
  return { count: part.count, omitted, messages: () => readOlderMessages(part) };
}
