// The session a coding agent writes, and moving around its tree: rewind (back to before one of the
// person's messages, optionally putting back the files the agent changed since), switching to
// another branch, and forking the current branch into a new file. Every move is appended to the
// session (nothing is rewritten), the conversation the agent sends becomes the new branch (read
// from the file, within the model's budget, its older part summarised before the next request),
// and a `branch_change` or `session_forked` event says what happened.
import type { Agent } from "./agent.js";
import { AgentBusyError } from "./agent.js";
import type { EventBus } from "./event-bus.js";
import type { PitwallEvent, RewoundPrompt } from "./events.js";
import { restoreFiles, type FileRestoreReport } from "./sessions/file-restore.js";
import { olderHistoryOf } from "./sessions/session-load.js";
import type { SessionStore } from "./sessions/session-store.js";
import { fileChangesAfter, personMessagesOnPath, type SessionTreeView, type TreeNode } from "./sessions/session-tree.js";

export type BranchChange = Extract<PitwallEvent, { type: "branch_change" }>;
export type SessionForked = Extract<PitwallEvent, { type: "session_forked" }>;

/**
 * Where a rewind goes: `prompt: n` is the n-th of the person's messages on the current branch,
 * counting back from the newest (1: the last one sent); `to` is a record id anywhere in the tree.
 * Either way, to one of the person's messages means to just before it (its text is given back);
 * to any other record means to just after it.
 */
export type RewindTarget = { prompt: number } | { to: string };

/** A move the session cannot make; the message says why and what to do. */
export class BranchError extends Error {}

export class SessionControl {
  private store: SessionStore | undefined;
  private detach: (() => void) | undefined;
  /** A rewind, switch or fork under way: another one waits for it to end. */
  private moving = false;

  constructor(
    private readonly agent: Agent,
    private readonly bus: EventBus<PitwallEvent>,
  ) {}

  get session(): SessionStore | undefined {
    return this.store;
  }

  /** Writes the conversation to `store` from now on (undefined: to nothing). The previous one is not closed. */
  use(store: SessionStore | undefined): void {
    this.detach?.();
    this.store = store;
    this.detach = store?.attach(this.bus);
  }

  tree(): SessionTreeView | undefined {
    return this.store?.tree;
  }

  /** The record a rewind target names; throws BranchError when there is none. */
  resolve(target: RewindTarget): TreeNode {
    const tree = this.requireStore().tree;
    if ("prompt" in target) {
      const people = personMessagesOnPath(tree);
      const node = Number.isInteger(target.prompt) && target.prompt >= 1 ? people[target.prompt - 1] : undefined;
      if (!node) {
        throw new BranchError(
          people.length === 0
            ? "There is no message of yours on this branch to go back to."
            : `"prompt" must be a whole number from 1 (your last message) to ${people.length} (your first on this branch), not ${JSON.stringify(target.prompt)}.`,
        );
      }
      return node;
    }
    const node = tree.get(target.to);
    if (!node) throw new BranchError(`There is no record ${JSON.stringify(target.to)} in this session; sessionTree() lists them.`);
    return node;
  }

  /** The point a rewind to `node` leaves the conversation at: before one of the person's messages, after anything else. */
  static pointOf(node: TreeNode): string | null {
    return node.person ? node.parentId : node.id;
  }

  /**
   * Goes back: the conversation continues from before the person's message (or after the record)
   * the target names, as a new branch; the old one stays in the file. With `files`, every file the
   * agent changed after that point is put back first (only for a point on the current branch).
   */
  rewind(target: RewindTarget, options: { files?: boolean } = {}): Promise<BranchChange> {
    return this.exclusive((store) => this.rewindIn(store, target, options));
  }

  private async rewindIn(store: SessionStore, target: RewindTarget, options: { files?: boolean }): Promise<BranchChange> {
    const node = this.resolve(target);
    const point = SessionControl.pointOf(node);
    if (options.files && !store.tree.onCurrentPath(node.id)) {
      throw new BranchError("Files can be put back only to a point on the current branch: switch to that branch first (/tree), or rewind the conversation only.");
    }
    const prompt = node.person ? await this.promptOf(store, node) : undefined;
    let files: FileRestoreReport | undefined;
    return this.moveTo(store, point, "rewind", async () => {
      if (options.files) files = await restoreFiles(fileChangesAfter(store.tree, point), store.snapshots);
      return { ...(prompt ? { prompt } : {}), ...(files ? { files } : {}) };
    });
  }

  /** Switches the conversation to another point of the tree (a branch's leaf, from /tree). Files are not touched. */
  switchTo(leafId: string | null): Promise<BranchChange> {
    return this.exclusive((store) => {
      if (leafId !== null && !store.tree.get(leafId)) throw new BranchError(`There is no record ${JSON.stringify(leafId)} in this session.`);
      return this.moveTo(store, leafId, "switch", async () => ({}));
    });
  }

  /** Copies the current branch into a new session file and writes there from now on; the old file is closed. */
  fork(): Promise<SessionForked> {
    return this.exclusive((store) => this.forkOf(store));
  }

  private async forkOf(store: SessionStore): Promise<SessionForked> {
    let copy: SessionStore;
    try {
      copy = await store.forkBranch();
    } catch (error) {
      throw new BranchError(`The branch could not be copied: ${error instanceof Error ? error.message : String(error)}.`);
    }
    this.use(copy);
    store.close();
    const event: SessionForked = { type: "session_forked", path: copy.path, forkedFrom: store.path, leafId: copy.leafId };
    this.bus.emit(event);
    return event;
  }

  /**
   * Reads the branch ending at `leafId` first (nothing has changed if that fails), then runs `before`
   * (putting files back), then moves the leaf in the file and gives the agent the new conversation.
   */
  private async moveTo(store: SessionStore, leafId: string | null, reason: BranchChange["reason"], before: () => Promise<Pick<BranchChange, "prompt" | "files">>): Promise<BranchChange> {
    let branch;
    try {
      branch = await store.loadBranch(leafId);
    } catch (error) {
      throw new BranchError(`The conversation could not be moved: ${error instanceof Error ? error.message : String(error)}.`);
    }
    const extra = await before();
    const previousLeafId = store.leafId;
    store.moveLeaf(leafId, reason);
    store.resetContext(branch.messageIds);
    const firstPrompt = store.tree.pathTo(leafId).find((node) => node.person?.origin === "prompt")?.person?.preview;
    this.agent.resetConversation(branch.messages, olderHistoryOf(branch, firstPrompt));
    const event: BranchChange = { type: "branch_change", reason, leafId, previousLeafId, messages: [...this.agent.state.messages], ...extra };
    this.bus.emit(event);
    return event;
  }

  /** The whole text (and images) of one of the person's messages, read from the file. */
  private async promptOf(store: SessionStore, node: TreeNode): Promise<RewoundPrompt> {
    const record = await store.readRecord(node.id).catch(() => undefined);
    const message = record?.type === "message" && record.message.role === "user" ? record.message : undefined;
    if (!message) return { id: node.id, text: node.person?.preview ?? "" };
    return { id: node.id, text: message.content, ...(message.images?.length ? { images: message.images } : {}) };
  }

  private requireStore(): SessionStore {
    if (!this.store) throw new BranchError("There is no session file (pitwall was started with --no-session), so there is no earlier point to go back to.");
    return this.store;
  }

  /**
   * Runs one move at a time, only while the agent is idle, on the current session, with the agent
   * held meanwhile (nothing, not even a watch trigger's wake, starts a run on the branch being left).
   */
  private async exclusive<T>(move: (store: SessionStore) => Promise<T>): Promise<T> {
    const store = this.requireStore();
    if (this.moving) throw new BranchError("Another rewind, branch switch or fork is under way: try again once it is done.");
    if (this.agent.state.isStreaming) throw new AgentBusyError();
    this.moving = true;
    try {
      return await this.agent.hold(() => move(store));
    } finally {
      this.moving = false;
    }
  }
}
