import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ToolAbortedError } from "../../tools/aborted.js";
import { createReadTool } from "../../tools/read-tool.js";
import { callTool, makeTempDir } from "./harness.js";

function lines(count: number, make: (n: number) => string = (n) => `line ${n}`): string {
  return Array.from({ length: count }, (_, i) => make(i + 1)).join("\n") + "\n";
}

describe("read", () => {
  it("shows numbered lines like cat -n, resolving the path against the tool's working directory", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    await writeFile(join(cwd, "src/a.ts"), "const a = 1;\n\n  return a;\n");
    const result = await callTool(createReadTool(cwd), { file_path: "src/a.ts" });
    expect(result.content).toBe("     1\tconst a = 1;\n     2\t\n     3\t  return a;");
    expect(result.isError).toBeUndefined();
    expect(result.details).toEqual({ path: join(cwd, "src/a.ts"), totalLines: 3, linesRead: 3, offset: 1, truncated: false, cutByBytes: false });
    expect(result.file).toEqual({ kind: "read", path: join(cwd, "src/a.ts") });
  });

  it("counts a last line without a newline", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "x.txt"), "a\nb");
    const result = await callTool(createReadTool(cwd), { file_path: "x.txt" });
    expect(result.content).toBe("     1\ta\n     2\tb");
    expect(result.details?.totalLines).toBe(2);
  });

  it("counts the lines after the shown ones exactly, whatever they hold and wherever the file ends", async () => {
    const cwd = await makeTempDir();
    // Past 256 KB, the lines after the shown one are counted in raw bytes, read a buffer at a time:
    // multi-byte characters across the buffers' edges, CR LF, a last line without a newline, one
    // of only a cut character, and an empty last line must all come out as splitting the text says.
    const body = Array.from({ length: 40_000 }, (_, i) => `${"é".repeat(i % 7)}row ${i}${i % 3 === 0 ? "\r" : ""}`).join("\n");
    const files: Record<string, Buffer> = {
      "ends-newline.txt": Buffer.from(`${body}\n`),
      "ends-text.txt": Buffer.from(`${body}\nlast`),
      "ends-blank-lines.txt": Buffer.from(`${body}\n\n\n`),
      "ends-cut-character.txt": Buffer.concat([Buffer.from(`${body}\n`), Buffer.from("é").subarray(0, 1)]),
    };
    for (const [name, bytes] of Object.entries(files)) {
      await writeFile(join(cwd, name), bytes);
      const text = bytes.toString("utf8");
      const expected = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
      for (const limit of [1, 3]) {
        const result = await callTool(createReadTool(cwd), { file_path: name, limit });
        expect(result.details?.totalLines, `${name}, limit ${limit}`).toBe(expected);
        expect(result.details?.linesRead).toBe(limit);
      }
      // And from near the end, where counting starts in the last buffer.
      const near = await callTool(createReadTool(cwd), { file_path: name, offset: expected - 1, limit: 1 });
      expect(near.details?.totalLines, `${name}, near the end`).toBe(expected);
    }
  });

  it("stops at 5000 lines and says how many there are and the exact next call", async () => {
    const cwd = await makeTempDir();
    // One-character lines: 5000 of them fit in 50 KB, so the line limit ends the result.
    await writeFile(join(cwd, "big.txt"), "x\n".repeat(12_000));
    const tool = createReadTool(cwd);
    const first = await callTool(tool, { file_path: "big.txt" });
    const firstLines = first.content.split("\n");
    expect(firstLines[0]).toBe('[Showing lines 1-5000 of 12000. Next: read(file_path="big.txt", offset=5001)]');
    expect(firstLines[1]).toBe("     1\tx");
    expect(firstLines.at(-1)).toBe("  5000\tx");
    expect(firstLines).toHaveLength(5001);
    expect(first.details).toMatchObject({ totalLines: 12_000, linesRead: 5000, offset: 1, truncated: true, cutByBytes: false });

    const second = await callTool(tool, { file_path: "big.txt", offset: 5001 });
    expect(second.content.split("\n")[0]).toBe('[Showing lines 5001-10000 of 12000. Next: read(file_path="big.txt", offset=10001)]');
    const third = await callTool(tool, { file_path: "big.txt", offset: 10_001 });
    expect(third.content.split("\n")[0]).toBe(" 10001\tx");
    expect(third.content.split("\n").at(-1)).toBe(" 12000\tx");
    expect(third.details).toMatchObject({ linesRead: 2000, offset: 10_001, truncated: false });
  });

  it("stops at 50 KB however short the line limit would be, with the exact offset to continue", async () => {
    const cwd = await makeTempDir();
    // 6 000 lines of 1 700 characters: 10 MB, which used to come back whole.
    const line = (n: number): string => `row ${n} ${"é".repeat(1_690)}`;
    await writeFile(join(cwd, "wide.txt"), Array.from({ length: 6_000 }, (_, i) => line(i + 1)).join("\n") + "\n");
    const tool = createReadTool(cwd);
    const first = await callTool(tool, { file_path: "wide.txt" });
    expect(Buffer.byteLength(first.content)).toBeLessThanOrEqual(50 * 1024);
    const shown = first.content.split("\n");
    const last = shown.length - 1;
    expect(shown[0]).toBe(`[Showing lines 1-${last} of 6000 (one result holds at most 50 KB). Next: read(file_path="wide.txt", offset=${last + 1})]`);
    expect(shown[last]).toBe(`${String(last).padStart(6)}\t${line(last)}`);
    expect(first.details).toMatchObject({ totalLines: 6_000, linesRead: last, truncated: true, cutByBytes: true });
    // The next call goes on exactly where this one stopped.
    const second = await callTool(tool, { file_path: "wide.txt", offset: last + 1 });
    expect(second.content.split("\n")[1]).toBe(`${String(last + 1).padStart(6)}\t${line(last + 1)}`);
    expect(Buffer.byteLength(second.content)).toBeLessThanOrEqual(50 * 1024);
  });

  it("cuts one enormous line and says so, still within 50 KB", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "one.min.js"), "😀".repeat(3_000_000));
    const result = await callTool(createReadTool(cwd), { file_path: "one.min.js" });
    expect(result.content).toMatch(/^ {5}1\t(😀){1000}… \[line truncated: 6000000 chars\]$/);
    expect(Buffer.byteLength(result.content)).toBeLessThanOrEqual(50 * 1024);
  });

  it("pages with offset and limit, and the next call keeps the limit", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "f.txt"), lines(30));
    const result = await callTool(createReadTool(cwd), { file_path: "f.txt", offset: 10, limit: 3 });
    expect(result.content).toBe(
      '[Showing lines 10-12 of 30. Next: read(file_path="f.txt", offset=13, limit=3)]\n' +
        "    10\tline 10\n    11\tline 11\n    12\tline 12",
    );
    expect(result.details).toMatchObject({ totalLines: 30, linesRead: 3, offset: 10, truncated: true });
  });

  it("cuts very long lines with a marker giving their length", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "min.js"), "short\n" + "x".repeat(12_345) + "\nend\n");
    const result = await callTool(createReadTool(cwd), { file_path: "min.js" });
    const shown = result.content.split("\n");
    expect(shown[1]).toBe(`     2\t${"x".repeat(2000)}… [line truncated: 12345 chars]`);
    expect(shown[2]).toBe("     3\tend");
  });

  it("shows a CRLF file without carriage returns and drops a byte-order mark", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "win.txt"), "\uFEFFfirst\r\nsecond\r\n");
    const result = await callTool(createReadTool(cwd), { file_path: "win.txt" });
    expect(result.content).toBe("     1\tfirst\n     2\tsecond");
  });

  it("says an empty file is empty", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "empty.txt"), "");
    const result = await callTool(createReadTool(cwd), { file_path: "empty.txt" });
    expect(result.content).toBe("[empty.txt is empty: 0 lines]");
    expect(result.details).toMatchObject({ totalLines: 0, linesRead: 0 });
  });

  it("fails on a missing file, naming where it looked", async () => {
    const cwd = await makeTempDir();
    await expect(callTool(createReadTool(cwd), { file_path: "nope.txt" })).rejects.toThrow(
      `File not found: nope.txt (resolved to ${join(cwd, "nope.txt")})`,
    );
  });

  it("fails on an offset past the end and gives the valid range", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "f.txt"), lines(12));
    await expect(callTool(createReadTool(cwd), { file_path: "f.txt", offset: 13 })).rejects.toThrow(
      "Offset 13 is past the end of f.txt: it has 12 lines. Use an offset from 1 to 12.",
    );
  });

  it("fails on a directory and points to ls", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, "src"));
    await expect(callTool(createReadTool(cwd), { file_path: "src" })).rejects.toThrow(/src is a directory.*ls/);
  });

  it("refuses a binary file (NUL in the first 8 KiB) and suggests file and xxd", async () => {
    const cwd = await makeTempDir();
    const bytes = Buffer.alloc(200, 0x41);
    bytes[100] = 0;
    await writeFile(join(cwd, "app.bin"), bytes);
    await expect(callTool(createReadTool(cwd), { file_path: "app.bin" })).rejects.toThrow(
      "Cannot read binary file 'app.bin'. Use bash to inspect it: file app.bin, or xxd app.bin | head",
    );
  });

  it("reads a file whose first NUL byte lies past the first 8 KiB", async () => {
    const cwd = await makeTempDir();
    const bytes = Buffer.alloc(9000, 0x41);
    bytes[8999] = 0;
    await writeFile(join(cwd, "late.txt"), bytes);
    const result = await callTool(createReadTool(cwd), { file_path: "late.txt" });
    expect(result.details?.totalLines).toBe(1);
  });

  it("stops reading when aborted", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "huge.txt"), lines(300_000, (n) => `row ${n} ${"y".repeat(20)}`));
    const controller = new AbortController();
    const pending = callTool(createReadTool(cwd), { file_path: "huge.txt" }, { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(ToolAbortedError);
    const early = new AbortController();
    early.abort();
    await expect(callTool(createReadTool(cwd), { file_path: "huge.txt" }, { signal: early.signal })).rejects.toThrow(
      "Reading huge.txt was aborted.",
    );
  });
});
