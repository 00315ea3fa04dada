// Paths the model gets slightly wrong still find the file, as in pi: @file, non-breaking spaces,
// NFC/NFD, curly apostrophes, macOS screenshot names, ~.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createReadTool } from "../../tools/read-tool.js";
import { resolvePath } from "../../tools/resolve-path.js";
import { createWriteTool } from "../../tools/write-tool.js";
import { callTool, makeTempDir } from "./harness.js";

describe("resolvePath", () => {
  it("takes the path as written when it exists", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "@scope"), "");
    expect(resolvePath(cwd, "@scope")).toBe(join(cwd, "@scope"));
  });

  it("drops a leading @ (an @file mention)", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    await writeFile(join(cwd, "src/app.ts"), "");
    expect(resolvePath(cwd, "@src/app.ts")).toBe(join(cwd, "src/app.ts"));
  });

  it("reads a non-breaking space as a space", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "my notes.md"), "");
    expect(resolvePath(cwd, "my\u00a0notes.md")).toBe(join(cwd, "my notes.md"));
  });

  it("finds a decomposed (NFD) name from a composed one, and the other way round", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "cafe\u0301.txt"), "");
    await writeFile(join(cwd, "r\u00e9sum\u00e9.txt"), "");
    expect(resolvePath(cwd, "caf\u00e9.txt")).toBe(join(cwd, "cafe\u0301.txt"));
    expect(resolvePath(cwd, "re\u0301sume\u0301.txt")).toBe(join(cwd, "r\u00e9sum\u00e9.txt"));
  });

  it("finds a name with a curly apostrophe from a straight one", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "Capture d\u2019e\u0301cran.png"), "");
    expect(resolvePath(cwd, "Capture d'\u00e9cran.png")).toBe(join(cwd, "Capture d\u2019e\u0301cran.png"));
  });

  it("finds a macOS screenshot name (narrow no-break space before PM)", async () => {
    const cwd = await makeTempDir();
    const name = "Screenshot 2024-01-01 at 10.00.00\u202fPM.png";
    await writeFile(join(cwd, name), "");
    expect(resolvePath(cwd, "Screenshot 2024-01-01 at 10.00.00 PM.png")).toBe(join(cwd, name));
  });

  it("expands ~ to the home directory", () => {
    expect(resolvePath("/somewhere", "~")).toBe(homedir());
    expect(resolvePath("/somewhere", "~/x/y")).toBe(join(homedir(), "x/y"));
  });

  it("a new file keeps the path as written when its folder exists, else the spelling whose folder does", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    expect(resolvePath(cwd, "src/new.ts")).toBe(join(cwd, "src/new.ts"));
    expect(resolvePath(cwd, "@src/new.ts")).toBe(join(cwd, "src/new.ts"));
  });

  it("the tools use it: read and write find the file the model meant", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "my notes.md"), "hello\n");
    expect((await callTool(createReadTool(cwd), { file_path: "@my\u00a0notes.md" })).content).toContain("hello");
    await callTool(createWriteTool(cwd), { file_path: "my\u00a0notes.md", content: "bye\n" });
    expect(await readFile(join(cwd, "my notes.md"), "utf8")).toBe("bye\n");
  });
});
