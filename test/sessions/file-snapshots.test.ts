// The contents kept for rewinds: one file per distinct content, a file over the per-file cap only
// hashed, the least recently stored contents removed past the session's cap, a content holding a
// key never written; restoring says which contents were not kept and why.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileSnapshots, SNAPSHOT_FILE_CAP, SNAPSHOT_SESSION_CAP } from "../../agent/sessions/file-snapshots.js";
import { restoreFiles } from "../../agent/sessions/file-restore.js";
import type { FileState } from "../../agent/sessions/session-file.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pitwall-snapshots-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const kept = (folder: string): string[] => readdirSync(folder).sort();

describe("file snapshots", () => {
  it("are 2 MiB per file and 64 MiB per session", () => {
    expect(SNAPSHOT_FILE_CAP).toBe(2 * 1024 * 1024);
    expect(SNAPSHOT_SESSION_CAP).toBe(64 * 1024 * 1024);
  });

  it("keep each distinct content once; a missing file is null; a folder is not captured", async () => {
    const snapshots = new FileSnapshots(join(dir, "s.snapshots"));
    writeFileSync(join(dir, "a"), "same\n");
    writeFileSync(join(dir, "b"), "same\n");
    const a = await snapshots.capture(join(dir, "a"));
    const b = await snapshots.capture(join(dir, "b"));
    expect(a).toEqual(b);
    expect(a).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), bytes: 5 });
    expect(kept(join(dir, "s.snapshots"))).toEqual([a!.hash]);
    expect((await snapshots.read(a!.hash))!.toString()).toBe("same\n");
    expect(await snapshots.capture(join(dir, "nothing-here"))).toBeNull();
    expect(await snapshots.capture(dir)).toBeUndefined();
  });

  it("only hash a file over the per-file cap, and drop the least recently stored past the session cap", async () => {
    const snapshots = new FileSnapshots(join(dir, "s.snapshots"), { fileCap: 10, sessionCap: 20 });
    writeFileSync(join(dir, "big"), "x".repeat(11));
    expect(await snapshots.capture(join(dir, "big"))).toEqual({ hash: expect.any(String), bytes: 11, unkept: "size" });
    const states: FileState[] = [];
    for (const content of ["1111111", "2222222", "3333333"]) {
      writeFileSync(join(dir, "f"), content);
      states.push((await snapshots.capture(join(dir, "f")))!);
    }
    // 3 × 7 bytes > 20: the first one went.
    expect(kept(join(dir, "s.snapshots"))).toEqual([states[1]!.hash, states[2]!.hash].sort());
    expect(await snapshots.read(states[0]!.hash)).toBeUndefined();
    // Stored again, the second becomes recent: the next to go is the third.
    writeFileSync(join(dir, "f"), "2222222");
    await snapshots.capture(join(dir, "f"));
    writeFileSync(join(dir, "f"), "4444444");
    const fourth = (await snapshots.capture(join(dir, "f")))!;
    expect(kept(join(dir, "s.snapshots"))).toEqual([states[1]!.hash, fourth.hash].sort());
    // A new process reads what is kept, oldest first, from the folder.
    const again = new FileSnapshots(join(dir, "s.snapshots"), { fileCap: 10, sessionCap: 20 });
    writeFileSync(join(dir, "f"), "5555555");
    await again.capture(join(dir, "f"));
    expect(kept(join(dir, "s.snapshots"))).toHaveLength(2);
  });

  it("a restore names the contents that were not kept, and why", async () => {
    const snapshots = new FileSnapshots(join(dir, "s.snapshots"), { fileCap: 10, sessionCap: 20 });
    const path = join(dir, "f");
    writeFileSync(path, "old content, too long");
    const before = (await snapshots.capture(path))!;
    writeFileSync(path, "new");
    const after = (await snapshots.stateOf(path)) as FileState;
    const evicted = { hash: "e".repeat(64), bytes: 5 };
    const other = join(dir, "g");
    writeFileSync(other, "now");
    const report = await restoreFiles(
      [
        { toolCallId: "1", path, before, after },
        { toolCallId: "2", path: other, before: evicted, after: (await snapshots.stateOf(other)) as FileState },
      ],
      snapshots,
    );
    expect(report.failed).toEqual([
      { path, reason: "its content at that point (21 bytes) was larger than the 2 MiB pitwall keeps per file" },
      { path: other, reason: "its content at that point is no longer kept (the session keeps the most recent 64 MiB of file contents)" },
    ]);
  });
});
