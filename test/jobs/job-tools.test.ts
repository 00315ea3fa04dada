// The six job tools as the model calls them. The tools themselves run in the registry's process
// either way, so every case runs through a job host (over its socket), as the dashboard, print and
// JSON modes use them: that covers the tools and the wire. The cases where the in-process
// LocalJobService takes another path run on both: a call's abort and steer signals and its live
// output (passed directly, or sent over the socket), the agent's notices (one client's notices in a
// host shared by several), and the person's own jobs (started and restarted by the service itself).
// The model must not be able to tell the difference.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { JobServiceEvent } from "../../tools/jobs/events.js";
import type { CompletedJobDetails, RunningJobDetails } from "../../tools/jobs/model-tools/job-result.js";
import { JOB_TOOL_NAMES } from "../../tools/jobs/model-tools/job-tools.js";
import { serviceTools } from "../../tools/jobs/service.js";
import type { AgentTool, ToolResult } from "../../tools/tool.js";
import { callContext, neverAborted, noticeTexts } from "./helpers.js";
import { makeJobs, type TestJobs, type Where } from "./job-services.js";
import { waitFor } from "../helpers/conditions.js";
import type { JobSettings } from "../../tools/jobs/settings.js";

const made: TestJobs[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((m) => m.close()));
});

const SERVER = `echo "booting"; sleep 0.3; echo "Server listening on http://localhost:4321"; i=0; while true; do i=$((i+1)); echo "request $i"; sleep 0.2; done`;

/** A call that is to come back while its job runs need not wait the default minimum of a second. */
const QUICK_YIELD: Partial<JobSettings> = { minYieldMs: 50 };

/** Waits in the job's folder until the test creates the file `go` there. */
const UNTIL_GO = "while [ ! -e go ]; do sleep 0.02; done";

async function setupIn(where: Where, settings: Partial<JobSettings> = {}) {
  const m = await makeJobs(where, settings);
  made.push(m);
  const { jobs } = m;
  const tools = new Map(serviceTools(jobs).filter((t) => t.name !== "bash").map((t) => [t.name, t]));
  const call = (name: string, params: Record<string, unknown>, options: { signal?: AbortSignal; yieldSignal?: AbortSignal; onUpdate?: (chunk: string) => void } = {}) => {
    const tool = tools.get(name) as AgentTool;
    return tool.execute(
      `call-${Math.random().toString(36).slice(2, 8)}`,
      params as never,
      options.signal ?? neverAborted(),
      (u) => options.onUpdate?.(u.chunk),
      callContext(options.yieldSignal),
    ) as Promise<ToolResult<unknown>>;
  };
  const running = (id: string): boolean => jobs.get(id)?.status === "running";
  const log = async (id: string): Promise<string> => (jobs.get(id) ? (await jobs.text(id, "log")).join("\n") : "");
  return { jobs, tools, call, running, log, cwd: m.cwd };
}

describe("the job tools (through a job host)", () => {
  const setup = (settings: Partial<JobSettings> = {}) => setupIn("host", settings);

  it("are the seven named tools with descriptions that state when to use them and the caps", async () => {
    const { tools } = await setup();
    expect([...tools.keys()]).toEqual([...JOB_TOOL_NAMES]);
    const bashStream = tools.get("bash_stream")!;
    expect(bashStream.description).toMatch(/dev servers/);
    expect(bashStream.description).toMatch(/more than a minute/);
    expect(bashStream.description).toMatch(/30000 characters/);
    // The window a call may ask for: a second at least (unless set otherwise), two minutes at most.
    expect(bashStream.description).toMatch(/default 60 s, 1–120 s/);
    expect(tools.get("write_stdin")!.description).toMatch(/256 KiB/);
  });

  it("returns a finished command's status, exit code and output", async () => {
    const { call, jobs } = await setup();
    const result = await call("bash_stream", { command: "echo hello; echo oops >&2; exit 2", stdinMode: "pipe" });
    const details = result.details as CompletedJobDetails;
    expect(details).toMatchObject({ status: "failed", jobId: "1", exitCode: 2, stdout: "hello", stderr: "oops" });
    expect(details.aggregated).toBe("hello\noops");
    expect(details.durationMs).toBeGreaterThanOrEqual(0);
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Job 1 \(pid \d+\) exited with code 2 after/);
    expect(result.content).toContain("stdout:\nhello\nstderr:\noops");
    // The tool delivered the end, so no notice follows.
    expect(noticeTexts(await jobs.drainNotices())).toEqual([]);
  });

  it("yields when a server prints its ready line, then poll_process sees the new lines", async () => {
    const { call, jobs } = await setup();
    const events: JobServiceEvent[] = [];
    jobs.subscribe((e) => events.push(e));
    // With a 60 s window, only the ready line can end the wait within the test's time.
    const result = await call("bash_stream", { command: SERVER, readyPattern: "listening on", yieldMs: 60_000 });
    const details = result.details as RunningJobDetails;
    expect(details).toMatchObject({ status: "running", jobId: "1" });
    expect(details.pid).toBeGreaterThan(0);
    expect(details.tail).toContain("Server listening on http://localhost:4321");
    expect(result.content).toContain("The ready pattern matched");
    expect(result.content).toContain('Use poll_process with jobId "1"');
    expect(events.some((e) => e.type === "job_yielded" && e.jobId === "1")).toBe(true);

    const poll = await call("poll_process", { jobId: "1", maxDrainMs: 10_000 });
    expect(poll.content).toMatch(/New output \(lines? \d+/);
    expect(poll.content).toMatch(/request \d+/);
    expect(poll.content).not.toMatch(/^booting$/m);
    expect((poll.details as RunningJobDetails).status).toBe("running");
    const lastSeen = Number([...poll.content.matchAll(/request (\d+)/g)].at(-1)![1]);
    const again = await call("poll_process", { jobId: "1", maxDrainMs: 10_000 });
    const next = [...again.content.matchAll(/request (\d+)/g)].map((m) => Number(m[1]));
    expect(next.length).toBeGreaterThan(0);
    expect(Math.min(...next)).toBe(lastSeen + 1);
  });

  it("shows \\r progress bars to the model as their final lines only", async () => {
    const { call } = await setup();
    const result = await call("bash_stream", {
      command: `for p in 10 40 70 100; do printf '\\rDownloading [%-10s] %3d%%' "$(printf '#%.0s' $(seq 1 $((p/10))))" $p; sleep 0.05; done; printf '\\n'; printf '\\033[32mdone\\033[0m\\n'`,
    });
    const details = result.details as CompletedJobDetails;
    expect(details.aggregated).toBe("Downloading [##########] 100%\ndone");
    expect(result.content).not.toContain("\r");
    expect(result.content).not.toContain("\x1b");
    expect(result.content).not.toContain(" 10%");
  });

  it("types into cat through write_stdin and ends it with eof", async () => {
    const { call } = await setup(QUICK_YIELD);
    const start = await call("bash_stream", { command: "cat", yieldMs: 50 });
    expect((start.details as RunningJobDetails).status).toBe("running");
    const typed = await call("write_stdin", { jobId: "1", data: "ping\n" });
    expect(typed.content).toMatch(/^Sent 5 bytes to job 1\./);
    expect(typed.content).toContain("ping");
    const ended = await call("write_stdin", { jobId: "1", data: "", eof: true });
    const final = (ended.details as { status: string }).status === "running" ? await call("poll_process", { jobId: "1", maxDrainMs: 10_000 }) : ended;
    expect(final.details).toMatchObject({ status: "completed", exitCode: 0 });
  });

  it("feeds a shell read loop over pipes and closes its input with eof", async () => {
    const { call } = await setup(QUICK_YIELD);
    await call("bash_stream", {
      command: 'while IFS= read -r line; do echo "upper: ${line^^}"; done; echo "input closed"',
      stdinMode: "pipe",
      yieldMs: 50,
    });
    const result = await call("write_stdin", { jobId: "1", data: "alpha\nbeta\n", eof: true });
    let final = result;
    if ((final.details as { status: string }).status === "running") final = await call("poll_process", { jobId: "1", maxDrainMs: 10_000 });
    expect(final.details).toMatchObject({ status: "completed", exitCode: 0 });
    expect((final.details as CompletedJobDetails).stdout).toBe("upper: ALPHA\nupper: BETA\ninput closed");
  });

  it("reports write_stdin errors for an unknown job and a finished one", async () => {
    const { call } = await setup();
    await expect(call("write_stdin", { jobId: "9", data: "x" })).rejects.toThrow(/No job with id "9"/);
    await call("bash_stream", { command: "true" });
    await expect(call("write_stdin", { jobId: "1", data: "x" })).rejects.toThrow(/exited with code 0; it takes no more input/);
  });

  it("kill_process escalates on a job that ignores TERM and reports the final status", async () => {
    const { call } = await setup({ killGraceMs: 300 });
    await call("bash_stream", { command: "trap '' TERM; echo armed; while true; do sleep 0.1; done", readyPattern: "armed", yieldMs: 10_000 });
    const started = Date.now();
    const result = await call("kill_process", { jobId: "1" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(result.details).toMatchObject({ status: "failed", exitCode: null, signal: "SIGKILL" });
    expect(result.content).toMatch(/killed by SIGKILL/);
    expect(result.content).toContain("armed");
  });

  it("kill_process with a signal sends only that signal", async () => {
    // The wait ends as soon as the job does; a long grace only keeps a loaded machine from failing it.
    const { call } = await setup({ killGraceMs: 30_000 });
    await call("bash_stream", {
      command: "trap 'echo got INT; exit 7' INT; echo waiting; while true; do sleep 0.1; done",
      readyPattern: "waiting",
      stdinMode: "pipe",
    });
    const result = await call("kill_process", { jobId: "1", signal: "SIGINT" });
    expect(result.details).toMatchObject({ exitCode: 7 });
    expect(result.content).toContain("got INT");
  });

  it("poll_process with killIf always stops the job after reading", async () => {
    const { call, running } = await setup();
    await call("bash_stream", { command: SERVER, readyPattern: "listening" });
    const result = await call("poll_process", { jobId: "1", killIf: "always" });
    expect(result.content).toContain('Stopped as asked (killIf "always")');
    expect(result.details).toMatchObject({ signal: "SIGTERM" });
    await waitFor(() => !running("1"), "the job to be stopped");
  });

  it("names an invalid readyPattern and starts nothing", async () => {
    const { call, jobs } = await setup();
    const result = await call("bash_stream", { command: "echo hi", readyPattern: "([unclosed" });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('readyPattern: The pattern "([unclosed" is not a valid regular expression');
    expect(jobs.list()).toEqual([]);
  });

  it("reports the limit on simultaneous jobs as a clear error", async () => {
    const { call } = await setup({ maxJobs: 1, ...QUICK_YIELD });
    await call("bash_stream", { command: "sleep 30", yieldMs: 50 });
    await expect(call("bash_stream", { command: "sleep 30", yieldMs: 50 })).rejects.toThrow(/limit is 1/);
  });

  it("caps output at the settings' maxOutputChars: a digest by default, head and tail with digest false", async () => {
    const { call } = await setup({ maxOutputChars: 2000 });
    const digest = await call("bash_stream", { command: "seq 1 50000; echo 'Error: out of cheese'; seq 1 10", stdinMode: "pipe" });
    expect(digest.content).toMatch(/\n\([\d,]+ characters, more than the 2000-character cap, so as a digest\. Lines 1–40011 had already left memory\.\)\nDigest of lines 40012–50011/);
    expect(digest.content).toContain("✗ line 50001: Error: out of cheese");
    expect(digest.content).toMatch(/40012 \| 40012\n +\| … 9,987 similar lines \(40013–49999\)\n50000 \| 50000/);
    expect(digest.content.length).toBeLessThan(2_000);
    const result = await call("bash_stream", { command: "seq 1 50000", stdinMode: "pipe", digest: false });
    const details = result.details as CompletedJobDetails;
    expect(details.aggregated.length).toBeLessThan(2_200);
    expect(details.aggregated.startsWith("1\n2\n3\n")).toBe(true);
    expect(details.aggregated.endsWith("49999\n50000")).toBe(true);
    expect(details.truncated).toBe(true);
    expect(result.content).toMatch(/characters, \d+ lines omitted/);
    expect(result.content.length).toBeLessThan(2_800);
    expect(result.content).toContain("get_process_log");
  });

  it("get_process_log pages by lines, and says which lines left memory", async () => {
    const { call } = await setup();
    await call("bash_stream", { command: "seq 1 12000", stdinMode: "pipe" });
    const last = await call("get_process_log", { jobId: "1", limit: 3 });
    expect(last.content).toContain("Lines 11998–12000 of 12000:\n11998\n11999\n12000");
    const page = await call("get_process_log", { jobId: "1", offset: 5000, limit: 4 });
    expect(page.content).toContain("Lines 5000–5003 of 12000:\n5000\n5001\n5002\n5003");
    expect(page.content).toContain("More: offset 5004");
    const old = await call("get_process_log", { jobId: "1", offset: 1, limit: 2 });
    expect(old.content).toContain("Lines 1–2000 are no longer in memory");
    expect(old.content).toContain("Lines 2001–2002 of 12000:\n2001\n2002");
    const past = await call("get_process_log", { jobId: "1", offset: 20000 });
    expect(past.isError).toBe(true);
    expect(past.content).toContain("past the end");
  });

  it("clamps yieldMs to the minimum wait (a second unless set otherwise)", async () => {
    const { call } = await setup({ minYieldMs: 300 });
    const started = Date.now();
    const result = await call("bash_stream", { command: "sleep 30", yieldMs: 5 });
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(10_000);
    expect(result.details).toMatchObject({ status: "running" });
  });
});

describe.each<Where>(["host", "local"])("the job tools where the two services differ (%s)", (where) => {
  const setup = (settings: Partial<JobSettings> = {}) => setupIn(where, settings);

  it("tells the agent about a job that exits while it is idle, with the next request", async () => {
    const { call, jobs, running, cwd } = await setup();
    const result = await call("bash_stream", {
      command: `echo 'compiling'; ${UNTIL_GO}; echo 'Error: Cannot find module ./server' >&2; exit 1`,
      readyPattern: "compiling",
    });
    expect((result.details as RunningJobDetails).status).toBe("running");
    expect(noticeTexts(await jobs.drainNotices())).toEqual([]);
    writeFileSync(join(cwd, "go"), "");
    await waitFor(() => !running("1"), "the job to exit", 15_000);
    const notices = noticeTexts(await jobs.drainNotices());
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^Job 1 \(echo 'compiling'.*\) exited with code 1 after [\d.]+m?s\. Last lines:\ncompiling\nError: Cannot find module \.\/server$/s);
    expect(noticeTexts(await jobs.drainNotices())).toEqual([]);
    // Polling afterwards still gives the final result.
    const poll = await call("poll_process", { jobId: "1" });
    expect(poll.details).toMatchObject({ status: "failed", exitCode: 1 });
    expect(poll.isError).toBe(true);
  });

  it("does not notify about an exit that poll_process already reported", async () => {
    const { call, jobs, cwd } = await setup(QUICK_YIELD);
    const started = await call("bash_stream", { command: `${UNTIL_GO}; echo finished`, yieldMs: 50 });
    expect((started.details as RunningJobDetails).status).toBe("running");
    writeFileSync(join(cwd, "go"), "");
    const poll = await call("poll_process", { jobId: "1", maxDrainMs: 15_000 });
    // The first new output may arrive before the exit; poll until the end is reported.
    let final = poll;
    for (let i = 0; i < 20 && (final.details as { status: string }).status === "running"; i++) {
      final = await call("poll_process", { jobId: "1", maxDrainMs: 5_000 });
    }
    expect(final.details).toMatchObject({ status: "completed", exitCode: 0 });
    expect(noticeTexts(await jobs.drainNotices())).toEqual([]);
  });

  it("an aborted bash_stream leaves its job running and listed", async () => {
    const { call, running, log } = await setup();
    const abort = new AbortController();
    const pending = call("bash_stream", { command: SERVER, yieldMs: 60_000 }, { signal: abort.signal });
    await waitFor(async () => (await log("1")).includes("request"), "the server to run", 15_000);
    abort.abort();
    // The window is 60 s: a call that did not return on the abort would outlast the test.
    const result = await pending;
    expect(result.details).toMatchObject({ status: "running", jobId: "1" });
    expect(result.content).toContain("aborted");
    expect(running("1")).toBe(true);
    const list = await call("list_processes", {});
    expect(list.content).toMatch(/job 1: running/);
  });

  it("a steering message ends the wait early", async () => {
    const { call, running } = await setup();
    const steering = new AbortController();
    const pending = call("bash_stream", { command: "sleep 30", yieldMs: 60_000 }, { yieldSignal: steering.signal });
    await waitFor(() => running("1"), "the job to start");
    // As the Agent does for a steer the person queued: the reason says whose it was.
    steering.abort({ by: "person" });
    // The window is 60 s and the job sleeps 30 s: only the steer can end the wait within the test's time.
    const result = await pending;
    expect(result.details).toMatchObject({ status: "running" });
    expect(result.content).toContain("the person sent a message");
  });

  it("list_processes shows running and finished jobs with runtime, starter and last line", async () => {
    const { call, jobs, log } = await setup();
    await call("bash_stream", { command: "echo first; echo the end; exit 3" });
    await jobs.start("echo person here; sleep 30");
    await waitFor(async () => (await log("2")).includes("person here"), "output", 10_000);
    const result = await call("list_processes", {});
    expect(result.content).toMatch(/^1 running, 1 finished:/);
    expect(result.content).toMatch(/job 1: exited with code 3, [\d.]+m?s, started by you, pid \d+: echo first; echo the end; exit 3\n {4}last: the end/);
    expect(result.content).toMatch(/job 2: running, [\d.]+m?s, started by the person, pid \d+: echo person here; sleep 30\n {4}last: person here/);
    // The person restarting the agent's job: still the agent's, and who restarted it is said.
    await jobs.restart("1");
    const after = await call("list_processes", {});
    expect(after.content).toMatch(/job 1: running, [\d.]+m?s, started by you, restarted 1× \(last by the person\), pid \d+/);
  });

  it("streams plain completed lines to onUpdate while waiting", async () => {
    const { call } = await setup();
    const updates: string[] = [];
    await call("bash_stream", { command: "printf '\\033[1mone\\033[0m\\ntwo\\n'" }, { onUpdate: (c) => updates.push(c) });
    expect(updates.join("")).toBe("one\ntwo\n");
  });
});
