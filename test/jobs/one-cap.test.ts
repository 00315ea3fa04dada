// One cap owns each result, for bash and the job tools: their own cut (head and tail, a digest,
// whole job entries) leaves room for what they say around it, so the tool runner's backstop never
// cuts their result again. Wide characters take two bytes each here, so a cut by characters alone
// would pass the byte cap.
import { writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolCall } from "../../agent/tool-runner.js";
import { createJobTools, JobRegistry } from "../../tools/jobs/index.js";
import { createBashTool } from "../../tools/jobs/model-tools/bash-tool.js";
import { byteCapFor, DEFAULT_MAX_OUTPUT_CHARS } from "../../tools/output-cap.js";
import type { AgentTool } from "../../tools/tool.js";
import { tempDir } from "./helpers.js";

const BACKSTOP = "[pitwall cut this result";
const registries: JobRegistry[] = [];
const files: string[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
  await Promise.all(files.splice(0).map((f) => rm(f, { force: true })));
});

/** Runs `tool` as the agent loop does and checks the backstop had nothing to cut. */
async function runOwned(tool: AgentTool, args: Record<string, unknown>): Promise<string> {
  const never = new AbortController().signal;
  const run = await runToolCall({ type: "toolCall", id: `c${Math.random()}`, name: tool.name, arguments: args }, [tool], never, () => undefined, { yieldSignal: never }, DEFAULT_MAX_OUTPUT_CHARS);
  const path = (run.result.details as { fullOutputPath?: string } | undefined)?.fullOutputPath;
  if (path) files.push(path);
  const content = run.result.content;
  expect(content.includes(BACKSTOP), `the backstop cut ${tool.name}'s own result:\n${content.slice(0, 300)}`).toBe(false);
  expect(Buffer.byteLength(content)).toBeLessThanOrEqual(byteCapFor(DEFAULT_MAX_OUTPUT_CHARS));
  return content;
}

/** The job tools over a registry of their own in `cwd`; bash_stream may wait as little as 50 ms (a call's yieldMs). */
function jobTools(cwd = tempDir()): Map<string, AgentTool> {
  const registry = new JobRegistry({ cwd, env: process.env, settings: { minYieldMs: 50 } });
  registries.push(registry);
  return new Map(createJobTools(registry).map((t) => [t.name, t]));
}

/** 2 000 lines of 100 two-byte characters: 200 KB in 200 000 characters. */
const WIDE = `yes "$(printf 'é%.0s' $(seq 1 100))" | head -n 2000`;

describe("one cap owns each job tool's result", () => {
  it("bash: wide output past the cap, failing, keeps head, tail and its notes", async () => {
    const content = await runOwned(createBashTool(tempDir()) as AgentTool, { command: `${WIDE}; exit 3` });
    expect(content).toMatch(/characters, \d+ lines omitted/);
    expect(content).toContain("Command exited with code 3");
  });

  it("bash_stream: a finished job's wide output, raw", async () => {
    const content = await runOwned(jobTools().get("bash_stream")!, { command: WIDE, digest: false });
    expect(content).toMatch(/^Job 1 \(pid \d+\) exited with code 0/);
    expect(content).toContain("Output was cut to head and tail.");
  });

  it("bash_stream: a pipe job's stdout and stderr, each wide, raw", async () => {
    const content = await runOwned(jobTools().get("bash_stream")!, { command: `${WIDE}; ${WIDE} >&2`, stdinMode: "pipe", digest: false });
    expect(content).toContain("stdout:\n");
    expect(content).toContain("stderr:\n");
  });

  it("bash_stream: a job whose early lines left memory, raw", async () => {
    const content = await runOwned(jobTools().get("bash_stream")!, { command: `yes "$(printf 'é%.0s' $(seq 1 60))" | head -n 30000`, stdinMode: "pipe", digest: false });
    expect(content).toContain("earlier lines were dropped");
  });

  it("poll_process: wide new output of a running job, raw", async () => {
    const cwd = tempDir();
    const tools = jobTools(cwd);
    // The output comes once bash_stream has returned, so all of it is new to the poll.
    await runOwned(tools.get("bash_stream")!, { command: `while [ ! -f go ]; do sleep 0.05; done; ${WIDE}; sleep 30`, stdinMode: "pipe", yieldMs: 50 });
    writeFileSync(join(cwd, "go"), "");
    const content = await runOwned(tools.get("poll_process")!, { jobId: "1", digest: false, maxDrainMs: 20000 });
    expect(content).toContain("[Cut to head and tail.");
  });

  it("get_process_log: 2 000 wide lines, raw", async () => {
    const tools = jobTools();
    await runOwned(tools.get("bash_stream")!, { command: WIDE, stdinMode: "pipe" });
    const content = await runOwned(tools.get("get_process_log")!, { jobId: "1", limit: 2000, digest: false });
    expect(content).toContain("Lines 1–2000 of 2000");
    expect(content).toContain("These lines were cut to head and tail");
  });

  it("list_processes: jobs with many long watch triggers are listed whole while they fit, the rest named", async () => {
    const tools = jobTools();
    for (let job = 1; job <= 4; job++) {
      await runOwned(tools.get("bash_stream")!, { command: "sleep 60", yieldMs: 50 });
      for (let round = 0; round < 4; round++) {
        const add = Array.from({ length: 8 }, (_, i) => ({ pattern: `${"p".repeat(480)}${round}-${i}`, action: "notify" }));
        await runOwned(tools.get("watch_process")!, { jobId: String(job), add });
      }
    }
    const content = await runOwned(tools.get("list_processes")!, {});
    expect(content).toMatch(/^4 running, 0 finished:\njob 1: running/);
    expect(content).toMatch(/\[\d more jobs? not listed here: [\d, ]+\. poll_process or get_process_log reads any of them\.\]$/);
  }, 60_000);
});
