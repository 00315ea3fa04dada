// The chat's memory has a bound that does not depend on the length of the session: beyond what it
// keeps, the oldest whole messages go, with their tool calls, and come back a page at a time from
// the session file when the person scrolls up to them, down to the first turn.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { emptyUsage, type Message } from "../../agent/messages.js";
import { readPageBefore } from "../../agent/sessions/branch-pages.js";
import { ChatLog, KEEP_ENTRIES, OLDER_PAGE, type OlderReader } from "../../panes/chat/chat-log.js";
import { UserEntry } from "../../panes/chat/chat-entries.js";
import { lineText } from "../../panes/text/styled-text.js";
import { ToolCallStore } from "../../panes/tool-output/tool-calls.js";
import { writeLongSession } from "../helpers/session-files.js";

const folder = mkdtempSync(join(tmpdir(), "pitwall-chat-history-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Turns of a prompt, a read call, its result and an answer; every message of a turn at one time, as a fast model's may be. */
function turns(count: number): Message[] {
  const messages: Message[] = [];
  const usage = emptyUsage();
  for (let i = 0; i < count; i++) {
    messages.push({ role: "user", content: `task ${i}`, timestamp: i });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Reading ${i}.` }, { type: "toolCall", id: `call_${i}`, name: "read", arguments: { file_path: `part-${i}.txt` } }], provider: "anthropic", model: "m", usage, stopReason: "toolUse", timestamp: i });
    messages.push({ role: "toolResult", toolCallId: `call_${i}`, toolName: "read", content: `contents of part ${i}`, isError: false, timestamp: i });
    messages.push({ role: "assistant", content: [{ type: "text", text: `Part ${i} is fine.` }], provider: "anthropic", model: "m", usage, stopReason: "stop", timestamp: i });
  }
  return messages;
}

/** What the session file would give back, from memory. */
function readerOver(messages: readonly Message[], reads: Array<number | undefined> = []): OlderReader {
  return async (isStart, max) => {
    reads.push(max);
    const at = messages.findIndex(isStart);
    const before = messages.slice(0, at === -1 ? messages.length : at);
    const page = max === undefined ? before : before.slice(-max);
    return { messages: page, more: page.length < before.length };
  };
}

/** The first prompt the chat holds, as it draws it. */
function firstUserText(log: ChatLog): string | undefined {
  for (let i = log.first(); i < log.end(); i++) {
    const task = /task \d+/.exec(log.rows(i, 80).map(lineText).join(" "));
    if (task) return task[0];
  }
  return undefined;
}

describe("the chat keeps recent entries", () => {
  test("a 5,000-turn conversation keeps at most KEEP_ENTRIES entries (plus the slack) and lets go of the calls it no longer shows", () => {
    const tools = new ToolCallStore();
    const log = new ChatLog(tools);
    log.loadMessages(turns(5_000));
    expect(log.size).toBe(20_000);
    log.trim();
    expect(log.size).toBeLessThanOrEqual(KEEP_ENTRIES);
    expect(log.size).toBeGreaterThan(KEEP_ENTRIES - 10);
    expect(log.hasOlder).toBe(true);
    // Indices never shift: the last entry is where it was.
    expect(log.end()).toBe(20_000);
    expect(tools.get("call_0")).toBeUndefined();
    expect(tools.get("call_4999")?.status).toBe("done");
    expect(tools.size).toBeLessThanOrEqual(KEEP_ENTRIES / 4 + 1);
    // The cut falls between messages: the oldest entry held starts one.
    expect(firstUserText(log)).toMatch(/task \d+/);
  });

  test("scrolling up reads the page before the oldest held; Home reads all of it; the first turn comes back, with its calls", async () => {
    const all = turns(5_000);
    const tools = new ToolCallStore();
    const log = new ChatLog(tools);
    log.loadMessages(all);
    log.trim();
    const first = log.first();
    const reads: Array<number | undefined> = [];
    expect(await log.loadOlder(readerOver(all, reads))).toBe(true);
    expect(reads).toEqual([OLDER_PAGE]);
    // A page of messages, drawn as the chat draws them: 200 messages are 50 turns of 4 entries.
    expect(first - log.first()).toBe(200);
    expect(log.hasOlder).toBe(true);
    expect(await log.loadOlder(readerOver(all, reads), true)).toBe(true);
    expect(log.hasOlder).toBe(false);
    expect(log.first()).toBe(0);
    expect(log.size).toBe(20_000);
    expect(firstUserText(log)).toBe("task 0");
    expect(tools.get("call_0")?.result?.content).toBe("contents of part 0");
    // The latest call stays the latest: older ones read back do not take its place.
    expect(tools.latestId).toBe("call_4999");
    // Nothing more to read.
    expect(await log.loadOlder(readerOver(all, reads))).toBe(false);
  });

  test("a page that arrives after a /clear is not put above the new conversation", async () => {
    const all = turns(3_000);
    const log = new ChatLog(new ToolCallStore());
    log.loadMessages(all);
    log.trim();
    let answer: (() => void) | undefined;
    const slow: OlderReader = (isStart, max) => new Promise((resolve) => (answer = () => void readerOver(all)(isStart, max).then(resolve)));
    const loading = log.loadOlder(slow);
    log.clear();
    log.add(new UserEntry("a new conversation", "prompt"));
    answer!();
    expect(await loading).toBe(false);
    expect(log.size).toBe(1);
  });
});

describe("pages read back from the session file", () => {
  test("the messages just before one, from a 5,000-turn file: one page, or all of them, and whether more are before", async () => {
    const path = join(folder, "long.jsonl");
    writeLongSession(path, { turns: 5_000, resultChars: 100 });
    const ids = new Set(Array.from({ length: 20_000 }, (_, n) => n.toString(16).padStart(8, "0")));
    // The answer of turn 4000 (an assistant message at time 4000 that stops).
    const isStart = (m: Message): boolean => m.role === "assistant" && m.timestamp === 4_000 && m.stopReason === "stop";
    const page = await readPageBefore(path, ids, isStart, 6);
    expect(page.more).toBe(true);
    expect(page.messages.map((m) => m.role)).toEqual(["assistant", "toolResult", "assistant", "user", "assistant", "toolResult"]);
    expect(page.messages[0]).toMatchObject({ role: "assistant", timestamp: 3_999, stopReason: "toolUse" });
    const everything = await readPageBefore(path, ids, isStart, undefined);
    expect(everything.more).toBe(false);
    expect(everything.messages).toHaveLength(4 * 4_000 + 3);
    expect(everything.messages[0]).toMatchObject({ role: "user", content: "task 0: look at part 0" });
  });

  test("only the current branch's records count; a message that is not on it gives nothing", async () => {
    const path = join(folder, "branch.jsonl");
    writeLongSession(path, { turns: 10, resultChars: 10 });
    // Ids of turns 0–2 and 5–9: turns 3 and 4 stand for another branch.
    const ids = new Set(Array.from({ length: 40 }, (_, n) => n).filter((n) => n < 12 || n >= 20).map((n) => n.toString(16).padStart(8, "0")));
    const page = await readPageBefore(path, ids, (m) => m.role === "user" && m.timestamp === 5, undefined);
    expect(page.messages).toHaveLength(12);
    expect(page.messages.at(-1)).toMatchObject({ role: "assistant", timestamp: 2 });
    expect(await readPageBefore(path, ids, (m) => m.role === "user" && m.timestamp === 3, undefined)).toEqual({ messages: [], more: false });
  });
});
