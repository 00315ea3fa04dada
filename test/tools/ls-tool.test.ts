import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createLsTool } from "../../tools/ls-tool.js";
import { SAMPLE_PROJECT, writeTree } from "./fixture-tree.js";
import { callTool, makeTempDir } from "./harness.js";

describe("ls", () => {
  it("lists a folder sorted, dot entries included, folders with / and symlinks with @", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    await symlink(join(cwd, "package.json"), join(cwd, "link.json"));
    const result = await callTool(createLsTool(cwd), {});
    expect(result.content).toBe([".git/", ".github/", "assets/", "docs/", "link.json@", "node_modules/", "package.json", "src/"].join("\n"));
    expect(result.details).toEqual({ path: cwd, totalEntries: 8, shown: 8, truncated: false, ignored: [] });
    expect((await callTool(createLsTool(cwd), { path: "src" })).content).toBe("app.test.ts\napp.ts\nutil/");
  });

  it("caps a long listing and gives the next call", async () => {
    const cwd = await makeTempDir();
    for (let i = 0; i < 12; i++) await mkdir(join(cwd, `d${String(i).padStart(2, "0")}`));
    const result = await callTool(createLsTool(cwd), { limit: 4 });
    expect(result.content).toBe("d00/\nd01/\nd02/\nd03/\n\n[Showing 4 of 12 entries. Next: ls(limit=12), or use find with a pattern to narrow.]");
    expect(result.details).toMatchObject({ truncated: true, shown: 4, totalEntries: 12 });
  });

  it("says a folder is empty, and fails on a missing path or a file", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    await mkdir(join(cwd, "empty"));
    const tool = createLsTool(cwd);
    expect((await callTool(tool, { path: "empty" })).content).toBe("empty is empty.");
    await expect(callTool(tool, { path: "nope" })).rejects.toThrow("Path not found: nope");
    await expect(callTool(tool, { path: "package.json" })).rejects.toThrow("package.json is a file, not a folder. Read it with read.");
  });
});
