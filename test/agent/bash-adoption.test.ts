// A bash call never blocks the turn: still running at the end of its wait, or when the person
// steers, it becomes a background job (nothing is killed), the call returns what it printed so far,
// and the job tools work on it. An explicit timeout still stops it.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createCodingAgent, type CodingAgent } from "../../agent/coding-agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import { resolveModel } from "../../agent/models.js";
import { type JobSettings, LocalJobService } from "../../tools/jobs/index.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();
const made: { coding: CodingAgent; cwd: string }[] = [];

afterEach(async () => {
  for (const { coding, cwd } of made.splice(0)) {
    await coding.dispose();
    rmSync(cwd, { recursive: true, force: true });
  }
});

function codingAgent(jobSettings: Partial<JobSettings> = {}) {
  const cwd = mkdtempSync(join(tmpdir(), "pitwall-adopt-"));
  const coding = createCodingAgent({
    cwd,
    model: resolveModel(undefined, "anthropic", "anthropic"),
    connections: { anthropic: { apiKey: "sk-test-0123456789", baseUrl: llm.anthropicBaseUrl }, openai: {} },
    pitwallHome: join(cwd, ".pitwall-home"),
    settings: { retry: { baseDelayMs: 5 }, jobs: { killGraceMs: 300, ...jobSettings } },
  });
  made.push({ coding, cwd });
  // The library's default: the jobs run in this process, where the test can look at them closely.
  if (!(coding.jobs instanceof LocalJobService)) throw new Error("expected the in-process jobs");
  const registry = coding.jobs.registry;
  const events: PitwallEvent[] = [];
  coding.bus.subscribe((e) => events.push(e));
  return { coding, events, registry, cwd };
}

describe("a bash call that outlives its wait", () => {
  it("becomes a job with the output so far, and poll/log/kill work on it", async () => {
    const { coding, events, registry } = codingAgent({ defaultYieldMs: 1_000 });
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo first-line; sleep 0.3; echo second-line; exec sleep 60" } }] },
      { kind: "reply", toolCalls: [{ name: "get_process_log", arguments: { jobId: "1" } }] },
      { kind: "reply", toolCalls: [{ name: "kill_process", arguments: { jobId: "1" } }] },
      { kind: "reply", text: "stopped it" },
    );
    await coding.agent.prompt("start the server");
    const bashResult = llm.requests[1]!.transcript;
    expect(bashResult).toContain("first-line");
    expect(bashResult).toContain("second-line");
    expect(bashResult).toMatch(/Still running as job 1 \(pid \d+\) after \d+ s: the 1 s a bash call may block have passed/);
    expect(bashResult).toContain('poll_process with jobId "1"');
    const started = events.find((e) => e.type === "job_started");
    expect(started).toMatchObject({ job: { id: "1", stdinMode: "pipe", startedBy: "agent", command: expect.stringContaining("first-line") } });
    expect(llm.requests[2]!.transcript).toMatch(/first-line\s+second-line/);
    expect(llm.requests[3]!.transcript).toMatch(/Job 1 .*(killed|SIGTERM)/);
    const job = registry.get("1")!;
    expect(job.running).toBe(false);
    expect(job.signal).toBe("SIGTERM");
    expect(job.fromBashCall).toBe(true);
  }, 30_000);

  it("a steer ends the wait at once: the steer is delivered and the command runs on as a job", async () => {
    const { coding, events, registry } = codingAgent({ defaultYieldMs: 60_000, steerGraceMs: 0 });
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo serving; exec sleep 60" } }] },
      { kind: "reply", text: "noted" },
    );
    const prompt = coding.agent.prompt("run the server");
    await waitFor(
      () => events.some((e) => e.type === "tool_execution_update" && e.chunk.includes("serving")),
      "the command to print",
    );
    coding.agent.steer("also check the logs");
    await prompt;
    const next = llm.requests[1]!.transcript;
    expect(next).toMatch(/Still running as job 1 .*the person sent a message/);
    expect(next).toContain("also check the logs");
    const job = registry.get("1")!;
    expect(job.running).toBe(true);
    expect(job.log.keptText()).toContain("serving");
  }, 30_000);

  it("a command that finishes within the steer's grace is an ordinary result, no job", async () => {
    const { coding, events, cwd } = codingAgent({ defaultYieldMs: 60_000, steerGraceMs: 30_000 });
    const flag = join(cwd, "steered");
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `echo testing; until [ -e ${flag} ]; do sleep 0.05; done; echo all passed` } }] },
      { kind: "reply", text: "noted" },
    );
    const prompt = coding.agent.prompt("run the tests");
    await waitFor(() => events.some((e) => e.type === "tool_execution_update" && e.chunk.includes("testing")), "the command to print");
    coding.agent.steer("then the linter");
    // However long the machine takes to get here, the grace has not run out.
    writeFileSync(flag, "");
    await prompt;
    const next = llm.requests[1]!.transcript;
    expect(next).toContain("all passed");
    expect(next).not.toContain("Still running");
    expect(next).toContain("then the linter");
    expect(coding.jobs.list()).toEqual([]);
  }, 30_000);

  it("an explicit timeout still stops the command once it is a job", async () => {
    const { coding, registry } = codingAgent({ defaultYieldMs: 1_000 });
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo tick; exec sleep 60", timeout: 2.5 } }] },
      { kind: "reply", text: "ok" },
    );
    await coding.agent.prompt("run it");
    expect(llm.requests[1]!.transcript).toContain("Its timeout still holds: it is stopped 2.5 s after it started.");
    const job = registry.get("1")!;
    await waitFor(() => !job.running, "the timeout to stop the job", 10_000);
    expect(job.signal).toBe("SIGTERM");
  }, 30_000);

  it("a command that ends within the wait is an ordinary result, no job", async () => {
    const { coding } = codingAgent({ defaultYieldMs: 1_000 });
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo quick" } }] }, { kind: "reply", text: "ok" });
    await coding.agent.prompt("run it");
    expect(llm.requests[1]!.transcript).toContain("quick");
    expect(llm.requests[1]!.transcript).not.toContain("Still running");
    expect(coding.jobs.list()).toEqual([]);
  }, 30_000);
});
