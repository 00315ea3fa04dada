// Session files never lose data where the operating system takes part: a lock whose process died
// is taken over, and appends that a real full or read-only file system refuses wait and are written
// later. These start processes (a short-lived one for a dead pid, mount for a tmpfs), so they run in
// the full tier; the rest of the session file's guarantees are in session-integrity.test.ts.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Message } from "../../agent/messages.js";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { lockPathOf, sessionLockHolder } from "../../agent/sessions/session-lock.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { fillUp, mountSmallFilesystem, type SmallFilesystem } from "../helpers/small-filesystem.js";

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

function newStore(cwd = "/home/me/project"): SessionStore {
  const store = SessionStore.create({ root, cwd, provider: "anthropic", model: "m", thinkingLevel: "off", pitwallVersion: "0.1.0" });
  stores.push(store);
  return store;
}

async function contents(store: SessionStore): Promise<string[]> {
  return (await loadSession(store.path)).messages.map((m) => (m.role === "user" ? m.content : m.role));
}

describe("one live writer per session", () => {
  it("the lock dies with its process: a dead pid, or a live pid started at another time, is taken over", async () => {
    const first = newStore();
    first.recordMessage(user("one"));
    first.close();
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
    const lock = (pid: number, startTime: string | null): void =>
      writeFileSync(lockPathOf(first.path), JSON.stringify({ pid, since: new Date().toISOString(), host: hostname(), startTime }));
    lock(Number(dead.stdout), null);
    expect(sessionLockHolder(first.path)).toBeUndefined();
    lock(process.pid, "1"); // Our pid, but a process started at another time: the pid was reused.
    expect(sessionLockHolder(first.path)).toBeUndefined();
    const { store } = await SessionStore.open(first.path);
    stores.push(store);
    expect(sessionLockHolder(first.path)).toMatchObject({ pid: process.pid });
    store.close();
    expect(readdirSync(sessionFolder(root, "/home/me/project")).filter((n) => n.endsWith(".lock"))).toEqual([]);
  });
});

describe("a failed append on a real file system (a tmpfs, when this machine allows mounting one)", () => {
  let fs: SmallFilesystem = { reason: "not mounted yet" };
  beforeAll(() => {
    fs = mountSmallFilesystem(256);
  });
  afterAll(() => {
    if ("unmount" in fs) fs.unmount();
  });

  function storeOn(dir: string): SessionStore {
    const store = SessionStore.create({ root: dir, cwd: "/p", provider: "anthropic", model: "m", thinkingLevel: "off", pitwallVersion: "0.1.0" });
    stores.push(store);
    return store;
  }

  it("a full disk (ENOSPC): the records wait in memory and are written once there is room", async (context) => {
    if (!("path" in fs)) return context.skip(fs.reason);
    const store = storeOn(mkdtempSync(join(fs.path, "full-")));
    store.recordMessage(user("before"));
    const filler = fillUp(fs.path);
    store.recordMessage(user("x".repeat(8 * 1024)));
    expect(store.saveState.problem).toContain("the disk is full (ENOSPC)");
    rmSync(filler);
    store.recordMessage(user("after"));
    expect(store.unsavedRecords).toBe(0);
    expect(await contents(store)).toEqual(["before", "x".repeat(8 * 1024), "after"]);
    expect((await loadSession(store.path)).warnings).toEqual([]);
  });

  it("a read-only file system (EROFS, which stops root too): the records wait and are written when it is writable again", async (context) => {
    if (!("path" in fs)) return context.skip(fs.reason);
    const { path, setReadOnly } = fs;
    const store = storeOn(mkdtempSync(join(path, "ro-")));
    store.recordMessage(user("before"));
    setReadOnly(true);
    try {
      store.recordMessage(user("while read-only"));
      expect(store.saveState.problem).toContain("the file system is read-only (EROFS)");
    } finally {
      setReadOnly(false);
    }
    store.recordMessage(user("after"));
    expect(await contents(store)).toEqual(["before", "while read-only", "after"]);
  });
});
