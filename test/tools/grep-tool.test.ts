import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGrepTool } from "../../tools/grep-tool.js";
import { SAMPLE_PROJECT, writeTree } from "./fixture-tree.js";
import { callTool, makeTempDir } from "./harness.js";

describe("grep", () => {
  it("lists matching lines as path:line: text, skipping .git, node_modules and binary files", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const result = await callTool(createGrepTool(cwd), { pattern: "listen" });
    expect(result.content).toBe("docs/notes.md:2: listen carefully\nsrc/app.ts:2:   return listen(3000);");
    expect(result.details).toMatchObject({ path: cwd, matches: 2, truncated: false });
  });

  it("narrows by glob and path, and can ignore case", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const tool = createGrepTool(cwd);
    expect((await callTool(tool, { pattern: "start", glob: "*.md", ignore_case: true })).content).toBe("docs/notes.md:1: Start here.");
    expect((await callTool(tool, { pattern: "^export", path: "src/util" })).content).toBe(
      "src/util/math.ts:1: export const TWO = 2;\nsrc/util/math.ts:2: export function add(a: number, b: number) {",
    );
    expect((await callTool(tool, { pattern: "a + b", path: "src/util/math.ts", literal: true })).content).toBe(
      "src/util/math.ts:3:   return a + b;",
    );
  });

  it("stops at the limit and gives the next call", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "many.txt"), Array.from({ length: 50 }, (_, i) => `hit ${i + 1}`).join("\n"));
    const result = await callTool(createGrepTool(cwd), { pattern: "hit", limit: 5 });
    const [list, note] = result.content.split("\n\n");
    expect(list?.split("\n")).toEqual(["many.txt:1: hit 1", "many.txt:2: hit 2", "many.txt:3: hit 3", "many.txt:4: hit 4", "many.txt:5: hit 5"]);
    expect(note).toBe(
      '[Stopped at 5 matching lines; there are more. Narrow the pattern, path or glob, or raise the limit: grep(pattern="hit", limit=1000)]',
    );
    expect(result.details).toMatchObject({ matches: 5, truncated: true });
  });

  it("says when nothing matches, and explains a bad regular expression", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, SAMPLE_PROJECT);
    const tool = createGrepTool(cwd);
    expect((await callTool(tool, { pattern: "nowhere to be found" })).content).toBe(
      "No matches for nowhere to be found in the working directory. 1 ignored folder or file was not searched (.gitignore, .ignore, git excludes, node_modules); include_ignored: true searches them too.",
    );
    await expect(callTool(tool, { pattern: "listen(" })).rejects.toThrow(/"listen\(" is not a valid regular expression.*pass literal: true/);
  });
});
