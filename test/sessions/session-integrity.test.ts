// Session files never lose or mix up data: every record on a fresh line, every line validated, one
// folder per exact cwd, one live writer per session, failed appends kept and retried. Where a real
// file system or another process takes part, the tests are in session-integrity-os.test.ts.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../agent/event-bus.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { Message } from "../../agent/messages.js";
import { legacySessionFolderName, SessionFileError, sessionFolder } from "../../agent/sessions/session-file.js";
import { listSessions } from "../../agent/sessions/session-list.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { lockPathOf, sessionLockHolder } from "../../agent/sessions/session-lock.js";
import { SessionLockedError, SessionStore, type WriteFn } from "../../agent/sessions/session-store.js";
import { waitFor } from "../helpers/conditions.js";

let root: string;
const stores: SessionStore[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pitwall-sessions-"));
});
afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  rmSync(root, { recursive: true, force: true });
});

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });

function newStore(cwd = "/home/me/project", write?: WriteFn, retryMs?: number): SessionStore {
  const store = SessionStore.create({ root, cwd, provider: "anthropic", model: "m", thinkingLevel: "off", pitwallVersion: "0.1.0", write, retryMs });
  stores.push(store);
  return store;
}

async function contents(store: SessionStore): Promise<string[]> {
  return (await loadSession(store.path)).messages.map((m) => (m.role === "user" ? m.content : m.role));
}

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: simulated`), { code });
}

/** A write that fails with `code` while `failing()` says so, else writes normally. */
function switchable(code: string, failing: () => boolean): WriteFn {
  return (fd, buffer, offset, length) => {
    if (failing()) throw errno(code);
    return writeSync(fd, buffer, offset, length);
  };
}

/** A disk with `room` bytes left: writes are cut short at the limit, then fail with ENOSPC. */
function limitedDisk(): { room: number; write: WriteFn } {
  const disk = {
    room: Number.POSITIVE_INFINITY,
    write: (fd: number, buffer: Buffer, offset: number, length: number): number => {
      if (disk.room <= 0) throw errno("ENOSPC");
      const n = Math.min(length, disk.room);
      disk.room -= n;
      return writeSync(fd, buffer, offset, n);
    },
  };
  return disk;
}

describe("every record starts on a fresh line", () => {
  it("a torn tail left by a crash is ended before the next record, which survives the next load", async () => {
    const first = newStore();
    first.recordMessage(user("one"));
    first.close();
    appendFileSync(first.path, '{"type":"message","message":{"role":"user","cont');
    const { store, session } = await SessionStore.open(first.path);
    stores.push(store);
    expect(session.warnings).toEqual([expect.stringContaining("the last line (3) was cut off")]);
    store.recordMessage(user("two"));
    store.recordMessage(user("three"));
    const loaded = await loadSession(first.path);
    expect(loaded.messages.map((m) => (m as { content: string }).content)).toEqual(["one", "two", "three"]);
    expect(loaded.warnings).toEqual([expect.stringContaining("line 3 is not valid JSON")]);
  });

  it("a short write (a disk filling up mid-record) is finished where it stopped once there is room", async () => {
    const disk = limitedDisk();
    const store = newStore(undefined, disk.write);
    store.recordMessage(user("one"));
    disk.room = 20;
    store.recordMessage(user("two: this record does not fit"));
    expect(store.unsavedRecords).toBe(1);
    expect(readFileSync(store.path, "utf8").endsWith("\n")).toBe(false);
    disk.room = Number.POSITIVE_INFINITY;
    store.recordMessage(user("three"));
    expect(store.unsavedRecords).toBe(0);
    const loaded = await loadSession(store.path);
    expect(loaded.warnings).toEqual([]);
    expect(await contents(store)).toEqual(["one", "two: this record does not fit", "three"]);
  });

  it("a short write followed by a crash leaves one skipped line; the next pitwall starts a fresh one", async () => {
    const disk = limitedDisk();
    const crashed = newStore(undefined, disk.write);
    crashed.recordMessage(user("one"));
    disk.room = 10;
    crashed.recordMessage(user("lost with the crash"));
    // The process dies here: its lock goes with it (played by removing the lock file).
    rmSync(lockPathOf(crashed.path));
    stores.splice(stores.indexOf(crashed), 1);
    const { store } = await SessionStore.open(crashed.path);
    stores.push(store);
    store.recordMessage(user("after"));
    const loaded = await loadSession(crashed.path);
    expect(loaded.messages.map((m) => (m as { content: string }).content)).toEqual(["one", "after"]);
    expect(loaded.warnings).toEqual([expect.stringContaining("line 3 is not valid JSON")]);
    // The crashed process's retries died with it: stop this one's (the disk is still full, so it
    // writes nothing), or it would make the file again after the test removed its folder.
    crashed.close();
    expect(readFileSync(crashed.path, "utf8")).not.toContain("lost with the crash");
  });
});

describe("every line is validated", () => {
  function sessionWith(lines: string[]): string {
    const store = newStore();
    store.recordMessage(user("first"));
    store.close();
    appendFileSync(store.path, lines.map((l) => `${l}\n`).join(""));
    return store.path;
  }

  it("skips well-formed but wrong-shaped lines with one warning each, naming the line", async () => {
    const path = sessionWith([
      '{"type":"message"}',
      "null",
      "42",
      "[1,2]",
      '"text"',
      '{"type":"message","message":{"role":"user","content":7,"timestamp":1}}',
      '{"type":"message","message":{"role":"robot"}}',
      '{"type":"thinking_change","level":"extreme","timestamp":"t"}',
      JSON.stringify({ type: "message", message: user("last") }),
    ]);
    const loaded = await loadSession(path);
    expect(loaded.messages.map((m) => (m as { content: string }).content)).toEqual(["first", "last"]);
    expect(loaded.warnings).toEqual([
      `${path}: line 3, a "message" record, has the wrong shape (/message: Expected required property); it was skipped.`,
      `${path}: line 4 is null, not a session record; it was skipped.`,
      `${path}: line 5 is a number, not a session record; it was skipped.`,
      `${path}: line 6 is an array, not a session record; it was skipped.`,
      `${path}: line 7 is a string, not a session record; it was skipped.`,
      `${path}: line 8, a "message" record, has the wrong shape (/message/content: Expected string); it was skipped.`,
      `${path}: line 9, a "message" record, has the wrong shape (/message/role: expected "user", "assistant" or "toolResult"); it was skipped.`,
      expect.stringMatching(/^.*: line 10, a "thinking_change" record, has the wrong shape \(\/level: .*\); it was skipped\.$/),
    ]);
  });

  it("keeps a message a watch trigger sent, with the trigger that sent it", async () => {
    const store = newStore();
    const woken: Message = {
      role: "user",
      content: "job 2 printed (watch trigger 1 /FAIL/, set by the person, on: npm test):\n> 5 | FAIL sums",
      origin: "trigger",
      trigger: { jobId: "2", triggerId: 1, pattern: "FAIL", ignoreCase: false, action: "wake", setBy: "person" },
      timestamp: 2,
    };
    store.recordMessage(woken);
    store.close();
    const loaded = await loadSession(store.path);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.messages).toEqual([woken]);
  });

  it("a newer format version warns once; unknown record types warn and are skipped", async () => {
    const store = newStore();
    store.recordMessage(user("first"));
    store.close();
    const [header, ...rest] = readFileSync(store.path, "utf8").split("\n");
    const newer = { ...(JSON.parse(header!) as object), version: 3 };
    writeFileSync(
      store.path,
      [JSON.stringify(newer), ...rest.filter(Boolean), '{"type":"branch_summary","summary":"…"}', '{"type":"branch_summary","summary":"…"}', JSON.stringify({ type: "message", message: user("second") })]
        .map((l) => `${l}\n`)
        .join(""),
    );
    const loaded = await loadSession(store.path);
    expect(loaded.messages).toHaveLength(2);
    expect(loaded.warnings).toEqual([
      expect.stringContaining("was written by a newer pitwall (session format 3; this one reads 2)"),
      `${store.path}: lines 3, 4: unknown record type "branch_summary" (from a newer pitwall?); skipped.`,
    ]);
  });

  it("a file whose first line is not a session header is a clear error, not a TypeError", async () => {
    const path = join(root, "x.jsonl");
    writeFileSync(path, '{"type":"message"}\n');
    await expect(loadSession(path)).rejects.toThrow(SessionFileError);
    await expect(loadSession(path)).rejects.toThrow(`${path} is not a pitwall session: line 1 should be its session header (/version: Expected required property).`);
    writeFileSync(path, "null\n");
    await expect(loadSession(path)).rejects.toThrow(SessionFileError);
  });
});

describe("one folder per exact working directory", () => {
  it("/x/a-b/c and /x/a/b-c get different folders and never see each other's sessions", async () => {
    expect(sessionFolder(root, "/x/a-b/c")).not.toBe(sessionFolder(root, "/x/a/b-c"));
    newStore("/x/a-b/c").recordMessage(user("project a-b/c"));
    newStore("/x/a/b-c").recordMessage(user("project a/b-c"));
    expect((await listSessions(root, "/x/a-b/c")).map((s) => s.firstPrompt)).toEqual(["project a-b/c"]);
    expect((await listSessions(root, "/x/a/b-c")).map((s) => s.firstPrompt)).toEqual(["project a/b-c"]);
  });

  it("old-style folders are still found, but only sessions whose header names this cwd", async () => {
    // Both projects wrote into the one old folder: "--x-a-b-c--".
    const legacy = join(root, legacySessionFolderName("/x/a-b/c"));
    expect(legacy).toBe(join(root, legacySessionFolderName("/x/a/b-c")));
    mkdirSync(legacy, { recursive: true });
    for (const [cwd, prompt, file] of [
      ["/x/a-b/c", "old a-b/c", "one.jsonl"],
      ["/x/a/b-c", "old a/b-c", "two.jsonl"],
    ] as const) {
      const header = { type: "session", version: 1, id: prompt, timestamp: "t", cwd, provider: "anthropic", model: "m", thinkingLevel: "off", pitwallVersion: "0.0.1" };
      writeFileSync(join(legacy, file), `${JSON.stringify(header)}\n${JSON.stringify({ type: "message", message: user(prompt) })}\n`);
    }
    newStore("/x/a-b/c").recordMessage(user("new a-b/c"));
    expect((await listSessions(root, "/x/a-b/c")).map((s) => s.firstPrompt).sort()).toEqual(["new a-b/c", "old a-b/c"]);
    expect((await listSessions(root, "/x/a/b-c")).map((s) => s.firstPrompt)).toEqual(["old a/b-c"]);
  });
});

describe("one live writer per session", () => {
  it("a session being written is locked; opening it fails with the holder, and fork continues in a copy", async () => {
    const first = newStore();
    first.recordMessage(user("one"));
    first.recordMessage(user("two"));
    expect(sessionLockHolder(first.path)).toMatchObject({ pid: process.pid });
    let locked: SessionLockedError | undefined;
    try {
      await SessionStore.open(first.path);
    } catch (error) {
      locked = error as SessionLockedError;
    }
    expect(locked).toBeInstanceOf(SessionLockedError);
    expect(locked?.message).toMatch(new RegExp(`is open in another pitwall \\(pid ${process.pid}, since `));
    const before = readFileSync(first.path, "utf8");
    const { store: copy, session } = await SessionStore.fork(locked!.session, { root, cwd: "/home/me/project", pitwallVersion: "0.1.0" });
    stores.push(copy);
    expect(session.messages).toHaveLength(2);
    copy.recordMessage(user("three (in the copy)"));
    expect(readFileSync(first.path, "utf8")).toBe(before);
    expect((await loadSession(copy.path)).header.forkedFrom).toBe(first.path);
    expect(await contents(copy)).toEqual(["one", "two", "three (in the copy)"]);
    first.recordMessage(user("three (in the original)"));
    expect(await contents(first)).toEqual(["one", "two", "three (in the original)"]);
  });
});

describe("a failed append loses nothing", () => {
  it("keeps the records, reports once on the bus, and writes them all, in order, on the next append", async () => {
    let failing = false;
    const store = newStore(undefined, switchable("EACCES", () => failing));
    const bus = new EventBus<PitwallEvent>();
    const errors: string[] = [];
    bus.subscribe((e) => {
      if (e.type === "error") errors.push(`${e.source}: ${e.message}`);
    });
    store.attach(bus);
    const states: number[] = [];
    store.onSaveState((s) => states.push(s.unsavedRecords));
    bus.emit({ type: "message_end", message: user("one") });
    failing = true;
    bus.emit({ type: "message_end", message: user("two") });
    bus.emit({ type: "message_end", message: user("three") });
    await Promise.resolve();
    expect(errors).toEqual([expect.stringMatching(/^session: The session could not be saved to .*: permission denied \(EACCES\); .* 1 record is kept in memory/)]);
    expect(store.saveState).toMatchObject({ unsavedRecords: 2, problem: expect.stringContaining("2 records are kept in memory") });
    expect(await contents(store)).toEqual(["one"]);
    failing = false;
    bus.emit({ type: "message_end", message: user("four") });
    expect(await contents(store)).toEqual(["one", "two", "three", "four"]);
    expect(store.saveState).toEqual({ unsavedRecords: 0, problem: undefined, reason: undefined });
    expect(states).toEqual([1, 2, 0]);
    expect(errors).toHaveLength(1);
  });

  it("retries on a timer while nothing else is appended", async () => {
    let failing = true;
    const store = newStore(undefined, switchable("ENOSPC", () => failing), 20);
    store.recordMessage(user("one"));
    expect(store.unsavedRecords).toBe(1);
    failing = false;
    await waitFor(() => store.unsavedRecords === 0, "the retry timer to save the record");
    expect(await contents(store)).toEqual(["one"]);
  });
});
