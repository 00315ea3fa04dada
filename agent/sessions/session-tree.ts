// A session as a tree: every record follows a parent (the record before it on its branch, or
// nothing for the first), and the conversation in force is the path from the first record to the
// current leaf. Going back to an earlier point moves the leaf (a `leaf` record in the file); what is
// appended next starts a new branch there, and the old branch stays. Files from before parent ids
// existed are one branch: each record follows the one above it.
//
// The tree holds only what the rewind list, /tree and the file restore need (ids, parents, the
// person's messages as short previews, file changes), never whole messages: a long session's tree
// costs about a hundred bytes a record.
import type { FileChangeRecord, FileState, SessionRecord } from "./session-file.js";

export type NodeKind = "message" | "model_change" | "thinking_change" | "compaction" | "file_change" | "wake_count" | "other";

/** Who wrote one of the person's messages, and how it went in. */
export type PersonOrigin = "prompt" | "steer" | "follow_up";

/** One of the person's messages, as lists show it. */
export interface PersonMessage {
  origin: PersonOrigin;
  /** The text, cut to PREVIEW_CHARS. */
  preview: string;
  timestamp: number;
  images: number;
}

export interface FileChange {
  toolCallId: string;
  path: string;
  before: FileState | null;
  after: FileState;
}

export interface TreeNode {
  id: string;
  parentId: string | null;
  kind: NodeKind;
  /** Line of the session file (1-based; 0 for a record not yet on disk). */
  line: number;
  /** Set on the person's own messages (prompts, steers, follow-ups). */
  person?: PersonMessage;
  /** Set on file changes. */
  file?: FileChange;
}

/** What adding a record can say about it (a parent that is not in the file). */
export type TreeNote = string | undefined;

/** The read side of the tree, for library users (`CodingAgent.sessionTree()`) and front ends. */
export interface SessionTreeView {
  readonly leafId: string | null;
  get(id: string): TreeNode | undefined;
  /** Root first, the leaf last. */
  pathTo(leafId?: string | null): TreeNode[];
  /** Children of a record (null: the roots), oldest first. */
  children(id: string | null): TreeNode[];
  /** Every record, in file order. */
  nodes(): Iterable<TreeNode>;
}

export const PREVIEW_CHARS = 300;

export class SessionTree implements SessionTreeView {
  private readonly byId = new Map<string, TreeNode>();
  leafId: string | null = null;
  /** The record last added (the leaf unless the leaf was moved). */
  private lastId: string | null = null;
  /** True while every record followed the one before it and the leaf is the last one: one branch, the file's order. */
  private straight = true;

  get size(): number {
    return this.byId.size;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): TreeNode | undefined {
    return this.byId.get(id);
  }

  nodes(): Iterable<TreeNode> {
    return this.byId.values();
  }

  /**
   * Adds a record. `parentId` undefined (a file from before parent ids): it follows the current
   * leaf. A parent that is not in the tree (a damaged line) is read as the current leaf too, and
   * said in the returned note. The record becomes the leaf.
   */
  add(node: Omit<TreeNode, "parentId"> & { parentId?: string | null }): TreeNote {
    let note: TreeNote;
    let parentId = node.parentId === undefined ? this.leafId : node.parentId;
    if (parentId !== null && !this.byId.has(parentId)) {
      note = `line ${node.line} follows ${parentId}, which is not in the file; it is read as following ${this.leafId === null ? "nothing (the start)" : this.leafId}`;
      parentId = this.leafId;
    }
    if (parentId !== this.lastId || this.leafId !== this.lastId) this.straight = false;
    this.byId.set(node.id, { ...node, parentId });
    this.lastId = node.id;
    this.leafId = node.id;
    return note;
  }

  /** Moves the leaf to an earlier record (null: before the first). False when there is no such record. */
  moveLeaf(id: string | null): boolean {
    if (id !== null && !this.byId.has(id)) return false;
    this.leafId = id;
    return true;
  }

  /** Whether the path to the leaf is every record, in file order (so loading needs one pass). */
  get isStraight(): boolean {
    return this.straight && this.leafId === this.lastId;
  }

  pathTo(leafId: string | null = this.leafId): TreeNode[] {
    const path: TreeNode[] = [];
    for (let node = leafId === null ? undefined : this.byId.get(leafId); node; node = node.parentId === null ? undefined : this.byId.get(node.parentId)) {
      path.push(node);
    }
    return path.reverse();
  }

  children(id: string | null): TreeNode[] {
    return [...this.byId.values()].filter((node) => node.parentId === id);
  }

  /** Whether `id` is on the path to the current leaf. */
  onCurrentPath(id: string): boolean {
    return this.pathTo().some((node) => node.id === id);
  }
}

/** The person's messages on the path to `leafId`, newest first: what the rewind list offers. */
export function personMessagesOnPath(tree: SessionTreeView, leafId: string | null = tree.leafId): TreeNode[] {
  return tree
    .pathTo(leafId)
    .filter((node) => node.person !== undefined)
    .reverse();
}

/** Leaves of the tree other than the current one: the branches an export leaves out. */
export function otherBranchCount(tree: SessionTreeView): number {
  const parents = new Set<string>();
  const ids: string[] = [];
  for (const node of tree.nodes()) {
    ids.push(node.id);
    if (node.parentId !== null) parents.add(node.parentId);
  }
  return ids.filter((id) => !parents.has(id) && id !== tree.leafId).length;
}

/** The file changes on the path after the record `pointId` (null: from the start), oldest first. */
export function fileChangesAfter(tree: SessionTreeView, pointId: string | null): FileChange[] {
  const path = tree.pathTo();
  const start = pointId === null ? 0 : path.findIndex((node) => node.id === pointId) + 1;
  return path.slice(start).flatMap((node) => (node.file ? [node.file] : []));
}

function fileChangeOf(record: FileChangeRecord): FileChange {
  return { toolCallId: record.toolCallId, path: record.path, before: record.before, after: record.after };
}

/** What the tree keeps of a record (`line` 0: appended by this process). */
export function nodeOfRecord(record: Exclude<SessionRecord, { type: "leaf" }>, id: string, line: number): Omit<TreeNode, "parentId"> & { parentId?: string | null } {
  const node: Omit<TreeNode, "parentId"> & { parentId?: string | null } = { id, parentId: record.parentId, line, kind: record.type };
  if (record.type === "message" && record.message.role === "user") {
    const message = record.message;
    const origin = message.origin ?? "prompt";
    if (origin === "prompt" || origin === "steer" || origin === "follow_up") {
      node.person = { origin, preview: message.content.slice(0, PREVIEW_CHARS), timestamp: message.timestamp, images: message.images?.length ?? 0 };
    }
  }
  if (record.type === "file_change") node.file = fileChangeOf(record);
  return node;
}
