// New session files and copies into them: a new file's name and header (a fresh session, or a copy
// that names its original), and copying an existing file's records into it, streamed in pieces
// rather than gathered whole in memory. A copy is made when another live pitwall writes the session
// (the person continues in a copy) and by /fork (the current branch only).
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import type { ThinkingLevel } from "../messages.js";
import type { FileSnapshots } from "./file-snapshots.js";
import type { SessionAppender } from "./session-appender.js";
import { sessionFolder, SessionLineChecker, type SessionHeader } from "./session-file.js";
import { lineRecordId } from "./session-ids.js";
import { countMessage, readLines, type SessionStats } from "./session-load.js";
import { SESSION_FORMAT_VERSION } from "./session-schema.js";
import { nodeOfRecord, type SessionTree } from "./session-tree.js";

/** What a new file's header says. */
export interface NewFileFacts {
  cwd: string;
  provider: string;
  model: string;
  thinkingLevel: ThinkingLevel;
  pitwallVersion: string;
}

/** A copy is written in pieces of about this size, not gathered whole in memory. */
const COPY_FLUSH_BYTES = 1 << 20;

/** A new file's path (in `folder`: by default the cwd's session folder under `root`) and header. */
export function newSessionFile(facts: NewFileFacts & { root?: string }, forkedFrom?: string, folder = sessionFolder(facts.root ?? "", facts.cwd)): { path: string; header: SessionHeader } {
  const now = new Date();
  const id = randomUUID();
  const name = `${now.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`;
  const header: SessionHeader = {
    type: "session",
    version: SESSION_FORMAT_VERSION,
    id,
    timestamp: now.toISOString(),
    cwd: facts.cwd,
    provider: facts.provider,
    model: facts.model,
    thinkingLevel: facts.thinkingLevel,
    pitwallVersion: facts.pitwallVersion,
    ...(forkedFrom ? { forkedFrom } : {}),
  };
  return { path: join(folder, name), header };
}

/** The file a copy is made of: its path, its tree (every record's parent) and its kept file contents. */
export interface CopySource {
  path: string;
  tree: SessionTree;
  snapshots: FileSnapshots;
}

/** The new file a copy goes into: its header, its appender, and what its store keeps of its records. */
export interface CopyTarget {
  header: SessionHeader;
  appender: SessionAppender;
  tree: SessionTree;
  /** Ids of every record in the file, so new ones never collide. */
  ids: Set<string>;
  /** Counted afresh from the records copied. */
  counts: SessionStats;
  snapshots: FileSnapshots;
}

/**
 * Writes `source`'s records (those in `only`, else all) after the target's header, each with its id
 * and its parent from the source's tree (those of an old file get the ones loading gave them),
 * streamed in pieces; counts their messages and brings along the kept contents their file changes
 * name. What is left pending is the caller's to flush.
 */
export async function copyRecords(target: CopyTarget, source: CopySource, only: ReadonlySet<string> | undefined): Promise<void> {
  const { appender, tree, ids, counts } = target;
  appender.addHeader(target.header);
  Object.assign(counts, { messages: 0, userMessages: 0, toolCalls: 0, tokens: 0, cachedTokens: 0, cost: null });
  const checker = new SessionLineChecker(source.path);
  for await (const { text, number } of readLines(source.path)) {
    const record = checker.check(text, number);
    if (!record) continue;
    const id = record.id ?? lineRecordId(number);
    if (only && !only.has(id)) continue;
    if (record.type === "leaf") {
      tree.moveLeaf(record.parentId);
      appender.add(record);
      continue;
    }
    const parentId = source.tree.get(id)?.parentId ?? null;
    const copied = { ...record, id, parentId };
    ids.add(id);
    tree.add(nodeOfRecord(copied, id, 0));
    if (copied.type === "message") countMessage(counts, copied.message);
    if (copied.type === "file_change" && copied.before && !copied.before.unkept) await target.snapshots.adopt(copied.before.hash, source.snapshots);
    appender.add(copied);
    if (appender.pendingBytes > COPY_FLUSH_BYTES) appender.flush();
  }
}
