// Writes the session as it happens: each completed message, model change, thinking change,
// compaction and file change is appended as one whole line with an id of its own and the id of the
// record it follows (the current leaf: session-tree.ts). Going back to an earlier point appends a
// `leaf` record; nothing is ever rewritten. The file is created with the first message, so a session
// that never said anything leaves nothing behind. Memory stays flat: counts instead of the messages,
// the tree's small nodes, and the ids of the messages still in the conversation (what a compaction
// record points into). The bytes go to disk through session-appender.ts (whole lines, secrets
// replaced, failures kept, retried and reported on the bus); copies are made by session-copy.ts.
// One pitwall writes a session at a time (session-lock.ts): opening one that another live pitwall
// writes fails with SessionLockedError, and the caller continues in a copy (`fork`).
import { dirname } from "node:path";
import type { EventBus } from "../event-bus.js";
import type { PitwallEvent } from "../events.js";
import type { Message, ThinkingLevel, ToolResultMessage } from "../messages.js";
import { toolCallsOf } from "../messages.js";
import { INTERRUPTED_RESULT } from "../providers/transcript.js";
import { FileSnapshots, snapshotFolderOf } from "./file-snapshots.js";
import { redactableSecrets, SessionAppender, type SaveState, type WriteFn } from "./session-appender.js";
import { copyRecords, newSessionFile, type CopySource } from "./session-copy.js";
import type { CompactionRecord, SessionHeader, SessionRecord } from "./session-file.js";
import type { WakeCount } from "../../tools/jobs/index.js";
import { newRecordId } from "./session-ids.js";
import { countMessage, loadBranch, loadSession, readRecord, type LoadedBranch, type LoadedSession, type LoadOptions, type SessionStats as Counts } from "./session-load.js";
import { nodeOfRecord, SessionTree } from "./session-tree.js";
import { describeHolder, SessionLock, type LockHolder } from "./session-lock.js";

export type { SaveState, WriteFn } from "./session-appender.js";

export interface SessionStats extends Counts {
  path: string;
  id: string;
}

type CompactionEnd = Extract<PitwallEvent, { type: "compaction_end" }>;
type FileChangeEvent = Extract<PitwallEvent, { type: "file_change" }>;
/** A record as its writer makes it: the store gives it its parent. */
type NewRecord = SessionRecord extends infer R ? (R extends SessionRecord ? Omit<R, "parentId"> : never) : never;

export interface StoreOptions extends LoadOptions {
  /** Values never written to disk (API keys); replaced by [redacted]. */
  secrets?: string[];
  /** Replaces fs.writeSync. */
  write?: WriteFn;
  /** How often unsaved records are retried while nothing else is appended. */
  retryMs?: number;
  /** Written into the header of a copy (/fork); the original's when left out. */
  pitwallVersion?: string;
}

export interface NewSessionOptions extends StoreOptions {
  root: string;
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
}

export class SessionLockedError extends Error {
  constructor(
    readonly session: LoadedSession,
    readonly holder: LockHolder,
  ) {
    super(`${session.path} is open in ${describeHolder(holder)}.`);
  }
}

export class SessionStore {
  /** Every record's place (ids, parents, the person's messages, file changes) and the current leaf. */
  readonly tree: SessionTree;
  /** The contents of files before the agent changed them, next to the session file. */
  readonly snapshots: FileSnapshots;
  private started: boolean;
  private readonly counts: Counts;
  /** Ids of every record in the file, so new ones never collide. */
  private readonly ids: Set<string>;
  /** Ids of the message records the conversation still holds, oldest first. */
  private contextIds: string[];
  /** Puts the lines on disk and keeps what could not be written yet. */
  private readonly appender: SessionAppender;
  /** Where save problems are reported. */
  private bus: EventBus<PitwallEvent> | undefined;
  /** A wake count reported before the file existed: written after its first message. */
  private unstartedWakes: Extract<SessionRecord, { type: "wake_count" }> | undefined;

  private constructor(
    readonly path: string,
    private header: SessionHeader,
    private readonly options: StoreOptions,
    existing: LoadedSession | undefined,
  ) {
    this.started = existing !== undefined;
    this.counts = existing ? { ...existing.stats } : { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cachedTokens: 0, cost: null };
    this.ids = existing ? new Set(existing.ids) : new Set();
    this.tree = existing?.tree ?? new SessionTree();
    this.contextIds = existing ? [...existing.messageIds] : [];
    const secrets = redactableSecrets(options.secrets);
    const report = (message: string): void => this.bus?.emit({ type: "error", source: "session", message });
    this.appender = new SessionAppender(path, { secrets, write: options.write, retryMs: options.retryMs, report });
    this.snapshots = new FileSnapshots(snapshotFolderOf(path), { secrets });
  }

  static create(options: NewSessionOptions): SessionStore {
    const { path, header } = newSessionFile(options);
    return new SessionStore(path, header, options, undefined);
  }

  /**
   * Opens an existing session to continue it, streamed (see session-load.ts: only what the model can
   * be sent is kept in memory), taking its lock; throws SessionLockedError when another live pitwall
   * writes it. Tool calls left without a result (pitwall was killed mid-call) are closed with an
   * error result, appended to the file, so the provider accepts it.
   */
  static async open(path: string, options: StoreOptions = {}): Promise<{ store: SessionStore; session: LoadedSession }> {
    const session = await loadSession(path, options);
    const store = new SessionStore(path, session.header, options, session);
    try {
      const lock = SessionLock.acquire(path);
      if (!(lock instanceof SessionLock)) throw new SessionLockedError(session, lock);
      store.appender.holdLock(lock);
    } catch (error) {
      if (error instanceof SessionLockedError) throw error;
      // The lock cannot be written (a read-only folder): appends will fail the same way and say so.
    }
    for (const result of unansweredCalls(session.messages)) {
      store.recordMessage(result);
      session.messages.push(result);
    }
    return { store, session };
  }

  /**
   * A new session file holding a copy of `source`'s records (every branch), for continuing a
   * conversation another pitwall is writing. The copy is streamed from the original file and
   * written at once; its header names the original. Records keep their ids and parents (those of
   * an old file get the ones loading gave them), and the file contents kept for them come along.
   */
  static async fork(source: LoadedSession, options: Omit<NewSessionOptions, "provider" | "model" | "thinkingLevel">): Promise<{ store: SessionStore; session: LoadedSession }> {
    const base = { ...options, provider: source.header.provider, model: source.header.model, thinkingLevel: source.header.thinkingLevel };
    const { path, header } = newSessionFile(base, source.path);
    const store = new SessionStore(path, header, options, { ...source, path, header, tree: new SessionTree() });
    await store.copyFrom({ path: source.path, tree: source.tree, snapshots: new FileSnapshots(snapshotFolderOf(source.path)) }, undefined);
    const session: LoadedSession = { ...source, path, header, tree: store.tree, messages: [...source.messages], warnings: [...source.warnings] };
    for (const result of unansweredCalls(session.messages)) {
      store.recordMessage(result);
      session.messages.push(result);
    }
    store.appender.flush();
    return { store, session };
  }

  /**
   * /fork: a new session file holding the current branch of this one (its records only, the other
   * branches left behind) and the file contents kept for it, to continue there; its header names
   * this file. The conversation in memory goes on unchanged: the records keep their ids.
   */
  async forkBranch(): Promise<SessionStore> {
    this.requireSaved("so its branch cannot be copied yet");
    const { provider, model, thinkingLevel, cwd } = this.header;
    const base = { ...this.options, cwd, provider, model, thinkingLevel, pitwallVersion: this.options.pitwallVersion ?? this.header.pitwallVersion };
    const { path, header } = newSessionFile(base, this.path, dirname(this.path));
    const copy = new SessionStore(path, header, base, undefined);
    copy.started = this.started;
    if (this.started) await copy.copyFrom({ path: this.path, tree: this.tree, snapshots: this.snapshots }, new Set(this.tree.pathTo().map((node) => node.id)));
    copy.contextIds = [...this.contextIds];
    copy.appender.flush();
    return copy;
  }

  /** Fills this new file with `source`'s records (those in `only`, else all): session-copy.ts. */
  private copyFrom(source: CopySource, only: ReadonlySet<string> | undefined): Promise<void> {
    const { header, appender, tree, ids, counts, snapshots } = this;
    return copyRecords({ header, appender, tree, ids, counts, snapshots }, source, only);
  }

  get id(): string {
    return this.header.id;
  }

  /** The current leaf: the record the next one follows (null: none yet). */
  get leafId(): string | null {
    return this.tree.leafId;
  }

  /** Records what the bus says: completed messages, model and thinking changes, compactions, file changes. Save problems go to the bus. */
  attach(bus: EventBus<PitwallEvent>): () => void {
    this.bus = bus;
    const unsubscribe = bus.subscribe((event) => {
      if (event.type === "message_end") this.recordMessage(event.message);
      else if (event.type === "model_change") this.append({ type: "model_change", id: this.newId(), provider: event.provider, model: event.model, timestamp: new Date().toISOString() });
      else if (event.type === "thinking_change") this.append({ type: "thinking_change", id: this.newId(), level: event.level, timestamp: new Date().toISOString() });
      else if (event.type === "compaction_end" && event.summary !== undefined) this.recordCompaction(event, event.summary);
      else if (event.type === "file_change") this.recordFileChange(event);
      else if (event.type === "wake_count") this.recordWakeCount(event);
    });
    return () => {
      unsubscribe();
      if (this.bus === bus) this.bus = undefined;
    };
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

  /** The wake cap's count (a record of its own): a resumed session's cap goes on from the last one. */
  recordWakeCount(count: WakeCount): void {
    const record = { type: "wake_count" as const, id: this.newId(), unattended: count.unattended, told: count.told, timestamp: new Date().toISOString() };
    // Before the file exists, the count waits for the first message (a trigger's wake starts a run before its message).
    if (this.started) this.append(record);
    else this.unstartedWakes = record;
  }

  recordFileChange(event: FileChangeEvent): void {
    const { toolCallId, path, before, after } = event;
    this.append({ type: "file_change", id: this.newId(), toolCallId, path, before, after, timestamp: new Date().toISOString() });
  }

  /**
   * Moves the current leaf to an earlier record (null: before the first), by appending a `leaf`
   * record: what is appended next starts a new branch there. The caller reloads the branch
   * (`loadBranch`) and gives its message ids to `resetContext`.
   */
  moveLeaf(target: string | null, reason: "rewind" | "switch"): void {
    if (target !== null && !this.tree.has(target)) throw new Error(`there is no record ${target} in this session`);
    if (target === this.tree.leafId) return;
    this.append({ type: "leaf", id: this.newId(), parentId: target, reason, timestamp: new Date().toISOString() });
  }

  /** The branch ending at `leafId` (the current leaf by default), read from the file (everything pending is written first). */
  async loadBranch(leafId = this.tree.leafId): Promise<LoadedBranch> {
    this.requireSaved("and another point of it is read from the file");
    if (!this.started || leafId === null) return { messages: [], messageIds: [], provider: this.header.provider, model: this.header.model, thinkingLevel: this.header.thinkingLevel };
    return loadBranch(this.path, this.header, this.tree, this.options, leafId);
  }

  /** One record of the file by its id (the whole text of a prompt the tree keeps a preview of). */
  async readRecord(id: string): Promise<SessionRecord | undefined> {
    this.appender.flush();
    return readRecord(this.path, id, this.tree.get(id)?.line ?? 0);
  }

  /** The messages the conversation now holds (after a branch was loaded): what a compaction points into. */
  resetContext(messageIds: readonly string[]): void {
    this.contextIds = [...messageIds];
  }

  /** Writes what is pending now; true when everything is on disk. */
  save(): boolean {
    this.appender.flush();
    return this.appender.unsavedRecords === 0;
  }

  /** The file's first line: id, start time, cwd, model. */
  get headerLine(): SessionHeader {
    return this.header;
  }

  stats(): SessionStats {
    return { path: this.path, id: this.id, ...this.counts };
  }

  private newId(): string {
    return newRecordId(this.ids);
  }

  /** True once the session has something to save (the file exists, or is being retried). */
  get persisted(): boolean {
    return this.started;
  }

  /** Records that are only in memory because writing them failed. */
  get unsavedRecords(): number {
    return this.appender.unsavedRecords;
  }

  get saveState(): SaveState {
    return this.appender.saveState;
  }

  /** Called whenever saving fails or recovers. */
  onSaveState(listener: (state: SaveState) => void): () => void {
    return this.appender.onSaveState(listener);
  }

  /** Tries once more to save what is pending, stops retrying and gives up the lock. */
  close(): void {
    this.appender.close();
  }

  /** Writes what is pending; throws (saying why, then `consequence`) when some of it cannot be. */
  private requireSaved(consequence: string): void {
    this.appender.flush();
    if (this.appender.unsavedRecords > 0) throw new Error(`the session could not be saved (${this.appender.saveState.reason ?? "unknown error"}), ${consequence}`);
  }

  /** Appends a record after the current leaf (a `leaf` record names its own parent: where the leaf goes). */
  private append(line: NewRecord | Extract<SessionRecord, { type: "leaf" }>): void {
    // Model or thinking changes before the first message only update the header.
    if (!this.started && line.type !== "message") {
      if (line.type === "model_change") this.header = { ...this.header, provider: line.provider, model: line.model };
      if (line.type === "thinking_change") this.header = { ...this.header, thinkingLevel: line.level };
      return;
    }
    const starting = !this.started;
    if (starting) {
      this.appender.addHeader(this.header);
      this.started = true;
    }
    // Written as type, id, parent, then the rest; a `leaf` record's own parent wins.
    const { type, id, ...rest } = line;
    const record = { type, id, parentId: this.tree.leafId, ...rest } as SessionRecord;
    if (record.type === "leaf") this.tree.moveLeaf(record.parentId);
    else this.tree.add(nodeOfRecord(record, record.id ?? this.newId(), 0));
    this.appender.add(record);
    this.appender.flush();
    const waiting = this.unstartedWakes;
    this.unstartedWakes = undefined;
    if (starting && waiting) this.append(waiting);
  }
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
