// No single tool result the model reads passes 50 KB (or the person's higher output cap): grep,
// find and ls cap their listings in bytes, job logs are capped in bytes as well as characters
// (result-caps-jobs.test.ts, which runs a job), and the tool runner cuts whatever any tool returns
// past the cap, saying so.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { runToolCall, withinCap } from "../../agent/tool-runner.js";
import { createFindTool } from "../../tools/find-tool.js";
import { createGrepTool } from "../../tools/grep-tool.js";
import { createLsTool } from "../../tools/ls-tool.js";
import { capOutput, DEFAULT_MAX_OUTPUT_CHARS } from "../../tools/output-cap.js";
import type { AgentTool } from "../../tools/tool.js";
import { callTool, makeTempDir } from "./harness.js";

const KB50 = 50 * 1024;
const bytes = (text: string): number => Buffer.byteLength(text);

describe("byte caps", () => {
  it("grep: 1000 long matching lines of multibyte text come back within 50 KB", async () => {
    const cwd = await makeTempDir();
    await writeFile(join(cwd, "wide.txt"), Array.from({ length: 1_000 }, (_, i) => `match ${i} ${"ü".repeat(290)}`).join("\n"));
    const result = await callTool(createGrepTool(cwd), { pattern: "match", limit: 1000 });
    expect(bytes(result.content)).toBeLessThanOrEqual(KB50);
    expect(result.content).toMatch(/characters, \d+ lines omitted/);
  });

  it("find: a thousand long paths are cut to 50 KB with the next step", async () => {
    const cwd = await makeTempDir();
    const deep = join(cwd, "d".repeat(120), "e".repeat(60));
    await mkdir(deep, { recursive: true });
    await Promise.all(Array.from({ length: 1_000 }, (_, i) => writeFile(join(deep, `file-${String(i).padStart(4, "0")}.txt`), "")));
    const result = await callTool(createFindTool(cwd), { pattern: "*.txt" });
    expect(bytes(result.content)).toBeLessThanOrEqual(KB50);
    expect(result.content).toMatch(/\[Showing \d+ of 1000 paths: one result holds at most 50 KB\. Narrow the pattern or path\]$/);
    expect(result.details).toMatchObject({ totalMatches: 1000, truncated: true });
  });

  it("ls: two thousand long names are cut to 50 KB with the next step", async () => {
    const cwd = await makeTempDir();
    await Promise.all(Array.from({ length: 2_000 }, (_, i) => writeFile(join(cwd, `${"n".repeat(60)}-${i}`), "")));
    const result = await callTool(createLsTool(cwd), { limit: 2000 });
    expect(bytes(result.content)).toBeLessThanOrEqual(KB50);
    expect(result.content).toMatch(/\[Showing \d+ of 2000 entries: one result holds at most 50 KB\. Use find with a pattern to narrow\.\]$/);
  });

  it("capOutput never splits a character and keeps head and tail", () => {
    const text = "€".repeat(40_000); // 120 KB in 40 000 characters
    const capped = capOutput(text, 100_000);
    expect(bytes(capped.text)).toBeLessThanOrEqual(100_000);
    expect(capped.text).not.toContain("\uFFFD");
    expect(capped.text.startsWith("€€€")).toBe(true);
    expect(capped.text.endsWith("€€€")).toBe(true);
  });
});

describe("the tool runner's backstop", () => {
  const flood: AgentTool = {
    name: "flood",
    label: "Flood",
    description: "Returns 10 MB.",
    parameters: Type.Object({}),
    async execute() {
      return { content: `start ${"x".repeat(10 * 1024 * 1024)} end`, details: { big: true } };
    },
  };

  it("cuts any tool's result to 50 KB and says so", async () => {
    const run = await runToolCall({ type: "toolCall", id: "c1", name: "flood", arguments: {} }, [flood], new AbortController().signal, () => undefined, { yieldSignal: new AbortController().signal }, DEFAULT_MAX_OUTPUT_CHARS);
    expect(bytes(run.result.content)).toBeLessThanOrEqual(KB50);
    expect(run.result.content).toMatch(/^\[pitwall cut this result to 50 KB \(the tool returned 10\.0 MB\); the middle is left out: ask for less at a time\.\]\nstart x/);
    expect(run.result.content.endsWith("x end")).toBe(true);
    expect(run.result.details).toEqual({ big: true });
  });

  it("follows a higher output cap the person set", () => {
    const result = withinCap({ content: "y".repeat(400_000) }, 150_000);
    expect(bytes(result.content)).toBeLessThanOrEqual(150_000);
    expect(bytes(result.content)).toBeGreaterThan(140_000);
  });
});
