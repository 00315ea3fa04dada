import { chmod, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createWriteTool } from "../../tools/write-tool.js";
import { callTool, makeTempDir } from "./harness.js";

describe("write", () => {
  it("creates a file and its parent folders, and reports it as created with its byte size", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createWriteTool(cwd), { file_path: "src/deep/héllo.ts", content: "héllo\n" });
    expect(await readFile(join(cwd, "src/deep/héllo.ts"), "utf8")).toBe("héllo\n");
    expect(result.content).toBe("Created src/deep/héllo.ts (7 bytes)");
    expect(result.details).toEqual({ path: join(cwd, "src/deep/héllo.ts"), isNew: true, size: 7 });
    expect(result.file).toEqual({ kind: "write", path: join(cwd, "src/deep/héllo.ts"), created: true, bytes: 7 });
  });

  it("overwrites an existing file, says so, and keeps its permissions", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "run.sh"), "old contents that are longer\n");
    await chmod(join(cwd, "run.sh"), 0o755);
    const result = await callTool(createWriteTool(cwd), { file_path: join(cwd, "run.sh"), content: "echo new\n" });
    expect(await readFile(join(cwd, "run.sh"), "utf8")).toBe("echo new\n");
    expect(result.content).toBe("Overwrote run.sh (9 bytes)");
    expect(result.details).toMatchObject({ isNew: false, size: 9 });
    expect((await stat(join(cwd, "run.sh"))).mode & 0o777).toBe(0o755);
    expect(await readdir(cwd)).toEqual(["run.sh"]);
  });

  it("refuses to write over a directory", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    await expect(callTool(createWriteTool(cwd), { file_path: "src", content: "x" })).rejects.toThrow(
      "Cannot write src: it is a directory, not a regular file. Nothing was changed; give the path of a file inside it.",
    );
  });

  it("an aborted write changes nothing", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "f.txt"), "old");
    const controller = new AbortController();
    controller.abort();
    await expect(
      callTool(createWriteTool(cwd), { file_path: "f.txt", content: "new" }, { signal: controller.signal }),
    ).rejects.toThrow("Writing f.txt was aborted; the file was not changed.");
    expect(await readFile(join(cwd, "f.txt"), "utf8")).toBe("old");
    expect(await readdir(cwd)).toEqual(["f.txt"]);
  });
});
