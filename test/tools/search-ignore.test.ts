// find, grep and ls leave out what git would ignore: nested .gitignore files, .ignore, the
// repository's info/exclude and the global excludes file; .git always; and they work without git.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFindTool } from "../../tools/find-tool.js";
import { createGrepTool } from "../../tools/grep-tool.js";
import { IgnoreRules } from "../../tools/ignore-rules.js";
import { createLsTool } from "../../tools/ls-tool.js";
import { listFiles } from "../../tools/search-scope.js";
import { writeTree } from "./fixture-tree.js";
import { callTool, makeTempDir } from "./harness.js";

/** A repository as git leaves it on disk (no git binary needed): a .git folder with info/exclude. */
async function makeRepo(files: Record<string, string>): Promise<string> {
  const cwd = await makeTempDir();
  await mkdir(join(cwd, ".git/info"), { recursive: true });
  await writeFile(join(cwd, ".git/HEAD"), "ref: refs/heads/main\n");
  await writeTree(cwd, files);
  return cwd;
}

function builtProject(): Record<string, string> {
  const files: Record<string, string> = {
    ".gitignore": "dist/\n*.log\n",
    "src/thing.ts": "export function createThing() {}\n",
    "debug.log": "createThing failed\n",
  };
  for (let i = 0; i < 100; i++) files[`dist/chunk-${i}.js`] = "function createThing(){}\n";
  return files;
}

describe("find, grep and ls honour ignore files", () => {
  it("grep in a project with a built, gitignored dist/ finds the source, not the build", async () => {
    const cwd = await makeRepo(builtProject());
    const result = await callTool(createGrepTool(cwd), { pattern: "createThing" });
    expect(result.content).toBe("src/thing.ts:1: export function createThing() {}");
    const all = await callTool(createGrepTool(cwd), { pattern: "createThing", include_ignored: true, limit: 1000 });
    expect(all.details?.matches).toBe(102);
  });

  it("an ignored folder is skipped whole: counted once, never descended into", async () => {
    const cwd = await makeRepo({ ...builtProject(), "dist/.gitignore": "!*.js\n" });
    const listing = await listFiles(cwd, "**/*");
    expect(listing.files).toEqual([".gitignore", "src/thing.ts"]);
    // dist/ and debug.log; the 100 files inside dist/ were never looked at.
    expect(listing.ignored).toBe(2);
  });

  it("find leaves ignored files out unless asked, and a pattern naming an ignored folder reaches it", async () => {
    const cwd = await makeRepo(builtProject());
    const find = createFindTool(cwd);
    expect((await callTool(find, { pattern: "*.js" })).content).toBe(
      "No files match *.js under the working directory. 2 ignored folders or files were not searched (.gitignore, .ignore, git excludes, node_modules); include_ignored: true searches them too.",
    );
    expect((await callTool(find, { pattern: "*.js", include_ignored: true })).details?.totalMatches).toBe(100);
    expect((await callTool(find, { pattern: "dist/chunk-1?.js" })).details?.totalMatches).toBe(10);
    expect((await callTool(createGrepTool(cwd), { pattern: "createThing", path: "dist", limit: 1000 })).details?.matches).toBe(100);
  });

  it("nested .gitignore files apply below their folder, and ! re-includes", async () => {
    const cwd = await makeRepo({
      ".gitignore": "*.gen.ts\n",
      "pkg/.gitignore": "!keep.gen.ts\nlocal/\n",
      "pkg/a.gen.ts": "",
      "pkg/keep.gen.ts": "",
      "pkg/local/x.ts": "",
      "pkg/main.ts": "",
      "other/local/y.ts": "",
    });
    expect((await listFiles(cwd, "**/*.ts")).files).toEqual(["other/local/y.ts", "pkg/keep.gen.ts", "pkg/main.ts"]);
  });

  it(".ignore is honoured and wins over .gitignore in the same folder", async () => {
    const cwd = await makeRepo({ ".gitignore": "*.snap\n", ".ignore": "!important.snap\nfixtures/\n", "a.snap": "", "important.snap": "", "fixtures/f.txt": "" });
    expect((await listFiles(cwd, "**/*")).files).toEqual([".gitignore", ".ignore", "important.snap"]);
  });

  it("honours .git/info/exclude and core.excludesFile from the repository config", async () => {
    const cwd = await makeRepo({ "secret.env": "", "scratch.txt": "", "main.ts": "" });
    await writeFile(join(cwd, ".git/info/exclude"), "scratch.txt\n");
    const excludes = join(cwd, ".git/my-excludes");
    await writeFile(excludes, "*.env\n");
    await writeFile(join(cwd, ".git/config"), `[core]\n\tbare = false\n[core]\n\texcludesFile = "${excludes}"\n`);
    expect((await listFiles(cwd, "**/*")).files).toEqual(["main.ts"]);
  });

  it("honours the global excludes file under XDG_CONFIG_HOME when core.excludesFile is not set", async () => {
    const cwd = await makeRepo({ "notes.swp": "", "main.ts": "" });
    const config = await makeTempDir();
    await writeTree(config, { "git/ignore": "*.swp\n" });
    const rules = await IgnoreRules.forRoot(cwd, { XDG_CONFIG_HOME: config });
    expect(rules.ignores(join(cwd, "notes.swp"), false)).toBe(true);
    expect(rules.ignores(join(cwd, "main.ts"), false)).toBe(false);
  });

  it("a linked worktree (.git is a file) reads info/exclude from the main repository", async () => {
    const main = await makeRepo({});
    await mkdir(join(main, ".git/worktrees/wt"), { recursive: true });
    await writeFile(join(main, ".git/worktrees/wt/commondir"), "../..\n");
    await writeFile(join(main, ".git/info/exclude"), "*.tmp\n");
    const wt = await makeTempDir();
    await writeTree(wt, { ".git": `gitdir: ${join(main, ".git/worktrees/wt")}\n`, "a.tmp": "", "a.ts": "" });
    expect((await listFiles(wt, "**/*")).files).toEqual(["a.ts"]);
  });

  it("always skips .git, even with include_ignored", async () => {
    const cwd = await makeRepo({ "a.ts": "" });
    await writeFile(join(cwd, ".git/config"), "[core]\n");
    expect((await listFiles(cwd, "**/*", { includeIgnored: true })).files).toEqual(["a.ts"]);
  });

  it("works where there is no git at all: .gitignore still counts, and a plain folder lists everything", async () => {
    const cwd = await makeTempDir();
    await writeTree(cwd, { ".gitignore": "build/\n", "build/out.js": "", "src/in.ts": "" });
    expect((await listFiles(cwd, "**/*")).files).toEqual([".gitignore", "src/in.ts"]);
    const plain = await makeTempDir();
    await writeTree(plain, { "a/b.txt": "", "c.txt": "" });
    expect((await listFiles(plain, "**/*")).files).toEqual(["a/b.txt", "c.txt"]);
  });

  it("ls names ignored entries at the end instead of listing them", async () => {
    const cwd = await makeRepo(builtProject());
    const ls = createLsTool(cwd);
    const result = await callTool(ls, {});
    expect(result.content).toBe(
      ".git/\n.gitignore\nsrc/\n\n[Ignored by .gitignore, .ignore or git excludes, not listed: debug.log, dist/. ls(include_ignored=true) lists them.]",
    );
    expect((await callTool(ls, { include_ignored: true })).content).toBe(".git/\n.gitignore\ndebug.log\ndist/\nsrc/");
  });
});
