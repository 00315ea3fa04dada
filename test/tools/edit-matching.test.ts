// How edit finds old_string: line endings never matter and never change, duplicates across CRLF and
// LF count, pi's normalisations apply when there is no exact match (and are named), and the hint for
// a miss claims only what is true.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findMatches } from "../../tools/edit-match.js";
import { createEditTool } from "../../tools/edit-tool.js";
import { callTool, makeTempDir } from "./harness.js";

async function editFile(contents: string, params: { old_string: string; new_string: string; replace_all?: boolean }) {
  const cwd = await makeTempDir();
  const file = join(cwd, "f.txt");
  await writeFile(file, contents);
  const run = callTool(createEditTool(cwd), { file_path: "f.txt", ...params });
  return { run, read: () => readFile(file, "utf8") };
}

describe("edit: line endings", () => {
  it("counts a CRLF copy and an LF copy of a block as two occurrences", async () => {
    const { run, read } = await editFile("hello\r\nworld\r\n--\nhello\nworld\n", { old_string: "hello\nworld\n", new_string: "bye\n" });
    await expect(run).rejects.toThrow("old_string was found 2 times in f.txt (lines 1, 4;");
    expect(await read()).toBe("hello\r\nworld\r\n--\nhello\nworld\n");
  });

  it("replace_all replaces every copy, each written with its own line ending", async () => {
    const { run, read } = await editFile("hello\r\nworld\r\n--\nhello\nworld\n", {
      old_string: "hello\nworld\n",
      new_string: "hi\nthere\n",
      replace_all: true,
    });
    expect((await run).content).toBe("Edited f.txt: replaced 2 occurrences (+4 -4 lines).");
    expect(await read()).toBe("hi\r\nthere\r\n--\nhi\nthere\n");
  });

  it("an old_string sent with CRLF matches an LF file, and the file stays LF", async () => {
    const { run, read } = await editFile("a\nb\nc\n", { old_string: "a\r\nb\r\n", new_string: "x\r\ny\r\n" });
    await run;
    expect(await read()).toBe("x\ny\nc\n");
  });

  it("a one-line match in a CRLF file takes CRLF for the lines new_string adds", async () => {
    const { run, read } = await editFile("one\r\ntwo\r\n", { old_string: "two", new_string: "two\nthree" });
    await run;
    expect(await read()).toBe("one\r\ntwo\r\nthree\r\n");
  });
});

describe("edit: normalised matching", () => {
  it("matches despite curly quotes, dashes, non-breaking spaces and trailing whitespace, and says which", async () => {
    const contents = "intro \u201cstays\u201d\nsay \u201chi\u201d \u2014 ok  \nnext\u00a0one\nend \u2018stays\u2019\n";
    const { run, read } = await editFile(contents, { old_string: 'say "hi" - ok\nnext one', new_string: "replaced" });
    const result = await run;
    expect(result.content).toContain(
      "old_string matched only after normalising trailing whitespace, curly quotes, Unicode dashes, non-breaking and other Unicode spaces",
    );
    // Only the matched span changed: the curly quotes elsewhere are still curly.
    expect(await read()).toBe("intro \u201cstays\u201d\nreplaced\nend \u2018stays\u2019\n");
  });

  it("matches fullwidth forms and names only the normalisation that was needed", async () => {
    const { run, read } = await editFile("const ｘ = 1;\n", { old_string: "const x = 1;", new_string: "const y = 2;" });
    expect((await run).content).toContain("normalising Unicode compatibility forms (fullwidth, ligatures);");
    expect(await read()).toBe("const y = 2;\n");
  });

  it("keeps trailing whitespace outside the matched text", async () => {
    const { run, read } = await editFile("value = 1   \nnext\n", { old_string: "value = 1\nnext", new_string: "value = 2\nnext" });
    expect((await run).content).toContain("normalising trailing whitespace");
    expect(await read()).toBe("value = 2\nnext\n");
    const single = await editFile("value = 1   \n", { old_string: "value = 1", new_string: "value = 2" });
    await single.run;
    expect(await single.read()).toBe("value = 2   \n");
  });

  it("a normalised match found twice is ambiguous", async () => {
    const { run } = await editFile("\u201ca\u201d\n\u201ca\u201d\n", { old_string: '"a"', new_string: "b" });
    await expect(run).rejects.toThrow("old_string was found 2 times in f.txt (lines 1, 2;");
  });

  it("an exact match wins over normalised ones", () => {
    const result = findMatches("\u201ca\u201d and \"a\"", '"a"');
    expect(result).toEqual({ matches: [{ start: 8, end: 11, eol: "\n" }], normalisations: [] });
  });
});

describe("edit: the hint for a miss claims only what is true", () => {
  it("does not call an escape sequence whitespace, and spells out what the file has", async () => {
    const { run, read } = await editFile("loop() {\n  console.log('tick\u001b[0m ');\n}\n", {
      old_string: "  console.log('tick ');",
      new_string: "  console.log('tock');",
    });
    const error = await run.then(
      () => undefined,
      (e: Error) => e.message,
    );
    expect(error).not.toContain("whitespace (");
    expect(error).toContain(`from there the file goes on with "\\u001b[0m ');\\n" where old_string has " ');"`);
    expect(error).toContain(`     2\t"  console.log('tick\\u001b[0m ');"`);
    expect(await read()).toBe("loop() {\n  console.log('tick\u001b[0m ');\n}\n");
  });

  it("says 'only in whitespace' when only whitespace differs, with the lines quoted", async () => {
    const { run } = await editFile("if (a) {\n\treturn  b;\n}\n", { old_string: "if (a) {\n    return b;\n}", new_string: "x" });
    await expect(run).rejects.toThrow(
      'It nearly matches at line 1: the text there differs from old_string only in whitespace (indentation, tabs vs spaces, spaces inside lines or line breaks). The file has:\n     1\t"if (a) {"\n     2\t"\\treturn  b;"\n     3\t"}"',
    );
  });

  it("points at where the end of old_string matches when its start does not", async () => {
    const { run } = await editFile("alpha\nbeta gamma delta\n", { old_string: "ALPHA\nbeta gamma delta", new_string: "x" });
    await expect(run).rejects.toThrow(
      `The file has the last 17 of old_string's 22 characters (from line 1); just before them the file has "alpha" where old_string has "ALPHA".`,
    );
  });

  it("offers no lead when almost nothing is shared", async () => {
    const { run } = await editFile("alpha\n", { old_string: "zzz", new_string: "x" });
    await expect(run).rejects.toThrow(/not changed\. It must match the file's text, whitespace included \(line endings and a few Unicode look-alikes do not matter\)\. Read the file again/);
  });
});
