// Writes the session as it happens: each completed message, model change, thinking change and
// compaction is appended as one whole line with an id of its own. The file is created with the
// first message, so a session that never said anything leaves nothing behind. Secrets in use (API
// keys) are replaced before any write. Memory stays flat: counts instead of the messages, and the
// ids of the messages still in the conversation (what a compaction record points into).
import { randomUUID } from "node:crypto";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EventBus } from "./event-bus.js";
import type { PitwallEvent } from "./events.js";
import type { Message, ThinkingLevel, ToolResultMessage } from "./messages.js";
import { toolCallsOf } from "./messages.js";
import { INTERRUPTED_RESULT } from "./providers/transcript.js";
import { newRecordId } from "./session-ids.js";
import { sessionFolder, type CompactionRecord, type SessionHeader, type SessionLine } from "./session-file.js";
import { countMessage, loadSession, type LoadedSession, type LoadOptions, type SessionStats as FileStats } from "./session-load.js";

export interface SessionStats extends FileStats {
  path: string;
  id: string;
}

export interface NewSessionOptions {
  root: string;
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
  /** Values never written to disk (API keys); replaced by [redacted]. */
  secrets?: string[];
}

export interface OpenSessionOptions extends LoadOptions {
  secrets?: string[];
}

type CompactionEnd = Extract<PitwallEvent, { type: "compaction_end" }>;

export class SessionStore {
  private written: boolean;
  private readonly counts: FileStats;
  /** Ids of every record in the file. */
  private readonly ids: Set<string>;
  /** Ids of the message records the conversation still holds, oldest first. */
  private contextIds: string[];

  private constructor(
    readonly path: string,
    private header: SessionHeader,
    private readonly secrets: string[],
    existing: LoadedSession | undefined,
  ) {
    this.written = existing !== undefined;
    this.counts = existing ? { ...existing.stats } : { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cost: null };
    this.ids = existing?.ids ?? new Set();
    this.contextIds = existing ? [...existing.messageIds] : [];
  }

  static create(options: NewSessionOptions): SessionStore {
    const now = new Date();
    const id = randomUUID();
    const name = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
    const header: SessionHeader = {
      type: "session",
      version: 1,
      id,
      timestamp: now.toISOString(),
      cwd: options.cwd,
      provider: options.provider,
      model: options.model,
      thinkingLevel: options.thinkingLevel,
      pitwallVersion: options.pitwallVersion,
    };
    return new SessionStore(join(sessionFolder(options.root, options.cwd), name), header, cleanSecrets(options.secrets), undefined);
  }

  /**
   * Opens an existing session to continue it, streamed (see session-load.ts). Tool calls left
   * without a result (pitwall was killed mid-call) are closed with an error result, appended to the
   * file, so the provider accepts it.
   */
  static async open(path: string, options: OpenSessionOptions = {}): Promise<{ store: SessionStore; session: LoadedSession }> {
    const session = await loadSession(path, options);
    const store = new SessionStore(path, session.header, cleanSecrets(options.secrets), session);
    for (const result of unansweredCalls(session.messages)) {
      store.recordMessage(result);
      session.messages.push(result);
    }
    return { store, session };
  }

  get id(): string {
    return this.header.id;
  }

  /** Records what the bus says: completed messages, model and thinking changes, compactions. */
  attach(bus: EventBus<PitwallEvent>): () => void {
    return bus.subscribe((event) => {
      if (event.type === "message_end") this.recordMessage(event.message);
      else if (event.type === "model_change") this.append({ type: "model_change", id: this.newId(), provider: event.provider, model: event.model, timestamp: new Date().toISOString() });
      else if (event.type === "thinking_change") this.append({ type: "thinking_change", id: this.newId(), level: event.level, timestamp: new Date().toISOString() });
      else if (event.type === "compaction_end" && event.summary !== undefined) this.recordCompaction(event, event.summary);
    });
  }

  recordMessage(message: Message): void {
    const id = this.newId();
    this.contextIds.push(id);
    countMessage(this.counts, message);
    this.append({ type: "message", id, message });
  }

  /**
   * A compaction: the summary stands for everything before the `messagesKept` newest messages of
   * the conversation, which this record names by the id of the first of them.
   */
  recordCompaction(event: CompactionEnd, summary: string): void {
    const kept = Math.min(event.messagesKept, this.contextIds.length);
    const firstKeptId = kept > 0 ? this.contextIds[this.contextIds.length - kept]! : null;
    this.contextIds = kept > 0 ? this.contextIds.slice(-kept) : [];
    const record: CompactionRecord = {
      type: "compaction",
      id: this.newId(),
      summary,
      firstKeptId,
      reason: event.reason,
      tokensBefore: event.tokensBefore,
      tokensAfter: event.tokensAfter,
      messagesSummarized: event.messagesSummarized,
      timestamp: new Date().toISOString(),
    };
    this.append(record);
  }

  stats(): SessionStats {
    return { path: this.path, id: this.id, ...this.counts };
  }

  /** True once the file exists on disk. */
  get persisted(): boolean {
    return this.written;
  }

  private newId(): string {
    return newRecordId(this.ids);
  }

  private append(line: Exclude<SessionLine, SessionHeader>): void {
    // Model or thinking changes before the first message only update the header.
    if (!this.written && line.type !== "message") {
      if (line.type === "model_change") this.header = { ...this.header, provider: line.provider, model: line.model };
      if (line.type === "thinking_change") this.header = { ...this.header, thinkingLevel: line.level };
      return;
    }
    let text = "";
    if (!this.written) {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      text += this.serialise(this.header);
      this.written = true;
    }
    text += this.serialise(line);
    // One append per record: a crash can at worst cut the last line, which loading skips.
    appendFileSync(this.path, text, { mode: 0o600 });
  }

  private serialise(line: SessionLine): string {
    let json = JSON.stringify(line);
    for (const secret of this.secrets) json = json.split(secret).join("[redacted]");
    return `${json}\n`;
  }
}

function cleanSecrets(secrets: string[] | undefined): string[] {
  // Very short values would redact ordinary text; real keys are long.
  return (secrets ?? []).filter((s) => s.length >= 8);
}

/** Calls of the last assistant message that have no result (pitwall stopped while they ran). */
function unansweredCalls(messages: Message[]): ToolResultMessage[] {
  let i = messages.length - 1;
  while (i >= 0 && messages[i]!.role === "toolResult") i--;
  const last = messages[i];
  if (last?.role !== "assistant") return [];
  const answered = new Set(messages.slice(i + 1).map((m) => (m as ToolResultMessage).toolCallId));
  return toolCallsOf(last)
    .filter((call) => !answered.has(call.id))
    .map((call) => ({ role: "toolResult", toolCallId: call.id, toolName: call.name, content: INTERRUPTED_RESULT, isError: true, timestamp: Date.now() }));
}
