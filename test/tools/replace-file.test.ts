import { chmod, lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolAbortedError } from "../../tools/aborted.js";
import { replaceFile } from "../../tools/replace-file.js";
import { makeTempDir } from "./harness.js";

describe("replaceFile", () => {
  it("replaces a file and leaves no temp file behind", async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, "f.txt"), "old");
    await replaceFile(join(dir, "f.txt"), "new");
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("new");
    expect(await readdir(dir)).toEqual(["f.txt"]);
  });

  it("keeps the permission bits of the file it replaces", async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, "run.sh"), "#!/bin/sh\n");
    await chmod(join(dir, "run.sh"), 0o750);
    await replaceFile(join(dir, "run.sh"), "#!/bin/sh\necho hi\n");
    expect((await stat(join(dir, "run.sh"))).mode & 0o777).toBe(0o750);
  });

  it("writes through a symlink to its target and keeps the link", async () => {
    const dir = await makeTempDir();
    await mkdir(join(dir, "real"));
    await writeFile(join(dir, "real/config.json"), "{}");
    await symlink(join(dir, "real/config.json"), join(dir, "link.json"));
    await replaceFile(join(dir, "link.json"), '{"a":1}');
    expect((await lstat(join(dir, "link.json"))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(dir, "link.json"))).toBe(join(dir, "real/config.json"));
    expect(await readFile(join(dir, "real/config.json"), "utf8")).toBe('{"a":1}');
  });

  it("an abort just before the rename leaves the old contents and removes the temp file", async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, "f.txt"), "old");
    const controller = new AbortController();
    let tempSeen: string[] = [];
    const pending = replaceFile(join(dir, "f.txt"), "new", {
      signal: controller.signal,
      beforeCommit: async () => {
        tempSeen = await readdir(dir);
        controller.abort();
      },
    });
    await expect(pending).rejects.toBeInstanceOf(ToolAbortedError);
    expect(tempSeen).toHaveLength(2);
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("old");
    expect(await readdir(dir)).toEqual(["f.txt"]);
  });

  it("a failing pre-rename check cancels the write", async () => {
    const dir = await makeTempDir();
    await writeFile(join(dir, "f.txt"), "old");
    const pending = replaceFile(join(dir, "f.txt"), "new", {
      beforeCommit: () => {
        throw new Error("changed meanwhile");
      },
    });
    await expect(pending).rejects.toThrow("changed meanwhile");
    expect(await readFile(join(dir, "f.txt"), "utf8")).toBe("old");
    expect(await readdir(dir)).toEqual(["f.txt"]);
  });
});
