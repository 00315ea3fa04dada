// Session files: append-only lines, whole lines only, torn last lines skipped, secrets never written,
// interrupted tool calls closed on resume, listing for --resume.
import { appendFileSync, readFileSync, readdirSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../agent/event-bus.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { INTERRUPTED_RESULT } from "../../agent/providers/transcript.js";
import { sessionFolder, sessionFolderName } from "../../agent/sessions/session-file.js";
import { listSessions } from "../../agent/sessions/session-list.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { tempDir } from "../helpers/temp-dir.js";

let root: string;
beforeEach(() => {
  root = tempDir("sessions");
});

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });
const assistant = (text: string, extra: Partial<AssistantMessage> = {}): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider: "anthropic",
  model: "claude-sonnet-5-5",
  usage: { ...emptyUsage(), input: 10, output: 5, totalTokens: 15, cost: { input: 0.01, output: 0.02, cacheRead: 0, cacheWrite: 0, total: 0.03 } },
  stopReason: "stop",
  timestamp: 2,
  ...extra,
});

function newStore(secrets: string[] = []): SessionStore {
  return SessionStore.create({ root, cwd: "/home/me/project", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0", secrets });
}

describe("session files", () => {
  it("live under --<cwd with / as ->--<hash of the cwd>/<timestamp>_<uuid>.jsonl", () => {
    expect(sessionFolderName("/home/me/project")).toMatch(/^--home-me-project--[0-9a-f]{8}$/);
    const store = newStore();
    store.recordMessage(user("hello"));
    expect(store.path.startsWith(join(root, sessionFolderName("/home/me/project")))).toBe(true);
    expect(store.path).toMatch(/\/\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);
  });

  it("are created with the first message, header first, one whole line per record", async () => {
    const bus = new EventBus<PitwallEvent>();
    const store = newStore();
    store.attach(bus);
    bus.emit({ type: "thinking_change", level: "high" });
    expect(store.persisted).toBe(false);
    bus.emit({ type: "message_end", message: user("hello") });
    bus.emit({ type: "model_change", provider: "openai", model: "gpt-5.4" });
    bus.emit({ type: "message_end", message: assistant("hi there") });
    const lines = readFileSync(store.path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(["session", "message", "model_change", "message"]);
    expect(lines[0]).toMatchObject({ cwd: "/home/me/project", model: "claude-sonnet-5-5", provider: "anthropic", thinkingLevel: "high", pitwallVersion: "0.1.0" });
    const loaded = await loadSession(store.path);
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.model).toBe("gpt-5.4");
    expect(loaded.thinkingLevel).toBe("high");
  });

  it("never contain the API keys in use, even when a tool printed them", () => {
    const key = "sk-ant-test-SECRET-0123456789";
    const store = newStore([key]);
    store.recordMessage(user("print env"));
    store.recordMessage({ role: "toolResult", toolCallId: "t1", toolName: "bash", content: `ANTHROPIC_API_KEY=${key}\nPATH=/usr/bin`, isError: false, timestamp: 3 });
    const text = readFileSync(store.path, "utf8");
    expect(text).not.toContain(key);
    expect(text).toContain("ANTHROPIC_API_KEY=[redacted]");
  });

  it("load with a torn last line skipped and a warning", async () => {
    const store = newStore();
    store.recordMessage(user("one"));
    store.recordMessage(assistant("two"));
    appendFileSync(store.path, '{"type":"message","message":{"role":"user","cont');
    const loaded = await loadSession(store.path);
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.warnings).toEqual([expect.stringContaining("the last line (4) was cut off")]);
  });

  it("close a tool call interrupted mid-run with an error result when resumed", async () => {
    const store = newStore();
    store.recordMessage(user("run it"));
    store.recordMessage({ ...assistant(""), content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "sleep 100" } }], stopReason: "toolUse" });
    store.close();
    const { store: reopened, session } = await SessionStore.open(store.path);
    reopened.close();
    expect(session.messages.at(-1)).toMatchObject({ role: "toolResult", toolCallId: "call_1", isError: true, content: INTERRUPTED_RESULT });
    // The closing result is on disk too, so the next resume does not add another.
    expect((await loadSession(store.path)).messages).toHaveLength(3);
    const again = await SessionStore.open(store.path);
    again.store.close();
    expect(again.session.messages).toHaveLength(3);
  });

  it("are listed newest first with first prompt, message count and cost", async () => {
    const first = newStore();
    first.recordMessage(user("first task"));
    first.recordMessage(assistant("done"));
    // The first was written a minute earlier: sessions are listed by when they were last written.
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(first.path, earlier, earlier);
    const second = newStore();
    second.recordMessage(user("second task"));
    const list = await listSessions(root, "/home/me/project");
    expect(list.map((s) => s.firstPrompt)).toEqual(["second task", "first task"]);
    expect(list[1]).toMatchObject({ messageCount: 2, cost: 0.03 });
    expect(list[0]!.cost).toBeNull();
    expect(readdirSync(sessionFolder(root, "/home/me/project")).filter((name) => name.endsWith(".jsonl"))).toHaveLength(2);
    expect(await listSessions(root, "/elsewhere")).toEqual([]);
  });

  it("report stats for /session", () => {
    const store = newStore();
    store.recordMessage(user("a"));
    store.recordMessage(assistant("b"));
    expect(store.stats()).toMatchObject({ path: store.path, messages: 2, userMessages: 1, tokens: 15, cost: 0.03 });
  });
});

describe("the wake cap's count", () => {
  it("is kept in the session as it changes, also when it changed before the first message, and a resumed session reads the last one", async () => {
    const bus = new EventBus<PitwallEvent>();
    const store = newStore();
    store.attach(bus);
    // A trigger's wake starts a run before its message: the count waits for the file.
    bus.emit({ type: "wake_count", unattended: 1, told: false });
    bus.emit({ type: "message_end", message: user("job 1 printed: FAIL") });
    bus.emit({ type: "message_end", message: assistant("Woken.") });
    bus.emit({ type: "wake_count", unattended: 5, told: true });
    store.close();
    const lines = readFileSync(store.path, "utf8").trim().split("\n").map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(["session", "message", "wake_count", "message", "wake_count"]);
    const loaded = await loadSession(store.path);
    expect(loaded.wakes).toEqual({ unattended: 5, told: true });
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.warnings).toEqual([]);
  });
});

