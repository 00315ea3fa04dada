// A session file is a tree: every record names its parent, a `leaf` record moves the current leaf,
// and loading gives the branch ending at it (both branches stay in the file). Old linear files load
// as one branch; a crash mid-append in a tree, a compaction on a branch, the older part of a long
// branch and copies of the file (all branches, or /fork's one) keep it whole.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../agent/event-bus.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { snapshotFolderOf } from "../../agent/sessions/file-snapshots.js";
import { loadSession, readOlderMessages } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { personMessagesOnPath } from "../../agent/sessions/session-tree.js";

let root: string;
const stores: SessionStore[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pitwall-tree-"));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(root, { recursive: true, force: true });
});

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });
const assistant = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "claude-sonnet-5-5", usage: emptyUsage(), stopReason: "stop", timestamp: 2 });
const lines = (path: string): Array<Record<string, unknown>> => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const texts = (messages: readonly Message[]): string[] => messages.map((m) => (m.role === "user" ? m.content : m.role === "assistant" ? (m.content[0] as { text: string }).text : m.content));

function newStore(): SessionStore {
  const store = SessionStore.create({ root, cwd: "/home/me/project", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0" });
  stores.push(store);
  return store;
}

/** first → one → second → two, then back to before "second": second' → two'. */
function branchedSession(): { store: SessionStore; ids: Record<string, string> } {
  const store = newStore();
  const ids: Record<string, string> = {};
  for (const [name, message] of [["first", user("first")], ["one", assistant("one")], ["second", user("second")], ["two", assistant("two")]] as const) {
    store.recordMessage(message);
    ids[name] = store.leafId!;
  }
  store.moveLeaf(ids["one"]!, "rewind");
  store.recordMessage(user("second, again"));
  ids["second'"] = store.leafId!;
  store.recordMessage(assistant("two, again"));
  ids["two'"] = store.leafId!;
  return { store, ids };
}

describe("the session tree", () => {
  it("every record names its parent; a leaf record moves the conversation and both branches stay in the file", async () => {
    const { store, ids } = branchedSession();
    const records = lines(store.path);
    expect(records[0]).toMatchObject({ type: "session", version: 2 });
    const byId = new Map(records.slice(1).map((r) => [r["id"], r]));
    expect(byId.get(ids["first"])).toMatchObject({ parentId: null });
    expect(byId.get(ids["one"])).toMatchObject({ parentId: ids["first"] });
    expect(records.find((r) => r["type"] === "leaf")).toMatchObject({ parentId: ids["one"], reason: "rewind" });
    expect(byId.get(ids["second'"])).toMatchObject({ parentId: ids["one"] });
    expect(records.filter((r) => r["type"] === "message")).toHaveLength(6);

    const loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second, again", "two, again"]);
    expect(loaded.messageIds).toEqual([ids["first"], ids["one"], ids["second'"], ids["two'"]]);
    expect(loaded.tree.leafId).toBe(ids["two'"]);
    expect(loaded.tree.children(ids["one"]!).map((n) => n.id)).toEqual([ids["second"], ids["second'"]]);
    expect(personMessagesOnPath(loaded.tree).map((n) => n.person?.preview)).toEqual(["second, again", "first"]);
    // The session counts every branch (what was spent is spent).
    expect(loaded.stats.messages).toBe(6);
    expect(loaded.warnings).toEqual([]);
  });

  it("switching back to the old branch's leaf continues it; resuming keeps the switch", async () => {
    const { store, ids } = branchedSession();
    store.moveLeaf(ids["two"]!, "switch");
    expect(texts((await store.loadBranch()).messages)).toEqual(["first", "one", "second", "two"]);
    store.recordMessage(user("third"));
    store.close();
    const loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second", "two", "third"]);
    // A switch left without a message after it is kept too.
    const { store: reopened } = await SessionStore.open(store.path);
    stores.push(reopened);
    reopened.moveLeaf(ids["two'"]!, "switch");
    reopened.close();
    expect(texts((await loadSession(store.path)).messages)).toEqual(["first", "one", "second, again", "two, again"]);
  });

  it("a file from before parent ids (and ids) loads as one branch; what is appended follows its last record", async () => {
    const path = join(root, "old.jsonl");
    const header = { type: "session", version: 1, id: "x", timestamp: "2026-01-01T00:00:00Z", cwd: "/p", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.0.9" };
    const old = [user("old one"), assistant("old two"), user("old three"), assistant("old four")].map((message) => ({ type: "message", message }));
    writeFileSync(path, [header, ...old].map((l) => `${JSON.stringify(l)}\n`).join(""));
    const { store, session } = await SessionStore.open(path);
    stores.push(store);
    expect(session.warnings).toEqual([]);
    expect(texts(session.messages)).toEqual(["old one", "old two", "old three", "old four"]);
    expect(session.tree.pathTo().map((n) => [n.id, n.parentId])).toEqual([["L2", null], ["L3", "L2"], ["L4", "L3"], ["L5", "L4"]]);
    expect(personMessagesOnPath(session.tree).map((n) => n.id)).toEqual(["L4", "L2"]);
    store.recordMessage(user("new five"));
    expect(lines(path).at(-1)).toMatchObject({ parentId: "L5" });
    // Going back to before "old three" in an old file.
    store.moveLeaf("L3", "rewind");
    store.recordMessage(user("old three, again"));
    store.close();
    expect(texts((await loadSession(path)).messages)).toEqual(["old one", "old two", "old three, again"]);
  });

  it("a crash mid-append in a tree (a torn last line), then a branch switch: the tail is ended, the switch and what follows load", async () => {
    const { store, ids } = branchedSession();
    store.close();
    appendFileSync(store.path, `{"type":"message","id":"deadbeef","parentId":"${ids["two'"]}","message":{"role":"user","cont`);
    const { store: reopened, session } = await SessionStore.open(store.path);
    stores.push(reopened);
    expect(session.warnings).toEqual([expect.stringContaining("was cut off (pitwall stopped mid-write)")]);
    expect(texts(session.messages)).toEqual(["first", "one", "second, again", "two, again"]);
    reopened.moveLeaf(ids["two"]!, "switch");
    reopened.recordMessage(user("after the crash"));
    reopened.close();
    const text = readFileSync(store.path, "utf8");
    // The torn line stays one line of its own; the leaf record starts on a fresh one.
    expect(text.split("\n").filter((l) => l.includes('"cont') && !l.endsWith("}"))).toHaveLength(1);
    const loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second", "two", "after the crash"]);
    expect(loaded.warnings).toEqual([expect.stringContaining("is not valid JSON (a write cut off mid-line?)")]);
  });

  it("a record whose parent is not in the file (a damaged line) follows the record before it, with a warning", async () => {
    const { store } = branchedSession();
    store.close();
    appendFileSync(store.path, `${JSON.stringify({ type: "message", id: "0000beef", parentId: "missing1", message: user("orphan") })}\n`);
    const loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second, again", "two, again", "orphan"]);
    expect(loaded.warnings).toEqual([expect.stringContaining("follows missing1, which is not in the file")]);
  });

  it("the schema checks the new fields: a leaf record without a parent, or a parent that is a number, is skipped with a warning", async () => {
    const { store } = branchedSession();
    store.close();
    appendFileSync(store.path, `${JSON.stringify({ type: "leaf", id: "00000001", reason: "rewind", timestamp: "t" })}\n${JSON.stringify({ type: "message", id: "00000002", parentId: 7, message: user("x") })}\n`);
    const loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second, again", "two, again"]);
    expect(loaded.warnings).toEqual([expect.stringMatching(/a "leaf" record, has the wrong shape \(\/parentId/), expect.stringMatching(/a "message" record, has the wrong shape \(\/parentId/)]);
  });

  it("a compaction on a branch: that branch loads as summary + kept; a branch from before it loads without", async () => {
    const bus = new EventBus<PitwallEvent>();
    const { store, ids } = branchedSession();
    store.attach(bus);
    bus.emit({ type: "message_end", message: user("third") });
    bus.emit({ type: "compaction_end", reason: "manual", tokensBefore: 100, tokensAfter: 20, summary: "SUMMARY", messagesSummarized: 4, messagesKept: 1 });
    bus.emit({ type: "message_end", message: assistant("three") });
    let loaded = await loadSession(store.path);
    expect(texts(loaded.messages)).toEqual([expect.stringContaining("SUMMARY"), "third", "three"]);
    store.moveLeaf(ids["two"]!, "switch");
    store.close();
    loaded = await loadSession(store.path);
    expect(loaded.compaction).toBeUndefined();
    expect(texts(loaded.messages)).toEqual(["first", "one", "second", "two"]);
  });

  it("the older part of a long branch, read again for its summary, holds only that branch's messages", async () => {
    const store = newStore();
    for (let i = 0; i < 20; i++) {
      store.recordMessage(user(`prompt ${i}`));
      store.recordMessage(assistant(`reply ${i} ${"r".repeat(4_000)}`));
    }
    const tenth = personMessagesOnPath(store.tree).find((n) => n.person?.preview === "prompt 10")!;
    // The abandoned branch: prompts 10..19. The new one starts after reply 9.
    store.moveLeaf(tenth.parentId, "rewind");
    for (let i = 0; i < 10; i++) {
      store.recordMessage(user(`other ${i}`));
      store.recordMessage(assistant(`answer ${i} ${"a".repeat(4_000)}`));
    }
    store.close();
    const loaded = await loadSession(store.path, { budgetFor: () => 5_000 });
    expect(loaded.older).toBeDefined();
    const older: string[] = [];
    for await (const m of readOlderMessages(loaded.older!)) older.push(texts([m])[0]!);
    const all = [...older, ...texts(loaded.messages)];
    expect(all.filter((t) => t.startsWith("prompt "))).toEqual(Array.from({ length: 10 }, (_, i) => `prompt ${i}`));
    expect(all.filter((t) => t.startsWith("other "))).toEqual(Array.from({ length: 10 }, (_, i) => `other ${i}`));
    expect(all.some((t) => t.startsWith("prompt 1") && t.length > 8)).toBe(false);
  });

  it("/fork copies only the current branch (ids and parents kept, the header naming the original) and the kept file contents", async () => {
    const { store } = branchedSession();
    mkdirSync(snapshotFolderOf(store.path), { recursive: true });
    const hash = "a".repeat(64);
    writeFileSync(join(snapshotFolderOf(store.path), hash), "not the real content; only copied");
    const bus = new EventBus<PitwallEvent>();
    store.attach(bus);
    bus.emit({ type: "file_change", toolCallId: "call_1", path: "/p/a.txt", before: { hash, bytes: 33 }, after: { hash: "b".repeat(64), bytes: 3 } });
    const copy = await store.forkBranch();
    stores.push(copy);
    copy.recordMessage(user("in the fork"));
    copy.close();
    const records = lines(copy.path);
    expect(records[0]).toMatchObject({ type: "session", forkedFrom: store.path });
    expect(records.filter((r) => r["type"] === "leaf")).toEqual([]);
    const loaded = await loadSession(copy.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second, again", "two, again", "in the fork"]);
    expect(loaded.tree.isStraight).toBe(true);
    expect(loaded.stats.messages).toBe(5);
    expect(existsSync(join(snapshotFolderOf(copy.path), hash))).toBe(true);
    // The original is unchanged by what the fork writes.
    expect(texts((await loadSession(store.path)).messages)).toEqual(["first", "one", "second, again", "two, again"]);
  });

  it("the copy made for a session open elsewhere keeps every branch", async () => {
    const { store } = branchedSession();
    store.close();
    const source = await loadSession(store.path);
    const { store: copy } = await SessionStore.fork(source, { root, cwd: "/home/me/project", pitwallVersion: "0.1.0" });
    stores.push(copy);
    copy.close();
    const loaded = await loadSession(copy.path);
    expect(texts(loaded.messages)).toEqual(["first", "one", "second, again", "two, again"]);
    expect([...loaded.tree.nodes()].filter((n) => n.kind === "message")).toHaveLength(6);
  });
});
