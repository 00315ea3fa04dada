// However pitwall ends, nothing it started survives: jobs, a bash call's background server, and the
// processes that escaped their group on purpose (setsid, setsid -f, nohup with a double fork). The
// kill -9 case is the watchdog's: pitwall runs no code then.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cliEnv, startCli } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { alivePids, childPids, killPids } from "../helpers/processes.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();
const started: number[] = [];
const folders: string[] = [];

afterEach(() => {
  killPids(started.splice(0));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * Commands that each write the pid of a process meant to outlive its parent into a file. The jobs
 * say "started" once they have set their escape going, so bash_stream returns then (READY) rather
 * than after its shortest wait.
 */
const ESCAPES = {
  setsid: "setsid sh -c 'echo $$ > setsid.pid; exec sleep 1001' & echo started; sleep 1000",
  setsidFork: "setsid -f sh -c 'echo $$ > setsid-f.pid; exec sleep 1002'; echo started; sleep 1000",
  doubleFork: "nohup sh -c '(sleep 1003 & echo $! > double.pid) &' > /dev/null 2>&1; echo started; sleep 1000",
  pipeJob: "sleep 1004 & echo $! > pipe.pid; echo started; wait",
  bashBackground: "sleep 1005 > /dev/null 2>&1 & echo $! > background.pid",
};
const PID_FILES = ["setsid.pid", "setsid-f.pid", "double.pid", "pipe.pid", "background.pid"];
const READY = "^started$";

async function startPitwallWithEscapes(): Promise<{ pid: number; work: string; tmp: string; jobPids: number[]; escapePids: number[]; events: JsonLineReader<Event>; exited: Promise<unknown>; stdinEnd: () => void }> {
  const work = mkdtempSync(join(tmpdir(), "pitwall-hygiene-"));
  folders.push(work);
  const tmp = join(work, "tmp");
  mkdirSync(tmp);
  llm.enqueue(
    {
      kind: "reply",
      toolCalls: [
        { name: "bash_stream", arguments: { command: ESCAPES.setsid, readyPattern: READY, yieldMs: 1000 } },
        { name: "bash_stream", arguments: { command: ESCAPES.setsidFork, readyPattern: READY, yieldMs: 1000 } },
        { name: "bash_stream", arguments: { command: ESCAPES.doubleFork, readyPattern: READY, yieldMs: 1000 } },
        { name: "bash_stream", arguments: { command: ESCAPES.pipeJob, stdinMode: "pipe", readyPattern: READY, yieldMs: 1000 } },
        { name: "bash", arguments: { command: ESCAPES.bashBackground } },
      ],
    },
    { kind: "reply", text: "all started" },
  );
  const child = startCli(["--json"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { TMPDIR: tmp } }), work);
  started.push(child.pid!);
  const events = new JsonLineReader<Event>(child.stdout);
  const exited = new Promise((resolve) => child.on("close", resolve));
  child.stdin.write(`${JSON.stringify({ type: "message", content: "start the servers" })}\n`);
  await events.waitFor((e) => e.type === "agent_end", 30_000, "the turn to end");
  await waitFor(() => PID_FILES.every((f) => existsSync(join(work, f)) && readFileSync(join(work, f), "utf8").trim() !== ""), "every escape to write its pid", 10_000);
  const escapePids = PID_FILES.map((f) => Number(readFileSync(join(work, f), "utf8").trim()));
  const jobPids = events.items.filter((e) => e.type === "job_started").map((e) => (e.job as { pid: number }).pid);
  started.push(...escapePids, ...jobPids);
  return { pid: child.pid!, work, tmp, jobPids, escapePids, events, exited, stdinEnd: () => child.stdin.end() };
}

describe("no process pitwall started survives it", () => {
  it("kill -9 of pitwall: the watchdog ends every job and every escape within 2 s, and removes the temp folder", async () => {
    const run = await startPitwallWithEscapes();
    expect(run.jobPids).toHaveLength(4);
    expect(alivePids([...run.jobPids, ...run.escapePids])).toHaveLength(9);
    const watchdogs = childPids(run.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pitwall-watchdog"));
    expect(watchdogs).toHaveLength(1);
    started.push(...watchdogs);
    expect(readdirSync(run.tmp).filter((n) => n.startsWith(`pitwall-${run.pid}-`))).toHaveLength(1);

    process.kill(run.pid, "SIGKILL");
    await waitFor(() => alivePids([...run.jobPids, ...run.escapePids]).length === 0, `every process to be gone (alive: ${alivePids([...run.jobPids, ...run.escapePids]).join(", ")})`, 2_000);
    await waitFor(() => readdirSync(run.tmp).length === 0, "the temp folder to be removed", 5_000);
    await waitFor(() => alivePids(watchdogs).length === 0, "the watchdog to exit", 5_000);
  }, 60_000);

  it("a normal end (EOF in JSON mode) also ends the escapes, and the watchdog", async () => {
    const run = await startPitwallWithEscapes();
    const watchdogs = childPids(run.pid).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pitwall-watchdog"));
    started.push(...watchdogs);
    run.stdinEnd();
    await run.exited;
    expect(alivePids([...run.jobPids, ...run.escapePids])).toEqual([]);
    expect(readdirSync(run.tmp)).toEqual([]);
    await waitFor(() => alivePids(watchdogs).length === 0, "the watchdog to exit", 5_000);
  }, 60_000);
});
