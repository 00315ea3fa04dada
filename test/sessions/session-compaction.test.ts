// Session records have ids; a compaction is a record of its own naming the first message it kept;
// loading builds summary + kept messages, keeps only what fits a budget in memory, and describes the
// rest as an older part that can be read again from the file. Old files without ids still load.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../agent/event-bus.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { loadSession, olderHistoryOf, readOlderMessages } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pitwall-sessions-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });
const assistant = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "claude-sonnet-5-5", usage: emptyUsage(), stopReason: "stop", timestamp: 2 });
const lines = (path: string): Array<Record<string, unknown>> => readFileSync(path, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

function newStore(): SessionStore {
  return SessionStore.create({ root, cwd: "/home/me/project", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0" });
}

function compactionEnd(messagesKept: number): PitwallEvent {
  return { type: "compaction_end", reason: "threshold", tokensBefore: 1000, tokensAfter: 200, summary: "SUMMARY-TEXT", messagesSummarized: 3, messagesKept };
}

describe("session records", () => {
  it("each get an id of eight hex digits, unique in the file", () => {
    const bus = new EventBus<PitwallEvent>();
    const store = newStore();
    store.attach(bus);
    for (let i = 0; i < 50; i++) bus.emit({ type: "message_end", message: user(`m${i}`) });
    bus.emit({ type: "model_change", provider: "openai", model: "gpt-5.4" });
    store.close();
    const ids = lines(store.path).slice(1).map((l) => l["id"]);
    expect(ids.every((id) => typeof id === "string" && /^[0-9a-f]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("hold a compaction as its own record, naming the first kept message by id; loading gives summary + kept", async () => {
    const bus = new EventBus<PitwallEvent>();
    const store = newStore();
    store.attach(bus);
    const messages = [user("first"), assistant("one"), user("second"), assistant("two"), user("third")];
    for (const m of messages) bus.emit({ type: "message_end", message: m });
    bus.emit(compactionEnd(2)); // keeps "two" and "third"
    bus.emit({ type: "message_end", message: assistant("three") });
    const records = lines(store.path);
    const compaction = records.find((l) => l["type"] === "compaction")!;
    const keptRecord = records.find((l) => (l["message"] as Message | undefined)?.role === "assistant" && JSON.stringify(l).includes('"two"'))!;
    expect(compaction).toMatchObject({ summary: "SUMMARY-TEXT", firstKeptId: keptRecord["id"], reason: "threshold", tokensBefore: 1000, tokensAfter: 200, messagesSummarized: 3 });
    // Every original message is still in the file.
    expect(records.filter((l) => l["type"] === "message")).toHaveLength(6);

    const loaded = await loadSession(store.path);
    expect(loaded.messages[0]).toMatchObject({ role: "user", origin: "summary", content: expect.stringContaining("SUMMARY-TEXT") });
    expect(loaded.messages.slice(1)).toEqual([assistant("two"), user("third"), assistant("three")]);
    expect(loaded.messageIds).toHaveLength(3);
    expect(loaded.older).toBeUndefined();
    expect(loaded.stats.messages).toBe(6);
    expect(loaded.firstPrompt).toBe("first");

    // A second compaction after resuming points into what was loaded.
    store.close();
    const { store: reopened } = await SessionStore.open(store.path);
    const bus2 = new EventBus<PitwallEvent>();
    reopened.attach(bus2);
    bus2.emit({ type: "message_end", message: user("fourth") });
    bus2.emit(compactionEnd(1));
    reopened.close();
    const again = await loadSession(store.path);
    expect(again.messages.slice(1)).toEqual([user("fourth")]);
  });

  it("of a file written before ids existed load with ids from their line numbers", async () => {
    const path = join(root, "old.jsonl");
    const header = { type: "session", version: 1, id: "x", timestamp: "2026-01-01T00:00:00Z", cwd: "/p", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.0.9" };
    writeFileSync(path, [header, { type: "message", message: user("old one") }, { type: "message", message: assistant("old two") }].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const loaded = await loadSession(path);
    expect(loaded.messageIds).toEqual(["L2", "L3"]);
    expect(loaded.messages).toEqual([user("old one"), assistant("old two")]);
    // Compacting it later names the old message by its derived id.
    const { store } = await SessionStore.open(path);
    const bus = new EventBus<PitwallEvent>();
    store.attach(bus);
    bus.emit(compactionEnd(1));
    store.close();
    expect(lines(path).at(-1)).toMatchObject({ type: "compaction", firstKeptId: "L3" });
    expect((await loadSession(path)).messages.slice(1)).toEqual([assistant("old two")]);
  });
});

describe("loading within a budget", () => {
  /** 40 turns of a prompt and a ~4 000-character reply (about 1 000 tokens a turn). */
  function longSession(): string {
    const store = newStore();
    for (let i = 0; i < 40; i++) {
      store.recordMessage(user(`prompt ${i}`));
      store.recordMessage(assistant(`reply ${i} ${"r".repeat(4_000)}`));
    }
    store.close();
    return store.path;
  }

  it("keeps only the newest messages that fit and leaves the older part on disk, by line range", async () => {
    const path = longSession();
    const loaded = await loadSession(path, { budgetFor: () => 10_000 });
    expect(loaded.messages.length).toBeGreaterThan(10);
    expect(loaded.messages.length).toBeLessThan(24);
    expect(loaded.messages[0]).toMatchObject({ role: "user" });
    expect(loaded.messages.at(-1)).toEqual(assistant(`reply 39 ${"r".repeat(4_000)}`));
    const older = loaded.older!;
    expect(older.count + loaded.messages.length).toBe(80);
    expect(older.fromLine).toBe(2);
    expect(older.omitted).toBeUndefined();
    const read: Message[] = [];
    for await (const m of readOlderMessages(older)) read.push(m);
    expect(read).toHaveLength(older.count);
    expect(read[0]).toEqual(user("prompt 0"));
    expect(olderHistoryOf(loaded)?.count).toBe(older.count);
    expect(loaded.stats.messages).toBe(80);
  });

  it("names the oldest messages it will not summarise when the older part passes the cost cap", async () => {
    const path = longSession();
    const loaded = await loadSession(path, { budgetFor: () => 5_000, olderCapTokens: 5_000 });
    const older = loaded.older!;
    expect(older.omitted).toMatchObject({ fromLine: 2 });
    expect(older.omitted!.count + older.count + loaded.messages.length).toBe(80);
    expect(older.fromLine).toBe(older.omitted!.toLine + 1);
    expect(olderHistoryOf(loaded)?.omitted).toMatch(/oldest messages of this session \(lines 2–\d+ of .*\) are left out .* began with the request: "prompt 0"/);
  });
});
