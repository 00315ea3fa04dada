// One cap owns each result: a tool that cuts its own output cuts it, notices included, to what the
// tool runner's backstop allows, so the backstop never cuts it again. A second cut would drop lines
// from the middle of a result whose notice claims a contiguous range (read's "Showing lines 1-3076
// … offset=3077"), and the model would never see them. Each case runs the real tool through the
// runner, near the cap, as the agent loop does.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runToolCall } from "../../agent/tool-runner.js";
import { createEditTool } from "../../tools/edit-tool.js";
import { createFindTool } from "../../tools/find-tool.js";
import { createGrepTool } from "../../tools/grep-tool.js";
import { createLsTool } from "../../tools/ls-tool.js";
import { byteCapFor, DEFAULT_MAX_OUTPUT_CHARS } from "../../tools/output-cap.js";
import { createReadTool } from "../../tools/read-tool.js";
import type { AgentTool } from "../../tools/tool.js";
import { makeTempDir } from "./harness.js";

const BACKSTOP = "[pitwall cut this result";

/** Runs `tool` as the agent loop does and checks the backstop had nothing to cut. */
async function runOwned(tool: AgentTool, args: Record<string, unknown>, maxChars = DEFAULT_MAX_OUTPUT_CHARS): Promise<string> {
  const never = new AbortController().signal;
  const run = await runToolCall({ type: "toolCall", id: "c1", name: tool.name, arguments: args }, [tool as AgentTool], never, () => undefined, { yieldSignal: never }, maxChars);
  const content = run.result.content;
  expect(content.includes(BACKSTOP), `the backstop cut ${tool.name}'s own result`).toBe(false);
  expect(Buffer.byteLength(content)).toBeLessThanOrEqual(byteCapFor(maxChars));
  return content;
}

describe("one cap owns each result", () => {
  it("read: 5,500 lines of `Line N` come back as one contiguous range, and the next offset follows it", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "lines.txt"), Array.from({ length: 5_500 }, (_, i) => `Line ${i + 1}`).join("\n") + "\n");
    const content = await runOwned(createReadTool(cwd) as AgentTool, { file_path: "lines.txt" });
    const [header, ...rows] = content.split("\n");
    const claimed = /^\[Showing lines 1-(\d+) of 5500 \(one result holds at most 50 KB\)\. Next: read\(file_path="lines\.txt", offset=(\d+)\)\]$/.exec(header!);
    expect(claimed, header).not.toBeNull();
    const last = Number(claimed![1]);
    expect(Number(claimed![2])).toBe(last + 1);
    // Every line the header claims is there, in order: none lost in the middle.
    expect(rows).toEqual(Array.from({ length: last }, (_, i) => `${String(i + 1).padStart(6)}\tLine ${i + 1}`));
    expect(last).toBeGreaterThan(2_900);
  });

  it("read: a long path in the next call still leaves the lines whole", async () => {
    const cwd = await makeTempDir();
    const name = `${"deep-folder-name-".repeat(12)}/${"f".repeat(200)}.txt`;
    await mkdir(join(cwd, name, ".."), { recursive: true });
    await writeFile(join(cwd, name), Array.from({ length: 6_000 }, (_, i) => `Line ${i + 1}`).join("\n"));
    const content = await runOwned(createReadTool(cwd) as AgentTool, { file_path: name });
    const last = Number(/^\[Showing lines 1-(\d+) of 6000/.exec(content)![1]);
    expect(content.split("\n").length).toBe(last + 1);
  });

  it("grep: matches of wide characters past the limit, with a long pattern in the next call", async () => {
    const cwd = await makeTempDir();
    // Lines of 200 bytes, so the cut lands on line ends and leaves no slack for the notes.
    await writeFile(join(cwd, "wide.txt"), Array.from({ length: 1_200 }, (_, i) => `match ${String(i).padStart(4, "0")} ${"ü".repeat(94)}`).join("\n"));
    const pattern = `match|${"never-there-".repeat(25)}`;
    const content = await runOwned(createGrepTool(cwd) as AgentTool, { pattern, limit: 900 });
    expect(content).toMatch(/characters, \d+ lines omitted/);
    expect(content).toContain("[Stopped at 900 matching lines; there are more.");
  });

  it("grep: under a higher output cap the person set", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "wide.txt"), Array.from({ length: 1_200 }, (_, i) => `match ${String(i).padStart(4, "0")} ${"x".repeat(188)}`).join("\n"));
    const pattern = `match|${"never-there-".repeat(25)}`;
    const content = await runOwned(createGrepTool(cwd, { maxOutputChars: 100_000 }) as AgentTool, { pattern, limit: 900 }, 100_000);
    expect(content).toContain("[Stopped at 900 matching lines; there are more.");
  });

  // find kept room for its notice already; this holds it to that.
  it("find: long paths past the byte cap, with a long pattern", async () => {
    const cwd = await makeTempDir();
    const deep = join(cwd, "d".repeat(120), "e".repeat(60));
    await mkdir(deep, { recursive: true });
    await Promise.all(Array.from({ length: 1_000 }, (_, i) => writeFile(join(deep, `file-${String(i).padStart(4, "0")}.txt`), "")));
    const pattern = `{${Array.from({ length: 80 }, (_, i) => `nothing-${i}`).join(",")},*.txt}`;
    const content = await runOwned(createFindTool(cwd) as AgentTool, { pattern, limit: 1000 });
    expect(content).toMatch(/\[Showing \d+ of 1000 paths/);
  }, 30_000);

  it("ls: long names past the byte cap, and many long ignored names", async () => {
    const cwd = await makeTempDir();
    await mkdir(join(cwd, ".git"));
    const ignoredNames = Array.from({ length: 40 }, (_, i) => `${"ignored-".repeat(25)}${i}`);
    await writeFile(join(cwd, ".gitignore"), ignoredNames.join("\n") + "\n");
    await Promise.all([...ignoredNames, ...Array.from({ length: 2_000 }, (_, i) => `${"n".repeat(60)}-${i}`)].map((name) => writeFile(join(cwd, name), "")));
    const content = await runOwned(createLsTool(cwd) as AgentTool, { limit: 2000 });
    expect(content).toMatch(/\[Showing \d+ of \d+ entries/);
    expect(content).toContain("[Ignored by .gitignore");
  }, 30_000);

  it("edit: a near miss on a file of one enormous line quotes a bounded piece of it", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "min.js"), `const a = 1;${"x".repeat(200_000)}\n`);
    const never = new AbortController().signal;
    const tool = createEditTool(cwd) as AgentTool;
    const run = await runToolCall({ type: "toolCall", id: "c1", name: "edit", arguments: { file_path: "min.js", old_string: "const a = 1;yyyy", new_string: "const a = 2;" } }, [tool], never, () => undefined, { yieldSignal: never }, DEFAULT_MAX_OUTPUT_CHARS);
    expect(run.isError).toBe(true);
    expect(run.result.content.includes(BACKSTOP)).toBe(false);
    expect(run.result.content).toContain("line truncated: 200012 chars");
    expect(Buffer.byteLength(run.result.content)).toBeLessThan(8_000);
  });
});
