// Nothing the model sends can stop the loop: a catastrophic pattern (exponential for a backtracking
// engine) gets an answer from grep and from bash_stream's readyPattern, and Esc acts while a long
// search runs.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGrepTool } from "../../tools/grep-tool.js";
import { createJobTools, JobRegistry } from "../../tools/jobs/index.js";
import { agentFor, recordEvents } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();
const EVIL = "(a+)+$";
const EVIL_LINE = `${"a".repeat(40)}!`;
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pitwall-regex-"));
  writeFileSync(join(dir, "small.txt"), `${EVIL_LINE}\n`.repeat(2_000));
  mkdirSync(join(dir, "big"));
  // ~20 MB: long enough for an abort to land during the search.
  const chunk = `${EVIL_LINE}\n`.repeat(17_000);
  for (let i = 0; i < 30; i++) writeFileSync(join(dir, "big", `part-${i}.txt`), chunk);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("patterns from the model", () => {
  it("grep answers a catastrophic pattern instead of freezing", async () => {
    const grep = createGrepTool(dir);
    const result = await grep.execute("g1", { pattern: EVIL, path: "small.txt" }, new AbortController().signal, () => undefined, { yieldSignal: new AbortController().signal });
    expect(result.content).toBe(`No matches for ${EVIL} in small.txt.`);
    const found = await grep.execute("g2", { pattern: "(a|aa)+!$", path: "small.txt", limit: 1 }, new AbortController().signal, () => undefined, { yieldSignal: new AbortController().signal });
    expect(found.content).toContain(`small.txt:1: ${EVIL_LINE}`);
  });

  it("grep says clearly that lookaround and backreferences are not supported", async () => {
    const grep = createGrepTool(dir);
    const call = (pattern: string) => grep.execute("g", { pattern }, new AbortController().signal, () => undefined, { yieldSignal: new AbortController().signal });
    await expect(call("foo(?=bar)")).rejects.toThrow(/lookahead or lookbehind, which is not supported: patterns run on RE2/);
    await expect(call("(a)\\1")).rejects.toThrow(/backreference, which is not supported/);
  });

  it("Esc aborts the turn while grep searches 20 MB with a catastrophic pattern", async () => {
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "grep", arguments: { pattern: EVIL, path: "big" } }] }, { kind: "reply", text: "never asked" });
    const agent = agentFor(llm, "anthropic", [createGrepTool(dir)]);
    const events = recordEvents(agent);
    agent.subscribe((event) => {
      if (event.type === "tool_execution_start") setTimeout(() => agent.abort(), 50);
    });
    await agent.prompt("search it");
    const end = events.find((e) => e.type === "tool_execution_end");
    expect(end).toMatchObject({ isError: true, content: expect.stringMatching(/aborted/i) });
    expect(llm.requests).toHaveLength(1);
  }, 30_000);

  it("bash_stream's readyPattern is matched in linear time against a job's output", async () => {
    const registry = new JobRegistry({ cwd: dir, env: process.env });
    try {
      const tool = createJobTools(registry).find((t) => t.name === "bash_stream")!;
      const result = await tool.execute(
        "b1",
        { command: `for i in $(seq 1 300); do echo '${EVIL_LINE}'; done; echo ready-now; sleep 30`, readyPattern: "(a+)+$|ready-now", stdinMode: "pipe", yieldMs: 20_000 },
        new AbortController().signal,
        () => undefined,
        { yieldSignal: new AbortController().signal },
      );
      expect(result.content).toContain('The ready pattern matched: "ready-now"');
    } finally {
      await registry.shutdown();
    }
  }, 30_000);
});
