// What the model is told is true, read in the fake model server's request log: a real pitwall in
// JSON mode, its jobs in a real job host. Who did what is named right, things arrive in the order
// they happened, and a reply cut short is marked as cut.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, startCli } from "../helpers/cli-process.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { tempDir } from "../helpers/temp-dir.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();
const running: Array<{ stdin: { end(): void }; exited: Promise<number | null> }> = [];
afterEach(async () => {
  for (const run of running.splice(0)) {
    run.stdin.end();
    await run.exited;
  }
});

function startJson(cwd: string, home?: string, extra?: Record<string, string>) {
  const child = startCli(["--json"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, ...(home ? { home } : {}), ...(extra ? { extra } : {}) }), cwd);
  const events = new JsonLineReader<Event>(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const send = (value: unknown): void => {
    child.stdin.write(`${JSON.stringify(value)}\n`);
  };
  const run = { stdin: child.stdin, exited };
  running.push(run);
  return { child, events, exited, send };
}

/** A test watcher: prints a failing run each time a flag file appears. */
const WATCHER = ['echo "watching for changes"', "while true; do", '  if [ -f rerun-fail ]; then rm rerun-fail; printf "%s\\n" " FAIL test/sum.test.ts > sums" "   expected 2, received 3"; fi', "  sleep 0.05", "done"].join("\n");

describe("what the model is told, through the job host", () => {
  it("a wait a watch trigger ended says the trigger ended it, not the person", async () => {
    const cwd = tempDir("truth");
    llm.enqueue(
      // A window of 200 ms (below the usual 1 s floor, which PITWALL_WATCH_MIN_DEBOUNCE_MS lowers here).
      { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: WATCHER, readyPattern: "watching for changes", watch: [{ pattern: "FAIL", action: "steer", debounceMs: 200 }] } }] },
      // The trigger's steer ends this bash call's wait: the command becomes a job.
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "touch rerun-fail; sleep 30" } }] },
      // And this bash_stream's wait, long as it is.
      { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "sleep 0.3; touch rerun-fail; sleep 30", yieldMs: 60_000 } }] },
      { kind: "reply", text: "Both failures seen." },
    );
    const { events, send, child } = startJson(cwd, undefined, { PITWALL_WATCH_MIN_DEBOUNCE_MS: "100" });
    send({ type: "message", content: "watch the tests" });
    await events.waitFor((e) => e.type === "agent_end", 60_000, "the run to end");
    const bash = llm.requests[2]!.transcript;
    expect(bash).toMatch(/Still running as job 2 \(pid \d+\) after \d+ s: watch trigger 1 on job 1 fired \(its lines come next, as a steering message\), so it became a background job/);
    const stream = llm.requests[3]!.transcript;
    expect(stream).toContain("Stopped waiting because watch trigger 1 on job 1 fired (its lines come next, as a steering message).");
    for (const request of llm.requests) expect(request.transcript).not.toContain("the person sent a message");
    child.stdin.end();
  }, 90_000);

  it("a reply cut by an interrupt goes back to the model marked as cut", async () => {
    const cwd = tempDir("truth");
    llm.enqueue({ kind: "reply", text: `Here is the plan: first we read the config, then we change the port and finally ${"we test it all again. ".repeat(20)}`, chunkSize: 4, delayMs: 50 }, { kind: "reply", text: "Understood." });
    const { events, send, child } = startJson(cwd);
    send({ type: "message", content: "make a plan" });
    await events.waitFor(() => events.items.filter((e) => e.type === "message_update").length >= 12, 20_000, "the reply to stream");
    send({ type: "interrupt" });
    await events.waitFor((e) => e.type === "agent_end", 20_000, "the run to end");
    send({ type: "message", content: "go on" });
    await events.waitFor((e) => e.type === "agent_end" && JSON.stringify(e).includes("Understood."), 20_000, "the second run");
    const next = llm.requests[1]!.transcript;
    expect(next).toMatch(/assistant: Here is the plan: first we read the config[^\n]*\n\n\[cut off here: the person stopped this reply before it finished\]\nuser: go on/);
    child.stdin.end();
  }, 60_000);

  it("a trigger's firing reaches every listener before the run it wakes: job_triggered comes before agent_start", async () => {
    const cwd = tempDir("truth");
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: WATCHER, readyPattern: "watching for changes", watch: [{ pattern: "FAIL", action: "wake" }] } }] },
      { kind: "reply", text: "Watching." },
      { kind: "reply", text: "Woken." },
    );
    const { events, send, child } = startJson(cwd);
    send({ type: "message", content: "watch the tests" });
    await events.waitFor((e) => e.type === "agent_end", 30_000, "the first run to end");
    writeFileSync(join(cwd, "rerun-fail"), "");
    await events.waitFor((e) => e.type === "agent_end" && JSON.stringify(e).includes("Woken."), 30_000, "the woken run to end");
    const types = events.items.map((e) => e.type);
    const fired = types.indexOf("job_triggered");
    const woke = types.indexOf("agent_start", types.indexOf("agent_end"));
    expect(fired).toBeGreaterThan(-1);
    expect(fired).toBeLessThan(woke);
    child.stdin.end();
  }, 60_000);
});
