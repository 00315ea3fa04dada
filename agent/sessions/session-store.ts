// Writes the session as it happens: each completed message, model change, thinking change,
// compaction and file change is appended as one whole line with an id of its own and the id of the
// record it follows (the current leaf: session-tree.ts). Going back to an earlier point appends a
// `leaf` record; nothing is ever rewritten. The file is created with the first message, so a session
// that never said anything leaves nothing behind. Secrets in use (API keys) are replaced before any
// write. Memory stays flat: counts instead of the messages, the tree's small nodes, and the ids of
// the messages still in the conversation (what a compaction record points into).
//
// Nothing is lost quietly:
// - every record starts on a fresh line: a torn tail (a crash mid-write) is ended first;
// - one pitwall writes a session at a time (session-lock.ts): opening one that another live pitwall
//   writes fails with SessionLockedError, and the caller continues in a copy (`fork`);
// - a failed append (read-only folder, full disk) keeps the unsaved records in memory, reports once
//   on the bus (an `error` event, source "session"), and retries with the next record and on a timer;
//   `unsavedRecords` says what is still only in memory.
import { randomUUID } from "node:crypto";
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import type { EventBus } from "../event-bus.js";
import type { PitwallEvent } from "../events.js";
import type { Message, ThinkingLevel, ToolResultMessage } from "../messages.js";
import { toolCallsOf } from "../messages.js";
import { INTERRUPTED_RESULT } from "../providers/transcript.js";
import { FileSnapshots, snapshotFolderOf } from "./file-snapshots.js";
import { sessionFolder, SessionLineChecker, type CompactionRecord, type SessionHeader, type SessionLine, type SessionRecord } from "./session-file.js";
import { lineRecordId, newRecordId } from "./session-ids.js";
import { countMessage, loadBranch, loadSession, readLines, readRecord, type LoadedBranch, type LoadedSession, type LoadOptions, type SessionStats as Counts } from "./session-load.js";
import { nodeOfRecord, SessionTree } from "./session-tree.js";
import { describeHolder, SessionLock, type LockHolder } from "./session-lock.js";
import { SESSION_FORMAT_VERSION } from "./session-schema.js";

export interface SessionStats extends Counts {
  path: string;
  id: string;
}

type CompactionEnd = Extract<PitwallEvent, { type: "compaction_end" }>;
type FileChangeEvent = Extract<PitwallEvent, { type: "file_change" }>;
/** A record as its writer makes it: the store gives it its parent. */
type NewRecord = SessionRecord extends infer R ? (R extends SessionRecord ? Omit<R, "parentId"> : never) : never;

/** How records reach the disk; tests put a failing one in to play a full or read-only disk. */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

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

/** What a person needs to know about saving: undefined problem means everything is on disk. */
export interface SaveState {
  unsavedRecords: number;
  /** The whole message: what failed, what is kept, what happens next. */
  problem: string | undefined;
  /** Just why the last write failed ("the disk is full (ENOSPC); free some space"). */
  reason: string | undefined;
}

export class SessionLockedError extends Error {
  constructor(
    readonly session: LoadedSession,
    readonly holder: LockHolder,
  ) {
    super(`${session.path} is open in ${describeHolder(holder)}.`);
  }
}

const DEFAULT_RETRY_MS = 5000;
const NEWLINE = 0x0a;
/** A copy (fork) is written in pieces of about this size, not gathered whole in memory. */
const COPY_FLUSH_BYTES = 1 << 20;

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
  /** Bytes not yet on disk, whole records except after a short write. */
  private pending = Buffer.alloc(0);
  private pendingRecords = 0;
  /** A short write left the file in the middle of one of our lines: go on with its rest, no newline. */
  private midLine = false;
  private problem: string | undefined;
  private reason: string | undefined;
  private lock: SessionLock | undefined;
  private bus: EventBus<PitwallEvent> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly saveListeners = new Set<(state: SaveState) => void>();
  private readonly write: WriteFn;
  private readonly secrets: string[];

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
    this.write = options.write ?? writeSync;
    this.secrets = cleanSecrets(options.secrets);
    this.snapshots = new FileSnapshots(snapshotFolderOf(path), { secrets: this.secrets });
  }

  static create(options: NewSessionOptions): SessionStore {
    return new SessionStore(...SessionStore.fresh(options), options, undefined);
  }

  /** A new file's path (in `folder`, by default the cwd's session folder) and header. */
  private static fresh(options: Omit<NewSessionOptions, "root"> & { root?: string }, forkedFrom?: string, folder = sessionFolder(options.root ?? "", options.cwd)): [string, SessionHeader] {
    const now = new Date();
    const id = randomUUID();
    const name = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
    const header: SessionHeader = {
      type: "session",
      version: SESSION_FORMAT_VERSION,
      id,
      timestamp: now.toISOString(),
      cwd: options.cwd,
      provider: options.provider,
      model: options.model,
      thinkingLevel: options.thinkingLevel,
      pitwallVersion: options.pitwallVersion,
      ...(forkedFrom ? { forkedFrom } : {}),
    };
    return [join(folder, name), header];
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
      store.lock = lock;
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
    const [path, header] = SessionStore.fresh(base, source.path);
    const store = new SessionStore(path, header, options, { ...source, path, header, tree: new SessionTree() });
    await store.copyFrom(source.path, source.tree, new FileSnapshots(snapshotFolderOf(source.path)), undefined);
    const session: LoadedSession = { ...source, path, header, tree: store.tree, messages: [...source.messages], warnings: [...source.warnings] };
    for (const result of unansweredCalls(session.messages)) {
      store.recordMessage(result);
      session.messages.push(result);
    }
    store.flush();
    return { store, session };
  }

  /**
   * /fork: a new session file holding the current branch of this one (its records only, the other
   * branches left behind) and the file contents kept for it, to continue there; its header names
   * this file. The conversation in memory goes on unchanged: the records keep their ids.
   */
  async forkBranch(): Promise<SessionStore> {
    this.flush();
    if (this.pendingRecords > 0) throw new Error(`the session could not be saved (${this.reason ?? "unknown error"}), so its branch cannot be copied yet`);
    const { provider, model, thinkingLevel, cwd } = this.header;
    const base = { ...this.options, cwd, provider, model, thinkingLevel, pitwallVersion: this.options.pitwallVersion ?? this.header.pitwallVersion };
    const [path, header] = SessionStore.fresh(base, this.path, dirname(this.path));
    const copy = new SessionStore(path, header, base, undefined);
    copy.started = this.started;
    if (this.started) await copy.copyFrom(this.path, this.tree, this.snapshots, new Set(this.tree.pathTo().map((node) => node.id)));
    copy.contextIds = [...this.contextIds];
    copy.flush();
    return copy;
  }

  /**
   * Writes `source`'s records (those in `only`, else all) after this file's header, each with its
   * id and its parent from `tree`, streamed in pieces; counts their messages and brings along the
   * kept contents their file changes name.
   */
  private async copyFrom(sourcePath: string, tree: SessionTree, sourceSnapshots: FileSnapshots, only: ReadonlySet<string> | undefined): Promise<void> {
    this.pending = Buffer.from(this.serialise(this.header));
    Object.assign(this.counts, { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cachedTokens: 0, cost: null });
    const checker = new SessionLineChecker(sourcePath);
    for await (const { text, number } of readLines(sourcePath)) {
      const record = checker.check(text, number);
      if (!record) continue;
      const id = record.id ?? lineRecordId(number);
      if (only && !only.has(id)) continue;
      if (record.type === "leaf") {
        this.tree.moveLeaf(record.parentId);
        this.queue(record);
        continue;
      }
      const parentId = tree.get(id)?.parentId ?? null;
      const copied = { ...record, id, parentId };
      this.ids.add(id);
      this.tree.add(nodeOfRecord(copied, id, 0));
      if (copied.type === "message") countMessage(this.counts, copied.message);
      if (copied.type === "file_change" && copied.before && !copied.before.unkept) await this.snapshots.adopt(copied.before.hash, sourceSnapshots);
      this.queue(copied);
      if (this.pending.length > COPY_FLUSH_BYTES) this.flush();
    }
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
    this.flush();
    if (this.pendingRecords > 0) throw new Error(`the session could not be saved (${this.reason ?? "unknown error"}), and another point of it is read from the file`);
    if (!this.started || leafId === null) return { messages: [], messageIds: [], provider: this.header.provider, model: this.header.model, thinkingLevel: this.header.thinkingLevel };
    return loadBranch(this.path, this.header, this.tree, this.options, leafId);
  }

  /** One record of the file by its id (the whole text of a prompt the tree keeps a preview of). */
  async readRecord(id: string): Promise<SessionRecord | undefined> {
    this.flush();
    return readRecord(this.path, id, this.tree.get(id)?.line ?? 0);
  }

  /** The messages the conversation now holds (after a branch was loaded): what a compaction points into. */
  resetContext(messageIds: readonly string[]): void {
    this.contextIds = [...messageIds];
  }

  /** Writes what is pending now; true when everything is on disk. */
  save(): boolean {
    this.flush();
    return this.pendingRecords === 0;
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
    return this.pendingRecords;
  }

  get saveState(): SaveState {
    return { unsavedRecords: this.pendingRecords, problem: this.problem, reason: this.reason };
  }

  /** Called whenever saving fails or recovers. */
  onSaveState(listener: (state: SaveState) => void): () => void {
    this.saveListeners.add(listener);
    return () => this.saveListeners.delete(listener);
  }

  /** Tries once more to save what is pending, stops retrying and gives up the lock. */
  close(): void {
    this.flush();
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    // With records still unsaved the lock stays until exit: nobody else should write this file meanwhile.
    if (this.pendingRecords === 0) this.lock?.release();
  }

  /** Appends a record after the current leaf (a `leaf` record names its own parent: where the leaf goes). */
  private append(line: NewRecord | Extract<SessionRecord, { type: "leaf" }>): void {
    // Model or thinking changes before the first message only update the header.
    if (!this.started && line.type !== "message") {
      if (line.type === "model_change") this.header = { ...this.header, provider: line.provider, model: line.model };
      if (line.type === "thinking_change") this.header = { ...this.header, thinkingLevel: line.level };
      return;
    }
    if (!this.started) {
      this.pending = Buffer.concat([this.pending, Buffer.from(this.serialise(this.header))]);
      this.started = true;
    }
    // Written as type, id, parent, then the rest; a `leaf` record's own parent wins.
    const { type, id, ...rest } = line;
    const record = { type, id, parentId: this.tree.leafId, ...rest } as SessionRecord;
    if (record.type === "leaf") this.tree.moveLeaf(record.parentId);
    else this.tree.add(nodeOfRecord(record, record.id ?? this.newId(), 0));
    this.queue(record);
    this.flush();
  }

  private queue(line: SessionRecord): void {
    this.pending = Buffer.concat([this.pending, Buffer.from(this.serialise(line))]);
    this.pendingRecords++;
  }

  /** Writes what is pending; on failure keeps it, reports and schedules a retry. */
  private flush(): void {
    if (this.pending.length === 0) return;
    try {
      mkdirSync(dirname(this.path), { recursive: true, mode: 0o700 });
      this.lock ??= this.tryLock();
      const fd = openSync(this.path, "a+", 0o600);
      try {
        if (!this.midLine && endsMidLine(fd)) this.pending = Buffer.concat([Buffer.from("\n"), this.pending]);
        while (this.pending.length > 0) {
          const written = this.write(fd, this.pending, 0, this.pending.length);
          if (written > 0) this.midLine = this.pending[written - 1] !== NEWLINE;
          this.pending = this.pending.subarray(written);
        }
      } finally {
        closeSync(fd);
      }
      this.pendingRecords = 0;
      this.midLine = false;
      if (this.problem !== undefined) this.recovered();
    } catch (error) {
      this.failed(error as NodeJS.ErrnoException);
    }
  }

  /** A new session's lock, taken when its file is first written; none if it cannot be had. */
  private tryLock(): SessionLock | undefined {
    try {
      const lock = SessionLock.acquire(this.path);
      return lock instanceof SessionLock ? lock : undefined;
    } catch {
      return undefined;
    }
  }

  private failed(error: NodeJS.ErrnoException): void {
    const first = this.problem === undefined;
    const records = this.pendingRecords === 1 ? "1 record is" : `${this.pendingRecords} records are`;
    this.reason = saveErrorReason(error);
    this.problem =
      `The session could not be saved to ${this.path}: ${this.reason}. ${records} kept in memory and ` +
      `retried with the next message and every ${Math.round((this.options.retryMs ?? DEFAULT_RETRY_MS) / 1000)} s; they are lost if pitwall exits first.`;
    if (first) {
      const message = this.problem;
      // After the event being recorded has reached everyone, not in the middle of it.
      queueMicrotask(() => this.bus?.emit({ type: "error", source: "session", message }));
      this.retryTimer = setInterval(() => this.flush(), this.options.retryMs ?? DEFAULT_RETRY_MS);
      this.retryTimer.unref();
    }
    this.notify();
  }

  private recovered(): void {
    this.problem = undefined;
    this.reason = undefined;
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    this.notify();
  }

  private notify(): void {
    const state = this.saveState;
    for (const listener of this.saveListeners) listener(state);
  }

  private serialise(line: SessionLine): string {
    let json = JSON.stringify(line);
    for (const secret of this.secrets) json = json.split(secret).join("[redacted]");
    return `${json}\n`;
  }
}

/** Whether the file at `fd` ends inside a line (a torn tail someone left). */
function endsMidLine(fd: number): boolean {
  const { size } = fstatSync(fd);
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] !== NEWLINE;
}

function saveErrorReason(error: NodeJS.ErrnoException): string {
  switch (error.code) {
    case "ENOSPC":
      return "the disk is full (ENOSPC); free some space";
    case "EROFS":
      return "the file system is read-only (EROFS)";
    case "EACCES":
    case "EPERM":
      return `permission denied (${error.code}); check the folder's permissions or choose another with --session-dir`;
    case "EDQUOT":
      return "the disk quota is used up (EDQUOT)";
    default:
      return String(error.message ?? error);
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
