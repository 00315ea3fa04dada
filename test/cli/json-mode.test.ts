// JSON mode driven through a child process: commands as JSON lines on stdin, every event as one
// JSON line on stdout. A command naming an agent drives another agent, whose events carry its name.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, startCli } from "../helpers/cli-process.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { killPids, pidAlive } from "../helpers/processes.js";
import { tempDir } from "../helpers/temp-dir.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();

function startJson() {
  const child = startCli(["--json"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
  const events = new JsonLineReader<Event>(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const send = (value: unknown): void => {
    child.stdin.write(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  };
  return { child, events, exited, send };
}

describe("pitwall --json", () => {
  it("answers a message with every event as a JSON line, and exits 0 at EOF after the work", async () => {
    llm.enqueue({ kind: "reply", text: "Hello there.", delayMs: 5 });
    const { child, events, exited, send } = startJson();
    send({ type: "message", content: "hi" });
    child.stdin.end();
    expect(await exited).toBe(0);
    const types = events.items.map((e) => e.type);
    expect(types[0]).toBe("agent_start");
    expect(types).toContain("message_update");
    expect(types.at(-1)).toBe("agent_end");
    const end = events.items.find((e) => e.type === "message_end" && (e.message as { role: string }).role === "assistant");
    expect(JSON.stringify(end)).toContain("Hello there.");
    expect(events.badLines).toEqual([]);
  });

  it("reports a malformed line as an error event naming the line, and keeps going", async () => {
    llm.enqueue({ kind: "reply", text: "still here" });
    const { child, events, exited, send } = startJson();
    send("{not json");
    send({ type: "dance" });
    send({ type: "message", content: "hi" });
    child.stdin.end();
    expect(await exited).toBe(0);
    const errors = events.items.filter((e) => e.type === "error");
    expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(/^Input line 1 is not valid JSON/), expect.stringMatching(/^Input line 2 has unknown type "dance"/)]);
    expect(errors.every((e) => e.source === "input")).toBe(true);
    expect(JSON.stringify(events.items)).toContain("still here");
  });

  it("delivers a steer sent while a tool runs with the next request", async () => {
    // The tool runs until the steer is queued (a flag file), however loaded the machine.
    const steered = join(tempDir("steer"), "steered");
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `while [ ! -f '${steered}' ]; do sleep 0.05; done; echo slept` } }] },
      { kind: "reply", text: "ok, steered" },
    );
    const { child, events, exited, send } = startJson();
    send({ type: "message", content: "run the slow thing" });
    await events.waitFor((e) => e.type === "tool_execution_start", 15_000, "the bash call to start");
    send({ type: "steer", content: "also check the logs" });
    await events.waitFor((e) => e.type === "queue_update" && (e.steering as string[]).length === 1, 15_000, "the steer to be queued");
    writeFileSync(steered, "");
    child.stdin.end();
    expect(await exited).toBe(0);
    const second = await llm.waitForRequest(2);
    expect(second.transcript).toContain("slept");
    expect(second.transcript).toContain("also check the logs");
  });

  it("runs a follow-up after the work, and an interrupt aborts the stream", async () => {
    llm.enqueue({ kind: "reply", text: "a very long answer that keeps going and going", delayMs: 30, holdOpen: true }, { kind: "reply", text: "went on" }, { kind: "reply", text: "summary done" });
    const { child, events, exited, send } = startJson();
    send({ type: "message", content: "talk a lot" });
    await events.waitFor((e) => e.type === "message_update", 15_000, "streaming to start");
    send({ type: "follow_up", content: "then summarise" });
    await events.waitFor((e) => e.type === "queue_update" && (e.followUp as string[]).length === 1, 15_000, "the follow-up to be queued");
    send({ type: "interrupt" });
    const aborted = await events.waitFor((e) => e.type === "message_end" && (e.message as { stopReason?: string }).stopReason === "aborted", 15_000, "an aborted message");
    expect(aborted).toBeDefined();
    // The follow-up stays queued through the abort and runs with the next message.
    send({ type: "message", content: "go on" });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[1]!.transcript).toContain("go on");
    expect(llm.requests[1]!.transcript).not.toContain("then summarise");
    expect(llm.requests[2]!.transcript).toContain("then summarise");
    expect(JSON.stringify(events.items)).toContain("summary done");
  });

  it("after an interrupt, what was queued goes after the next message: a steer in its first request, right after it; a follow-up after its reply", async () => {
    llm.enqueue({ kind: "reply", text: "a long answer that keeps going", delayMs: 30, holdOpen: true }, { kind: "reply", text: "fresh start" }, { kind: "reply", text: "followed up" });
    const { child, events, exited, send } = startJson();
    send({ type: "message", content: "talk a lot" });
    await events.waitFor((e) => e.type === "message_update", 15_000, "streaming to start");
    send({ type: "steer", content: "also check the logs" });
    send({ type: "follow_up", content: "then summarise" });
    await events.waitFor((e) => e.type === "queue_update" && (e.steering as string[]).length === 1 && (e.followUp as string[]).length === 1, 15_000, "both to be queued");
    send({ type: "interrupt" });
    await events.waitFor((e) => e.type === "agent_end", 15_000, "the aborted run to end");
    // Nothing of the queue was sent by the abort, and it is all still queued.
    expect(llm.requests).toHaveLength(1);
    const lastQueue = events.items.filter((e) => e.type === "queue_update").at(-1);
    expect(lastQueue).toMatchObject({ steering: ["also check the logs"], followUp: ["then summarise"] });
    send({ type: "message", content: "do something else" });
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(llm.requests).toHaveLength(3);
    const first = llm.requests[1]!.transcript;
    expect(first.indexOf("do something else")).toBeGreaterThan(-1);
    expect(first.indexOf("also check the logs")).toBeGreaterThan(first.indexOf("do something else"));
    expect(first).not.toContain("then summarise");
    expect(llm.requests[2]!.transcript).toContain("then summarise");
    expect(events.items.filter((e) => e.type === "error")).toEqual([]);
  });

  for (const ending of ["a closed stdout (EPIPE)", "SIGHUP"] as const) {
    it(`${ending} ends it cleanly: exit 0, no stack, the job it started stopped`, async () => {
      llm.enqueue(
        { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "echo serving; exec sleep 300", readyPattern: "serving" } }] },
        { kind: "reply", text: "a long answer that keeps streaming", delayMs: 50, holdOpen: true },
      );
      const { child, events, exited, send } = startJson();
      send({ type: "message", content: "start the server" });
      const started = await events.waitFor((e) => e.type === "job_started", 15_000, "the job to start");
      const jobPid = (started.job as { pid: number }).pid;
      await events.waitFor((e) => e.type === "message_update" && JSON.stringify(e).includes("a lon"), 15_000, "the second reply to stream");
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
      if (ending === "SIGHUP") child.kill("SIGHUP");
      else child.stdout.destroy();
      try {
        expect(await exited).toBe(0);
        expect(stderr).not.toMatch(/unexpected error|Error:|at .*\.js:\d+/);
        expect(pidAlive(jobPid)).toBe(false);
      } finally {
        killPids([jobPid]);
      }
    }, 30_000);
  }

  it("drives a second agent by name: its own conversation, its events tagged with its name", async () => {
    llm.enqueue({ kind: "reply", text: "Main did the parser." }, { kind: "reply", text: "Tests did the fixtures." });
    const { child, events, exited, send } = startJson();
    send({ type: "message", content: "do the parser" });
    await events.waitFor((e) => e.type === "agent_end", 15_000, "the first agent to finish");
    send({ type: "message", agent: "tests", content: "do the fixtures" });
    send({ type: "message", agent: "no such/name", content: "x" });
    child.stdin.end();
    expect(await exited).toBe(0);
    const tagged = events.items.filter((e) => e.agent === "tests");
    const untagged = events.items.filter((e) => e.agent === undefined);
    expect(tagged.map((e) => e.type)).toContain("agent_end");
    expect(JSON.stringify(tagged)).toContain("Tests did the fixtures.");
    expect(JSON.stringify(tagged)).not.toContain("Main did the parser.");
    expect(JSON.stringify(untagged)).toContain("Main did the parser.");
    expect(JSON.stringify(untagged)).not.toContain("Tests did the fixtures.");
    expect(untagged.filter((e) => e.type === "error").map((e) => e.message)).toEqual([expect.stringMatching(/^Input line 3 names an agent that cannot be: "no such\/name" cannot name an agent/)]);
    expect(llm.requests).toHaveLength(2);
    expect(llm.requests[1]!.transcript).toContain("do the fixtures");
    expect(llm.requests[1]!.transcript).not.toContain("do the parser");
  });
});
