import { chmod, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolAbortedError } from "../../tools/aborted.js";
import { createEditTool } from "../../tools/edit-tool.js";
import { callTool, makeTempDir } from "./harness.js";

describe("edit", () => {
  it("replaces the one occurrence and returns a unified diff with the lines changed", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "server.ts"), "import x from 'x';\nconst port = 3000;\nlisten(port);\n");
    const result = await callTool(createEditTool(cwd), {
      file_path: "server.ts",
      old_string: "const port = 3000;",
      new_string: "const port = Number(process.env.PORT ?? 3000);\nconst host = '0.0.0.0';",
    });
    expect(await readFile(join(cwd, "server.ts"), "utf8")).toBe(
      "import x from 'x';\nconst port = Number(process.env.PORT ?? 3000);\nconst host = '0.0.0.0';\nlisten(port);\n",
    );
    expect(result.content).toBe("Edited server.ts: replaced 1 occurrence (+2 -1 lines).");
    expect(result.details).toMatchObject({ path: join(cwd, "server.ts"), linesAdded: 2, linesRemoved: 1, matchCount: 1 });
    expect(result.file).toEqual({ kind: "edit", path: join(cwd, "server.ts"), diff: result.details?.diff, linesAdded: 2, linesRemoved: 1 });
    expect(result.details?.diff).toBe(
      [
        "--- a/server.ts",
        "+++ b/server.ts",
        "@@ -1,3 +1,4 @@",
        " import x from 'x';",
        "-const port = 3000;",
        "+const port = Number(process.env.PORT ?? 3000);",
        "+const host = '0.0.0.0';",
        " listen(port);",
        "",
      ].join("\n"),
    );
    expect(await readdir(cwd)).toEqual(["server.ts"]);
  });

  it("inserts new_string verbatim, even with $ patterns in it", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.sh"), "echo NAME\n");
    await callTool(createEditTool(cwd), { file_path: "a.sh", old_string: "NAME", new_string: "$& $1 $$" });
    expect(await readFile(join(cwd, "a.sh"), "utf8")).toBe("echo $& $1 $$\n");
  });

  it("fails on a missing file", async () => {
    const cwd = await makeTempDir();
    await expect(
      callTool(createEditTool(cwd), { file_path: "gone.ts", old_string: "a", new_string: "b" }),
    ).rejects.toThrow(`File not found: gone.ts (resolved to ${join(cwd, "gone.ts")}). Create it with write, or check the path.`);
  });

  it("says plainly when old_string is not in the file", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.ts"), "let a = 1;\n");
    await expect(
      callTool(createEditTool(cwd), { file_path: "a.ts", old_string: "let b = 2;", new_string: "let b = 3;" }),
    ).rejects.toThrow(/^old_string was not found in a\.ts; the file was not changed\. It must match the file's text/);
    expect(await readFile(join(cwd, "a.ts"), "utf8")).toBe("let a = 1;\n");
  });

  it("points at the line where a match differing only in whitespace starts", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.py"), "import os\n\ndef main():\n\tif True:\n\t\tprint('hi')   \n\treturn 0\n");
    const attempt = callTool(createEditTool(cwd), {
      file_path: "a.py",
      old_string: "    if True:\n        print('hi')",
      new_string: "    if False:\n        print('hi')",
    });
    await expect(attempt).rejects.toThrow(/not found in a\.py.* It nearly matches at line 4: the text there differs from old_string only in whitespace/);
    // Quoted, so tabs and trailing spaces are visible.
    await expect(attempt).rejects.toThrow('     4\t"\\tif True:"\n     5\t"\\t\\tprint(\'hi\')   "\n');
  });

  it("in a mostly-LF file, an LF old_string matches a CRLF block and the block keeps CRLF", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "mixed.txt"), "a\nb\nc\nd\r\ne\r\n");
    await callTool(createEditTool(cwd), { file_path: "mixed.txt", old_string: "d\ne\n", new_string: "x\ny\nz\n" });
    expect(await readFile(join(cwd, "mixed.txt"), "utf8")).toBe("a\nb\nc\nx\r\ny\r\nz\r\n");
  });

  it("refuses an old_string found more than once and says where", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.ts"), "x++;\ny();\nx++;\nz();\nx++;\n");
    await expect(
      callTool(createEditTool(cwd), { file_path: "a.ts", old_string: "x++;", new_string: "x += 2;" }),
    ).rejects.toThrow(
      "old_string was found 3 times in a.ts (lines 1, 3, 5; line endings do not count as a difference). Add surrounding " +
        "lines to old_string so it matches once, or set replace_all: true to replace every occurrence.",
    );
    expect(await readFile(join(cwd, "a.ts"), "utf8")).toBe("x++;\ny();\nx++;\nz();\nx++;\n");
  });

  it("replaces every occurrence with replace_all", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.ts"), "x++;\ny();\nx++;\nz();\nx++;\n");
    const result = await callTool(createEditTool(cwd), {
      file_path: "a.ts",
      old_string: "x++;",
      new_string: "x += 2;",
      replace_all: true,
    });
    expect(await readFile(join(cwd, "a.ts"), "utf8")).toBe("x += 2;\ny();\nx += 2;\nz();\nx += 2;\n");
    expect(result.details).toMatchObject({ matchCount: 3, linesAdded: 3, linesRemoved: 3 });
    expect(result.content).toBe("Edited a.ts: replaced 3 occurrences (+3 -3 lines).");
  });

  it("refuses an edit whose old_string equals new_string", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.ts"), "same\n");
    await expect(
      callTool(createEditTool(cwd), { file_path: "a.ts", old_string: "same", new_string: "same" }),
    ).rejects.toThrow("old_string and new_string are the same, so the edit would change nothing.");
  });

  it("an edit of a CRLF file keeps CRLF, matching old_string sent with LF", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "win.cs"), "class A {\r\n  int x;\r\n  int y;\r\n}\r\n");
    const result = await callTool(createEditTool(cwd), {
      file_path: "win.cs",
      old_string: "  int x;\n  int y;\n",
      new_string: "  int x;\n  int y;\n  int z;\n",
    });
    expect(await readFile(join(cwd, "win.cs"), "utf8")).toBe("class A {\r\n  int x;\r\n  int y;\r\n  int z;\r\n}\r\n");
    expect(result.details).toMatchObject({ linesAdded: 1, linesRemoved: 0 });
    expect(result.details?.diff).not.toContain("\r");
  });

  it("an edit keeps a UTF-8 byte-order mark", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "bom.txt"), "\uFEFFhello world\n");
    await callTool(createEditTool(cwd), { file_path: "bom.txt", old_string: "hello", new_string: "goodbye" });
    const bytes = await readFile(join(cwd, "bom.txt"));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString("utf8")).toBe("goodbye world\n");
  });

  it("an edit keeps the file's permissions", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "run.sh"), "echo a\n");
    await chmod(join(cwd, "run.sh"), 0o700);
    await callTool(createEditTool(cwd), { file_path: "run.sh", old_string: "a", new_string: "b" });
    expect((await stat(join(cwd, "run.sh"))).mode & 0o777).toBe(0o700);
  });

  it("detects a change made on disk while the edit was being made, and keeps that change", async () => {
    const cwd = await makeTempDir();
    const file = join(cwd, "racy.ts");
    await writeFile(file, "value = 1;\n");
    const tool = createEditTool(cwd, {
      beforeCommit: async (absolutePath) => {
        // Another writer (an editor, a formatter) saves the file inside the edit's window.
        await writeFile(absolutePath, "value = 1;\nother = 2;\n");
      },
    });
    await expect(callTool(tool, { file_path: "racy.ts", old_string: "value = 1;", new_string: "value = 5;" })).rejects.toThrow(
      "racy.ts changed on disk while this edit was being made, so it was not written",
    );
    expect(await readFile(file, "utf8")).toBe("value = 1;\nother = 2;\n");
    expect(await readdir(cwd)).toEqual(["racy.ts"]);
  });

  it("an abort before the rename leaves the file as it was and removes the temp file", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "a.ts"), "one\n");
    const controller = new AbortController();
    const tool = createEditTool(cwd, { beforeCommit: () => controller.abort() });
    await expect(
      callTool(tool, { file_path: "a.ts", old_string: "one", new_string: "two" }, { signal: controller.signal }),
    ).rejects.toBeInstanceOf(ToolAbortedError);
    expect(await readFile(join(cwd, "a.ts"), "utf8")).toBe("one\n");
    expect(await readdir(cwd)).toEqual(["a.ts"]);
  });
});
