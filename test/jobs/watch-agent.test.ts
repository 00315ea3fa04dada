// Watch triggers and digests end to end below the screen: the real coding agent against the fake
// LLM, real jobs. A test watcher turning red reaches the model as a steer at its next request; an
// idle agent is woken with the lines; a flood is debounced and batched; a long log comes back as a
// digest with its repeats folded and its stack trace whole.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import type { UserMessage } from "../../agent/messages.js";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import type { JobEvent, JobTriggeredEvent } from "../../tools/jobs/events.js";
import { codingAgentFor } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { waitFor } from "../helpers/conditions.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

/** A test watcher: reruns when a flag file appears and prints a failing or a passing run. */
const WATCHER = [
  'echo "watching for changes"',
  "while true; do",
  '  if [ -f rerun-fail ]; then rm rerun-fail; printf "%s\\n" " RUN  v4.1" " ✓ adds" " ✓ subtracts" " FAIL test/sum.test.ts > sums" "   expected 2, received 3" " Tests: 1 failed, 2 passed"; fi',
  '  if [ -f rerun-pass ]; then rm rerun-pass; printf "%s\\n" " RUN  v4.1" " ✓ adds" " ✓ subtracts" " ✓ sums" " Tests: 3 passed"; fi',
  "  sleep 0.05",
  "done",
].join("\n");

const codingAgent = () => codingAgentFor(llm, "watch");

const firings = (events: readonly PitwallEvent[]): JobTriggeredEvent[] => events.filter((e): e is JobTriggeredEvent => e.type === "job_triggered");

const FAIL_LINES = ["  2 |  RUN  v4.1", "  3 |  ✓ adds", "  4 |  ✓ subtracts", "> 5 |  FAIL test/sum.test.ts > sums", "  6 |    expected 2, received 3", "  7 |  Tests: 1 failed, 2 passed"].join("\n");

describe("watch triggers, through the agent", () => {
  it("a test watcher that prints FAIL steers the busy agent: the lines and their context reach the next request", async () => {
    const { coding, events, cwd } = codingAgent();
    llm.enqueue(
      {
        kind: "reply",
        toolCalls: [{ name: "bash_stream", arguments: { command: WATCHER, readyPattern: "watching for changes", watch: [{ pattern: "FAIL", action: "steer" }] } }],
      },
      // Busy in a command until the test has seen the trigger fire.
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "touch rerun-fail; while [ ! -f fired ]; do sleep 0.05; done; echo edited" } }] },
      { kind: "reply", text: "I see sums failing; fixing it." },
    );
    const run = coding.agent.prompt("run the tests in watch mode and fix what fails");
    const fired = await waitFor(() => firings(events)[0], "the trigger to fire", 20_000);
    writeFileSync(join(cwd, "fired"), "");
    await run;
    expect(fired).toMatchObject({ jobId: "1", matches: 1, trigger: { id: 1, pattern: "FAIL", action: "steer", setBy: "agent" } });
    const third = llm.requests[2]!.transcript;
    expect(third).toContain("job 1 printed (watch trigger 1 /FAIL/, set by you, on: echo \"watching for changes\"");
    expect(third).toContain(FAIL_LINES);
    // The bash_stream result said the triggers are set from then on.
    expect(llm.requests[1]!.transcript).toContain("Watching job 1 from here on: #1 /FAIL/ → steer (set by you, at most every 10s)");
    const steer = coding.agent.state.messages.find((m): m is UserMessage => m.role === "user" && m.origin === "trigger")!;
    expect(steer.trigger).toEqual({ jobId: "1", triggerId: 1, pattern: "FAIL", ignoreCase: false, action: "steer", setBy: "agent" });
    await coding.dispose();
  }, 40_000);

  it("wakes the idle agent: a new request arrives with the lines, and a passing run fires nothing", async () => {
    const { coding, events, cwd } = codingAgent();
    llm.enqueue(
      {
        kind: "reply",
        toolCalls: [{ name: "bash_stream", arguments: { command: WATCHER, readyPattern: "watching", watch: [{ pattern: "FAIL|Error", action: "wake" }] } }],
      },
      { kind: "reply", text: "The watcher runs; I will hear of failures." },
      { kind: "reply", text: "Woken: sums fails." },
    );
    await coding.agent.prompt("keep an eye on the tests");
    expect(coding.agent.state.isStreaming).toBe(false);
    writeFileSync(join(cwd, "rerun-pass"), "");
    writeFileSync(join(cwd, "rerun-fail"), "");
    const woken = await llm.waitForRequest(3, 20_000);
    expect(woken.transcript).toContain("job 1 printed (watch trigger 1 /FAIL|Error/, set by you");
    expect(woken.transcript).toMatch(/> +\d+ \|  FAIL test\/sum\.test\.ts > sums/);
    await waitFor(() => events.some((e) => e.type === "agent_end" && e.messages.some((m) => m.role === "assistant" && JSON.stringify(m).includes("Woken: sums fails."))), "the woken turn to end");
    expect(firings(events)).toHaveLength(1);
    expect(firings(events)[0]!.lines.some((l) => l.text.includes("Tests: 3 passed"))).toBe(false);
    await coding.dispose();
  }, 40_000);

  it("returns a long log as a digest: 10,000 repeated lines folded (those still in memory), the stack trace whole", async () => {
    const { coding } = codingAgent();
    const trace = ["Error: connect ECONNREFUSED 127.0.0.1:5432", "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)", "    at Pool.connect (/app/node_modules/pg-pool/index.js:45:11)", "    at async main (/app/src/server.js:12:3)"];
    const job = [
      'echo "server starting"',
      "while [ ! -f go ]; do sleep 0.05; done",
      'for i in $(seq 10000); do echo "GET /health 200"; done',
      `printf '%s\\n' ${trace.map((l) => `'${l}'`).join(" ")}`,
      "touch printed",
      "sleep 60",
    ].join("\n");
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: job, readyPattern: "server starting", stdinMode: "pipe" } }] },
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "touch go; while [ ! -f printed ]; do sleep 0.05; done" } }] },
      { kind: "reply", toolCalls: [{ name: "poll_process", arguments: { jobId: "1" } }] },
      { kind: "reply", text: "The database refused the connection." },
    );
    await coding.agent.prompt("start the server and tell me what it logs");
    const poll = llm.requests[3]!.transcript;
    // A job's log keeps its last 10,000 lines: the 5 oldest of the 10,005 printed left memory.
    expect(poll).toContain("[4 lines were printed and dropped from memory before this read.]");
    expect(poll).toMatch(/New output \(lines 6–10005, [\d,]+ characters, more than the 30000-character cap, so as a digest\):/);
    expect(poll).toContain("    6 | GET /health 200\n      | … ×9,996 (lines 6–10001)");
    expect(poll.slice(poll.indexOf("New output")).match(/GET \/health 200/g)).toHaveLength(1);
    expect(poll).toContain(`✗ line 10002: stack trace (javascript), lines 10002–10005:\n${trace.map((l, i) => `    ${10_002 + i} | ${l}`).join("\n")}`);
    expect(poll).toContain('[Raw lines: get_process_log with jobId "1", offset and limit read lines 6–10005 as printed;');
    await coding.dispose();
  }, 60_000);
});

describe("watch triggers on a flood", () => {
  it("fire at most once per window, batching the matches in between, and lose none", async () => {
    // Windows of a fifth of a second (a second at the least for a person's or the model's trigger),
    // bursts gathered for at most a fifth of a second: the same flood, five times faster.
    const windowMs = 200;
    const registry = new JobRegistry({
      cwd: tempDir("watch-flood"),
      env: process.env,
      settings: { watchDebounceMs: windowMs },
      watchTiming: { minDebounceMs: windowMs, gatherMs: windowMs, settleMs: 50 },
    });
    const events: JobEvent[] = [];
    registry.subscribe((e) => events.push(e));
    try {
      // Twelve bursts of 250 matches, 50 ms apart: however slowly a busy machine runs them, there is
      // more than one window of flood, and never more firings than bursts.
      const job = registry.start({ command: "while [ ! -f go ]; do sleep 0.02; done; for i in $(seq 12); do seq -f 'FAIL %g' 1 250; sleep 0.05; done; echo finished", startedBy: "agent", stdinMode: "pipe" });
      registry.watches.add(job.id, { pattern: "^FAIL", action: "notify", setBy: "agent" });
      writeFileSync(join(job.cwd, "go"), "");
      const all = (): JobTriggeredEvent[] => events.filter((e): e is JobTriggeredEvent => e.type === "job_triggered");
      await waitFor(() => all().reduce((sum, f) => sum + f.matches, 0) === 3_000, "all 3000 matches to be reported", 30_000);
      const fired = all();
      // 0.6 s of flood or more in windows of 0.2 s: a handful of firings, not thousands.
      expect(fired.length).toBeGreaterThanOrEqual(2);
      expect(fired.length).toBeLessThanOrEqual(13);
      for (let i = 1; i < fired.length; i++) expect(fired[i]!.firedAt - fired[i - 1]!.firedAt).toBeGreaterThanOrEqual(windowMs);
      for (const firing of fired) {
        expect(firing.lines.filter((l) => l.match).length).toBeLessThanOrEqual(8);
        if (firing.matches > 8) expect(firing.omitted?.count).toBe(firing.matches - firing.lines.filter((l) => l.match).length);
      }
    } finally {
      await registry.shutdown();
    }
  }, 40_000);
});
