// The session file format: append-only JSON lines. A header line (id, time, cwd, model, provider,
// version), then one record per line: each completed message, model and thinking changes, and
// compactions. Every record has a short id of its own, so a compaction can name the first message
// it kept (and records can later point at a parent); files written before ids existed get ids
// derived from their line numbers. Reading is streamed (session-load.ts); this file holds the
// shapes and where the files live.
import { join } from "node:path";
import type { CompactionReason } from "./events.js";
import type { Message, ThinkingLevel } from "./messages.js";

export interface SessionHeader {
  type: "session";
  version: 1;
  id: string;
  timestamp: string;
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
}

/**
 * A compaction: from here on the conversation sent to the model is `summary` followed by the message
 * records from `firstKeptId` on (null: none of the earlier ones). The messages it replaced stay in
 * the file above it.
 */
export interface CompactionRecord {
  type: "compaction";
  id: string;
  summary: string;
  firstKeptId: string | null;
  reason: CompactionReason;
  tokensBefore: number;
  tokensAfter: number;
  messagesSummarized: number;
  timestamp: string;
}

/** The records after the header. `id` is absent only in files written before records had ids. */
export type SessionRecord =
  | { type: "message"; id?: string; message: Message }
  | { type: "model_change"; id?: string; provider: string; model: string; timestamp: string }
  | { type: "thinking_change"; id?: string; level: ThinkingLevel; timestamp: string }
  | CompactionRecord;

export type SessionLine = SessionHeader | SessionRecord;

export class SessionFileError extends Error {}

/** `/home/me/project` → `--home-me-project--`. */
export function sessionFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]+/, "").replace(/[/\\:]+/g, "-")}--`;
}

export function sessionFolder(root: string, cwd: string): string {
  return join(root, sessionFolderName(cwd));
}

/** One line of a session file; undefined when it is not JSON (a line torn by a crash mid-write). */
export function parseSessionLine(text: string): SessionLine | undefined {
  try {
    return JSON.parse(text) as SessionLine;
  } catch {
    return undefined;
  }
}

export function badLineWarning(path: string, lineNumber: number, last: boolean): string {
  return last ? `${path}: the last line was cut off (pitwall stopped mid-write); it was skipped.` : `${path}: line ${lineNumber} is not valid JSON; it was skipped.`;
}
