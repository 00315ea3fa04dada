// replaceFile on a disk that fills up while it writes: a real tmpfs of a few KiB, mounted with
// mount(8) when this machine allows it (so these run in the full tier). Nothing is lost either way.
import { link, mkdtemp, readdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replaceFile } from "../../tools/replace-file.js";
import { fillUp, mountSmallFilesystem, type SmallFilesystem } from "../helpers/small-filesystem.js";

describe("replaceFile on a full disk (a real tmpfs, when this machine allows mounting one)", () => {
  let fs: SmallFilesystem = { reason: "not mounted yet" };
  beforeAll(() => {
    fs = mountSmallFilesystem(256);
  });
  afterAll(() => {
    if ("unmount" in fs) fs.unmount();
  });

  it("an atomic write that runs out of space leaves the old file and no temp file", async (context) => {
    if (!("path" in fs)) return context.skip(fs.reason);
    const dir = await mkdtemp(join(fs.path, "atomic-"));
    await writeFile(join(dir, "f.txt"), "old contents\n");
    const filler = fillUp(fs.path);
    try {
      await expect(replaceFile(join(dir, "f.txt"), "x".repeat(64 * 1024))).rejects.toMatchObject({ code: "ENOSPC" });
      expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("old contents\n");
      expect(await readdir(dir)).toEqual(["f.txt"]);
    } finally {
      await unlink(filler);
    }
  });

  it("an in-place write (a hard-linked file) that runs out of space puts the old contents back", async (context) => {
    if (!("path" in fs)) return context.skip(fs.reason);
    const dir = await mkdtemp(join(fs.path, "in-place-"));
    const old = "old contents\n".repeat(100);
    await writeFile(join(dir, "f.txt"), old);
    await link(join(dir, "f.txt"), join(dir, "g.txt"));
    const filler = fillUp(fs.path);
    try {
      await expect(replaceFile(join(dir, "f.txt"), "y".repeat(64 * 1024), { shownPath: "f.txt" })).rejects.toThrow(
        "Writing f.txt failed (ENOSPC); its old contents were written back. The disk is full: free some space and try again.",
      );
      expect(await readFile(join(dir, "g.txt"), "utf8")).toBe(old);
    } finally {
      await unlink(filler);
    }
  });
});
