// Puts a session's lines on disk and says whether they are there. Lines are appended whole, in the
// order given, secrets (API keys) replaced before they are written. Nothing is lost quietly:
// - every record starts on a fresh line: a torn tail (a crash mid-write) is ended first;
// - the file's lock (session-lock.ts) is taken with its first write, unless the opener holds it;
// - a failed append (read-only folder, full disk) keeps the unsaved records in memory, reports once
//   (the store sends it as an `error` event, source "session"), and retries with the next record
//   and on a timer; `saveState` says what is still only in memory and why.
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import type { SessionLine } from "./session-file.js";
import { SessionLock } from "./session-lock.js";

/** How records reach the disk; tests put a failing one in to play a full or read-only disk. */
export type WriteFn = (fd: number, buffer: Buffer, offset: number, length: number) => number;

/** What a person needs to know about saving: undefined problem means everything is on disk. */
export interface SaveState {
  unsavedRecords: number;
  /** The whole message: what failed, what is kept, what happens next. */
  problem: string | undefined;
  /** Just why the last write failed ("the disk is full (ENOSPC); free some space"). */
  reason: string | undefined;
}

export interface AppenderOptions {
  /** Values never written (API keys), as redactableSecrets gives them; replaced by [redacted]. */
  secrets: readonly string[];
  /** Replaces fs.writeSync. */
  write?: WriteFn;
  /** How often unsaved records are retried while nothing else is appended. */
  retryMs?: number;
  /** Told once when saving starts failing, after the event being recorded has reached everyone. Contract: must not throw. */
  report(problem: string): void;
}

const DEFAULT_RETRY_MS = 5000;
const NEWLINE = 0x0a;

export class SessionAppender {
  /** Bytes not yet on disk, whole lines except after a short write. */
  private pending = Buffer.alloc(0);
  private pendingRecords = 0;
  /** A short write left the file in the middle of one of our lines: go on with its rest, no newline. */
  private midLine = false;
  private problem: string | undefined;
  private reason: string | undefined;
  private lock: SessionLock | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private readonly listeners = new Set<(state: SaveState) => void>();
  private readonly write: WriteFn;

  constructor(
    readonly path: string,
    private readonly options: AppenderOptions,
  ) {
    this.write = options.write ?? writeSync;
  }

  /** The lock the opener took; released by close() once everything is on disk. */
  holdLock(lock: SessionLock): void {
    this.lock = lock;
  }

  /** The header line, written before the first record; not a record itself. */
  addHeader(line: SessionLine): void {
    this.pending = Buffer.concat([this.pending, Buffer.from(this.serialise(line))]);
  }

  /** Queues a record; written by the next flush. */
  add(line: SessionLine): void {
    this.pending = Buffer.concat([this.pending, Buffer.from(this.serialise(line))]);
    this.pendingRecords++;
  }

  /** Bytes queued and not on disk yet. */
  get pendingBytes(): number {
    return this.pending.length;
  }

  /** Records that are only in memory because writing them failed (or no flush ran yet). */
  get unsavedRecords(): number {
    return this.pendingRecords;
  }

  get saveState(): SaveState {
    return { unsavedRecords: this.pendingRecords, problem: this.problem, reason: this.reason };
  }

  /** Called whenever saving fails or recovers. */
  onSaveState(listener: (state: SaveState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes what is pending; on failure keeps it, reports and schedules a retry. */
  flush(): void {
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

  /** Tries once more to save what is pending, stops retrying and gives up the lock. */
  close(): void {
    this.flush();
    if (this.retryTimer) clearInterval(this.retryTimer);
    this.retryTimer = undefined;
    // With records still unsaved the lock stays until exit: nobody else should write this file meanwhile.
    if (this.pendingRecords === 0) this.lock?.release();
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
      queueMicrotask(() => this.options.report(message));
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
    for (const listener of this.listeners) listener(state);
  }

  private serialise(line: SessionLine): string {
    let json = JSON.stringify(line);
    for (const secret of this.options.secrets) json = json.split(secret).join("[redacted]");
    return `${json}\n`;
  }
}

/** The secrets worth redacting: very short values would redact ordinary text; real keys are long. */
export function redactableSecrets(secrets: readonly string[] | undefined): string[] {
  return (secrets ?? []).filter((s) => s.length >= 8);
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
