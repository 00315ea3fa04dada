import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import type { JobEvent } from "../../tools/jobs/events.js";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import type { Job } from "../../tools/jobs/process/job.js";
import { noticeTexts, tempDir } from "./helpers.js";
import { waitFor } from "../helpers/conditions.js";
import { alivePids, survivors } from "../helpers/processes.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveJobSettings, type JobSettings } from "../../tools/jobs/settings.js";

const registries: JobRegistry[] = [];

function makeRegistry(settings: Partial<JobSettings> = {}, env: NodeJS.ProcessEnv = process.env): JobRegistry {
  const registry = new JobRegistry({ cwd: tempDir(), settings, env });
  registries.push(registry);
  return registry;
}

afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

/** Waits until the emulator has parsed everything written to it. */
async function settled(job: Job): Promise<void> {
  await job.exited;
  await waitFor(() => job.emulatorPending === 0, "the emulator to catch up", 10_000);
}

function screenText(job: Job): string {
  const buffer = job.terminal.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buffer.length; i++) lines.push(buffer.getLine(i)?.translateToString(true) ?? "");
  return lines.join("\n").trimEnd();
}

describe("resolveJobSettings", () => {
  it("fills in the defaults and clamps the yield window", () => {
    expect(resolveJobSettings()).toMatchObject({ maxOutputChars: 30_000, ttlMs: 1_800_000, defaultYieldMs: 60_000, maxJobs: 16 });
    expect(resolveJobSettings({ maxJobs: 3, defaultYieldMs: 5, ttlMs: undefined })).toMatchObject({ maxJobs: 3, defaultYieldMs: 1_000, ttlMs: 1_800_000 });
  });
});

describe("JobRegistry", () => {
  it("runs a pty job in its own group with TERM set and colours and wide characters reaching the emulator", async () => {
    const registry = makeRegistry();
    const job = registry.start({
      command: `echo "term=$TERM pgid=$(ps -o pgid= -p $$ | tr -d ' ') pid=$$"; printf '\\033[31mred\\033[0m 漢😀x\\n'`,
      startedBy: "agent",
    });
    expect(job.id).toBe("1");
    expect(job.info).toMatchObject({ status: "running", stdinMode: "pty", startedBy: "agent", restarts: 0 });
    const info = await job.exited;
    expect(info).toMatchObject({ status: "exited", exitCode: 0 });
    expect(job.log.keptText()).toContain(`term=xterm-256color pgid=${job.pid} pid=${job.pid}`);
    expect(job.log.keptText()).toContain("red 漢😀x");
    await settled(job);
    const buffer = job.terminal.buffer.active;
    let row = -1;
    for (let i = 0; i < buffer.length; i++) if (buffer.getLine(i)?.translateToString(true).startsWith("red")) row = i;
    expect(row).toBeGreaterThanOrEqual(0);
    const line = buffer.getLine(row)!;
    const r = line.getCell(0)!;
    expect(r.getChars()).toBe("r");
    expect(r.isFgPalette()).toBe(true);
    expect(r.getFgColor()).toBe(1);
    expect(line.getCell(4)!.getChars()).toBe("漢");
    expect(line.getCell(4)!.getWidth()).toBe(2);
    expect(line.getCell(5)!.getWidth()).toBe(0);
    expect(line.getCell(6)!.getChars()).toBe("😀");
    expect(line.getCell(6)!.getWidth()).toBe(2);
    expect(line.getCell(8)!.getChars()).toBe("x");
  });

  it("keeps stdout and stderr apart in pipe mode, with events labelled by stream", async () => {
    const registry = makeRegistry();
    const events: JobEvent[] = [];
    registry.subscribe((e) => events.push(e));
    const job = registry.start({
      command: "echo out1; echo err1 >&2; echo out2; echo err2 >&2; exit 4",
      stdinMode: "pipe",
      startedBy: "agent",
    });
    const info = await job.exited;
    expect(info).toMatchObject({ status: "exited", exitCode: 4, stdinMode: "pipe" });
    expect(job.stdoutLog!.keptText()).toBe("out1\nout2\n");
    expect(job.stderrLog!.keptText()).toBe("err1\nerr2\n");
    const streams = new Set(events.flatMap((e) => (e.type === "job_output" ? [e.stream] : [])));
    expect(streams).toEqual(new Set(["stdout", "stderr"]));
    expect(events[0]).toMatchObject({ type: "job_started", job: { id: job.id } });
    await waitFor(() => events.some((e) => e.type === "job_exited"), "job_exited", 5_000);
    expect(events.find((e) => e.type === "job_exited")).toMatchObject({ job: { exitCode: 4 } });
  });

  it("splits output events into chunks of at most 8 KiB", async () => {
    const registry = makeRegistry();
    const chunks: string[] = [];
    registry.subscribe((e) => {
      if (e.type === "job_output") chunks.push(e.chunk);
    });
    const job = registry.start({ command: "head -c 200000 /dev/zero | tr '\\0' 'é'", stdinMode: "pipe", startedBy: "agent" });
    await job.exited;
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(Buffer.byteLength(chunk, "utf8")).toBeLessThanOrEqual(8 * 1024);
    // 'é' is two bytes, and tr works on bytes: 200000 bytes become 100000 pairs of é's bytes.
    expect(chunks.join("").length).toBeGreaterThan(0);
  });

  it("refuses to start past the limit of simultaneous jobs with a clear error", async () => {
    const registry = makeRegistry({ maxJobs: 2 });
    registry.start({ command: "sleep 30", startedBy: "agent" });
    registry.start({ command: "sleep 30", startedBy: "agent" });
    expect(() => registry.start({ command: "sleep 30", startedBy: "agent" })).toThrow(/2 jobs are running and the limit is 2.*kill_process/);
    await registry.kill("1");
    expect(registry.start({ command: "true", startedBy: "agent" }).id).toBe("3");
  });

  it("says so when the working directory does not exist", () => {
    const registry = makeRegistry();
    expect(() => registry.start({ command: "true", cwd: "/no/such/folder", startedBy: "agent" })).toThrow(/\/no\/such\/folder does not exist/);
  });

  it("runs in the given cwd with the given env", async () => {
    const registry = makeRegistry();
    const dir = tempDir();
    const job = registry.start({ command: 'echo "$PWD $GREETING"', cwd: dir, env: { GREETING: "hello" }, startedBy: "agent" });
    await job.exited;
    expect(job.log.keptText()).toContain(`${dir} hello`);
  });

  it("writes to cat in a pty and ends it with eof", async () => {
    const registry = makeRegistry();
    const job = registry.start({ command: "cat", startedBy: "agent" });
    registry.write(job.id, "hello cat\n");
    await waitFor(() => job.log.keptText().split("hello cat").length >= 3, "the echo and cat's copy", 10_000);
    registry.write(job.id, "", { eof: true });
    const info = await job.exited;
    expect(info).toMatchObject({ status: "exited", exitCode: 0 });
  });

  it("ends a pty job's input even when the last text did not end its line", async () => {
    const registry = makeRegistry();
    const job = registry.start({ command: "wc -c", startedBy: "agent" });
    registry.write(job.id, "abc", { eof: true });
    const info = await job.exited;
    expect(info).toMatchObject({ status: "exited", exitCode: 0 });
    expect(job.log.keptText()).toMatch(/^abc\s*3$/m);
  });

  it("writes to a shell read loop over pipes and closes its stdin", async () => {
    const registry = makeRegistry();
    const job = registry.start({
      command: 'while read -r line; do echo "got $line"; done; echo "end of input"',
      stdinMode: "pipe",
      startedBy: "agent",
    });
    registry.write(job.id, "first\nsecond\n", { eof: true });
    const info = await job.exited;
    expect(info.exitCode).toBe(0);
    expect(job.stdoutLog!.keptText()).toBe("got first\ngot second\nend of input\n");
  });

  it("refuses input for an unknown job, a finished job, and past 256 KiB", async () => {
    const registry = makeRegistry();
    expect(() => registry.write("42", "x")).toThrow(/No job with id "42"/);
    const done = registry.start({ command: "true", startedBy: "agent" });
    await done.exited;
    expect(() => registry.write(done.id, "x")).toThrow(/exited with code 0; it takes no more input/);
    const sink = registry.start({ command: "cat > /dev/null", stdinMode: "pipe", startedBy: "agent" });
    registry.write(sink.id, "a".repeat(200 * 1024));
    expect(() => registry.write(sink.id, "b".repeat(100 * 1024))).toThrow(/limit of 262144 bytes/);
    registry.write(sink.id, "c".repeat(56 * 1024));
    expect(() => registry.write(sink.id, "d")).toThrow(/256 KiB/);
  });

  it("escalates to KILL when a job ignores TERM, and leaves nothing of its group", async () => {
    const registry = makeRegistry({ killGraceMs: 700 });
    const job = registry.start({
      command: "trap '' TERM; (trap '' TERM; sleep 300) & echo ready; while true; do sleep 0.1; done",
      startedBy: "agent",
    });
    await waitFor(() => job.log.keptText().includes("ready"), "ready", 10_000);
    const started = Date.now();
    const info = await registry.kill(job.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(650);
    expect(info).toMatchObject({ status: "killed", signal: "SIGKILL" });
    await waitFor(() => survivors([job.pid]).length === 0, "the group to be gone", 5_000);
  });

  it("stops a job with TERM quickly when it obeys", async () => {
    const registry = makeRegistry({ killGraceMs: 5_000 });
    const job = registry.start({ command: "sleep 300", stdinMode: "pipe", startedBy: "agent" });
    const info = await registry.kill(job.id);
    // Ended by TERM, not by the KILL that follows the 5 s grace period.
    expect(info).toMatchObject({ status: "killed", signal: "SIGTERM" });
  });

  it("restarts under the same id with restarts + 1, and tells the agent when the person did it", async () => {
    const registry = makeRegistry();
    const events: JobEvent[] = [];
    registry.subscribe((e) => events.push(e));
    const first = registry.start({ command: "echo run-$RANDOM; sleep 300", env: { X: "1" }, startedBy: "agent" });
    await waitFor(() => first.log.keptText().includes("run-"), "first output", 10_000);
    const second = await registry.restart(first.id, "person");
    expect(second.id).toBe(first.id);
    // Who started it stays; who restarted it is added.
    expect(second.info).toMatchObject({ restarts: 1, status: "running", startedBy: "agent", restartedBy: "person" });
    expect(second.pid).not.toBe(first.pid);
    expect(first.status).toBe("killed");
    expect(registry.get(first.id)).toBe(second);
    expect(registry.list()).toEqual([second]);
    expect(second.env.X).toBe("1");
    expect(events.filter((e) => e.type === "job_started").map((e) => (e as { job: { restarts: number } }).job.restarts)).toEqual([0, 1]);
    expect(noticeTexts(registry.drainNotices())).toEqual([`The person restarted job ${first.id}: echo run-$RANDOM; sleep 300`]);
    const third = await registry.restart(first.id, "agent");
    expect(third.info.restarts).toBe(2);
    expect(noticeTexts(registry.drainNotices())).toEqual([]);
  });

  it("tells the agent when a job exits on its own, once, with its last lines", async () => {
    const registry = makeRegistry();
    const job = registry.start({ command: "echo starting server; echo 'Error: port 3000 in use' >&2; exit 3", startedBy: "agent" });
    await job.exited;
    await waitFor(() => job.info.endedAt !== undefined, "the end", 1_000);
    const notices = noticeTexts(registry.drainNotices());
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^Job 1 \(echo starting server.*\) exited with code 3 after .*Last lines:\nstarting server\nError: port 3000 in use$/s);
    expect(noticeTexts(registry.drainNotices())).toEqual([]);
  });

  it("does not tell the agent about a job whose end a tool already reported, or that the agent stopped", async () => {
    const registry = makeRegistry();
    const reported = registry.start({ command: "exit 1", startedBy: "agent" });
    await reported.exited;
    reported.finalDelivered = true;
    const stopped = registry.start({ command: "sleep 300", startedBy: "agent" });
    await registry.kill(stopped.id, { by: "agent" });
    expect(noticeTexts(registry.drainNotices())).toEqual([]);
  });

  it("tells the agent what the person did, and nothing about its own actions", async () => {
    const registry = makeRegistry();
    const mine = registry.start({ command: "cat", startedBy: "agent" });
    registry.write(mine.id, "x\n", { by: "agent" });
    expect(noticeTexts(registry.drainNotices())).toEqual([]);
    const theirs = registry.start({ command: "cat", startedBy: "person" });
    registry.write(theirs.id, "a", { by: "person" });
    registry.write(theirs.id, "b", { by: "person" });
    await registry.kill(theirs.id, { by: "person" });
    expect(registry.remove(theirs.id)).toBe(true);
    expect(noticeTexts(registry.drainNotices())).toEqual([
      "The person started job 2: cat",
      "The person typed into job 2 (cat).",
      "The person stopped job 2 (cat).",
      "The person removed job 2 (cat) from the list.",
    ]);
  });

  it("removes finished jobs after the TTL, and never running ones", async () => {
    const registry = makeRegistry({ ttlMs: 300 });
    const removed: string[] = [];
    registry.subscribe((e) => {
      if (e.type === "job_removed") removed.push(e.jobId);
    });
    const quick = registry.start({ command: "true", startedBy: "agent" });
    const slow = registry.start({ command: "sleep 300", startedBy: "agent" });
    await quick.exited;
    expect(registry.list()).toContain(quick);
    await waitFor(() => removed.includes(quick.id), "job_removed", 10_000);
    expect(registry.get(quick.id)).toBeUndefined();
    expect(registry.get(slow.id)).toBe(slow);
    expect(registry.remove(slow.id)).toBe(false);
  });

  it("resizes the pty and the emulator", async () => {
    const registry = makeRegistry();
    const job = registry.start({ command: "read -r _; stty size", startedBy: "agent" });
    job.resize(100, 40);
    expect(job.terminal.cols).toBe(100);
    expect(job.terminal.rows).toBe(40);
    registry.write(job.id, "\n");
    await job.exited;
    expect(job.log.keptText()).toContain("40 100");
  });

  it("answers the program's cursor-position query from the emulator", async () => {
    const registry = makeRegistry();
    const job = registry.start({
      command: `printf 'abc\\033[6n'; IFS= read -rs -d R reply; echo; echo "reply=\${reply#*[}"`,
      startedBy: "agent",
    });
    const info = await job.exited;
    expect(info.exitCode).toBe(0);
    expect(job.log.keptText()).toMatch(/reply=1;4/);
    await settled(job);
    expect(screenText(job)).toContain("reply=1;4");
  });

  it("leaves nothing of any job running after shutdown", async () => {
    const registry = makeRegistry({ killGraceMs: 1_000 });
    const jobs = [
      registry.start({ command: "sleep 300", startedBy: "agent" }),
      registry.start({ command: "sleep 300 & sleep 301 & wait", stdinMode: "pipe", startedBy: "agent" }),
      registry.start({ command: "trap '' TERM HUP; echo ready; while true; do sleep 0.1; done", startedBy: "person" }),
      registry.start({ command: "(setsid_not_used=1; sleep 302) & echo child-left; exit 0", stdinMode: "pipe", startedBy: "agent" }),
    ];
    await waitFor(() => jobs[2]!.log.keptText().includes("ready"), "ready", 10_000);
    await waitFor(() => !jobs[3]!.running, "the parent of the leftover child to exit", 10_000);
    const pgids = jobs.map((j) => j.pid);
    expect(survivors(pgids).length).toBeGreaterThanOrEqual(5);
    await registry.shutdown();
    expect(survivors(pgids)).toEqual([]);
    expect(registry.list()).toEqual([]);
  });
});

describe("JobRegistry: marks, owners, ids and line observers", () => {
  it("stopping a job ends what escaped its group (setsid, a double fork): every process carries the job's mark", async () => {
    const registry = makeRegistry({ killGraceMs: 500 });
    const dir = tempDir();
    const job = registry.start({
      command: "setsid -f sh -c 'echo $$ > escaped.pid; exec sleep 1011'; (sleep 1012 & echo $! > forked.pid) & echo started; sleep 1013",
      cwd: dir,
      startedBy: "agent",
    });
    const other = registry.start({ command: "setsid -f sh -c 'echo $$ > other.pid; exec sleep 1014'; sleep 1015", cwd: dir, startedBy: "agent" });
    await waitFor(() => ["escaped.pid", "forked.pid", "other.pid"].every((f) => existsSync(join(dir, f)) && readFileSync(join(dir, f), "utf8").trim() !== ""), "the escapes to start", 10_000);
    const pid = (name: string): number => Number(readFileSync(join(dir, name), "utf8").trim());
    const escapes = [pid("escaped.pid"), pid("forked.pid")];
    expect(readFileSync(`/proc/${escapes[0]}/environ`, "utf8")).toContain(`PITWALL_JOB=${job.mark}`);
    await registry.kill(job.id);
    await waitFor(() => alivePids(escapes).length === 0, "the job's escapes to end", 5_000);
    // Another job's escape is not its business.
    expect(alivePids([pid("other.pid")])).toHaveLength(1);
    await registry.shutdown();
    await waitFor(() => alivePids([pid("other.pid")]).length === 0, "shutdown to end every job's escapes", 5_000);
    expect(other.running).toBe(false);
  });

  it("tells each client's agent what was done in that client, and its own jobs' exits; a client that leaves hands both to the next", async () => {
    const registry = makeRegistry();
    const a = registry.start({ command: "sleep 300", startedBy: "agent", owner: "a" });
    const b = registry.start({ command: "cat", startedBy: "person", owner: "b" });
    registry.write(b.id, "x", { by: "person", actor: "b" });
    await registry.kill(a.id, { by: "person", actor: "b" });
    expect(noticeTexts(registry.drainNotices("a"))).toEqual([]);
    expect(noticeTexts(registry.drainNotices("b"))).toEqual(["The person started job 2: cat", "The person typed into job 2 (cat).", "The person stopped job 1 (sleep 300)."]);
    const crash = registry.start({ command: "sleep 0.2; exit 4", startedBy: "agent", owner: "a" });
    expect(registry.owned("a").map((j) => j.id)).toEqual(["1", "3"]);
    // Client a leaves its jobs running; job 3 ends while nobody owns it.
    registry.release("a");
    expect(registry.unowned().map((j) => j.id)).toEqual(["1", "3"]);
    await crash.exited;
    await waitFor(() => crash.info.endedAt !== undefined, "the end");
    expect(noticeTexts(registry.drainNotices("a"))).toEqual([]);
    // Client c takes them over, with what was to be told.
    expect(registry.adoptUnowned("c").map((j) => j.id)).toEqual(["1", "3"]);
    const told = noticeTexts(registry.drainNotices("c"));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^Job 3 \(sleep 0\.2; exit 4\) exited with code 4/);
    // Client c ends: its jobs are stopped and forgotten; b's job runs on.
    await registry.stopOwned("c");
    expect(registry.list().map((j) => j.id)).toEqual(["2"]);
  });

  it("tells a watch firing to the owner's agent only; one on a job nobody owns waits as a notice for the client that takes it over", async () => {
    const registry = makeRegistry({ watchDebounceMs: 1_000 });
    const job = registry.start({ command: "read a; echo 'FAIL one'; read b; echo 'FAIL two'; sleep 300", stdinMode: "pipe", startedBy: "agent", owner: "a" });
    registry.watches.add(job.id, { pattern: "FAIL", action: "notify", setBy: "agent" });
    registry.watches.add(job.id, { pattern: "two", action: "wake", setBy: "agent" });
    registry.write(job.id, "\n", { by: "agent" });
    await waitFor(() => registry.watches.list(job.id)[0]!.fired === 1, "the notify trigger to fire");
    expect(noticeTexts(registry.drainNotices("b"))).toEqual([]);
    expect(noticeTexts(registry.drainNotices("a")).join("\n")).toContain("FAIL one");
    // Its client leaves it running: a wake nobody can act on is kept as a notice.
    registry.release("a");
    registry.write(job.id, "\n", { by: "agent" });
    await waitFor(() => registry.watches.list(job.id)[1]!.fired === 1, "the wake trigger to fire");
    registry.adoptUnowned("c");
    const told = noticeTexts(registry.drainNotices("c")).join("\n");
    expect(told).toContain("FAIL two");
    expect(told).toMatch(/trigger 2 \/two\//);
  });

  it("continues ids from a floor, and calls line observers for every completed line", async () => {
    const registry = makeRegistry();
    registry.reserveIds(7);
    registry.reserveIds(3);
    const lines: string[] = [];
    const off = registry.observeLines((job, line, n) => lines.push(`${job.id}:${n}:${line}`));
    const job = registry.start({ command: "printf 'one\\ntwo\\n'", stdinMode: "pipe", startedBy: "agent" });
    expect(job.id).toBe("7");
    await job.exited;
    expect(lines).toEqual(["7:1:one", "7:2:two"]);
    off();
  });
});

describe("JobRegistry and the child marker", () => {
  it("marks every job, tracks its group while it lives, and forgets groups (jobs' and adopted ones) once gone", async () => {
    const calls: string[] = [];
    const marker = {
      env: { PITWALL_RUN: "test-token" },
      trackGroup: (pgid: number) => calls.push(`+${pgid}`),
      untrackGroup: (pgid: number) => calls.push(`-${pgid}`),
    };
    // Adopted groups are checked for being gone every 5 s by default; a tenth of a second here.
    const registry = new JobRegistry({ cwd: tempDir(), env: process.env, marker, adoptedCheckMs: 100 });
    registries.push(registry);
    const job = registry.start({ command: 'echo "marker=$PITWALL_RUN"', startedBy: "agent" });
    await job.exited;
    expect(job.log.keptText()).toContain("marker=test-token");
    await waitFor(() => calls.includes(`-${job.pid}`), "the job's group to be forgotten");
    expect(calls.indexOf(`+${job.pid}`)).toBeLessThan(calls.indexOf(`-${job.pid}`));

    const left = spawn("/bin/sh", ["-c", "sleep 0.3"], { detached: true, stdio: "ignore" });
    registry.adoptGroup(left.pid!);
    expect(calls).toContain(`+${left.pid}`);
    await waitFor(() => calls.includes(`-${left.pid}`), "the adopted group to be forgotten once it ended", 15_000);
  }, 30_000);
});
