import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFindTool } from "../../tools/find-tool.js";
import { SAMPLE_PROJECT, writeTree } from "./fixture-tree.js";
import { callTool, makeTempDir } from "./harness.js";

describe("find", () => {
  it("matches a name pattern at any depth, sorted, skipping .git and node_modules", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const result = await callTool(createFindTool(cwd), { pattern: "*.ts" });
    expect(result.content).toBe("src/app.test.ts\nsrc/app.ts\nsrc/util/math.ts");
    expect(result.details).toEqual({ path: cwd, totalMatches: 3, shown: 3, truncated: false, ignored: 1 });
  });

  it("matches a path pattern from the search folder and returns paths relative to the working directory", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const result = await callTool(createFindTool(cwd), { pattern: "util/*.ts", path: "src" });
    expect(result.content).toBe("src/util/math.ts");
  });

  it("includes dot folders other than .git, and node_modules when the pattern names it", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    expect((await callTool(createFindTool(cwd), { pattern: "*.yml" })).content).toBe(".github/workflows/ci.yml");
    expect((await callTool(createFindTool(cwd), { pattern: "node_modules/**/*.ts" })).content).toBe("node_modules/lib/index.ts");
  });

  it("caps a long list and gives the next call", async () => {
    const cwd = await makeTempDir();
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`gen/f${String(i).padStart(2, "0")}.txt`] = "";
    await writeTree(cwd, files);
    const result = await callTool(createFindTool(cwd), { pattern: "*.txt", limit: 10 });
    const [list, note] = result.content.split("\n\n");
    expect(list?.split("\n")).toHaveLength(10);
    expect(note).toBe('[Showing 10 of 30 paths. Narrow the pattern or path or raise the limit: find(pattern="*.txt", limit=30)]');
    expect(result.details).toMatchObject({ totalMatches: 30, shown: 10, truncated: true });
  });

  it("says when nothing matches, and fails on a missing folder or a file", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const tool = createFindTool(cwd);
    expect((await callTool(tool, { pattern: "*.rs" })).content).toBe(
      "No files match *.rs under the working directory. 1 ignored folder or file was not searched (.gitignore, .ignore, git excludes, node_modules); include_ignored: true searches them too.",
    );
    await expect(callTool(tool, { pattern: "*", path: "missing" })).rejects.toThrow(
      `Path not found: missing (resolved to ${join(cwd, "missing")})`,
    );
    await expect(callTool(tool, { pattern: "*", path: "package.json" })).rejects.toThrow("package.json is a file, not a folder.");
  });
});
