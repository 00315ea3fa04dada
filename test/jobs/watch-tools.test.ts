// The model's side of watch triggers, on real jobs: bash_stream's `watch`, watch_process, and
// list_processes showing them. Bad patterns come back as errors that say what to do and start
// nothing; a catastrophic pattern runs in linear time while the job floods it; triggers survive a
// restart and go with the job.
import { afterEach, describe, expect, it } from "vitest";
import type { JobServiceEvent, JobTriggeredEvent } from "../../tools/jobs/events.js";
import { serviceTools } from "../../tools/jobs/service.js";
import type { JobListDetails } from "../../tools/jobs/model-tools/job-listing-tools.js";
import type { WatchDetails } from "../../tools/jobs/model-tools/watch-process-tool.js";
import type { AgentTool, ToolResult } from "../../tools/tool.js";
import { callContext, neverAborted, noticeTexts } from "./helpers.js";
import { makeJobs, type TestJobs, type Where } from "./job-services.js";
import { waitFor } from "../helpers/conditions.js";

const made: TestJobs[] = [];

afterEach(async () => {
  await Promise.all(made.splice(0).map((m) => m.close()));
});

describe.each<Where>(["local", "host"])("watch triggers from the job tools (%s)", (where) => {
  async function setup() {
    const m = await makeJobs(where);
    made.push(m);
    const { jobs, registry } = m;
    const events: JobServiceEvent[] = [];
    jobs.subscribe((e) => events.push(e));
    const tools = new Map(serviceTools(jobs).map((t) => [t.name, t as AgentTool]));
    const call = (name: string, params: Record<string, unknown>) =>
      tools.get(name)!.execute("call-1", params as never, neverAborted(), () => undefined, callContext()) as Promise<ToolResult<unknown>>;
    const firings = (): JobTriggeredEvent[] => events.filter((e): e is JobTriggeredEvent => e.type === "job_triggered");
    return { m, jobs, registry, events, call, firings };
  }

  it("bash_stream refuses a bad trigger before starting anything, and says what to use instead", async () => {
    const { registry, call } = await setup();
    const invalid = await call("bash_stream", { command: "echo hi", watch: [{ pattern: "FAIL" }, { pattern: "[unclosed" }] });
    expect(invalid.isError).toBe(true);
    expect(invalid.content).toMatch(/^watch: Trigger 2 of 2: The pattern "\[unclosed" is not a valid regular expression \(missing closing \]/);
    expect(invalid.content).toContain("Nothing was started; fix the trigger and call bash_stream again.");
    const backref = await call("bash_stream", { command: "echo hi", watch: [{ pattern: "(a)\\1" }] });
    expect(backref.content).toContain("uses a backreference, which is not supported");
    expect(backref.content).toContain("Spell the repeated text out instead");
    expect(registry.list()).toEqual([]);
  });

  it("bash_stream sets its triggers when its wait ends, on a job still running; not on one that ended", async () => {
    const { call, registry, jobs } = await setup();
    const done = await call("bash_stream", { command: "echo FAIL early", watch: [{ pattern: "FAIL" }] });
    expect(done.content).toContain("The job ended within the wait, so its watch triggers were not set.");
    const running = await call("bash_stream", { command: "echo ready; sleep 30", readyPattern: "ready", watch: [{ pattern: "FAIL", action: "notify", debounceMs: 2_000 }] });
    expect(running.content).toContain('Watching job 2 from here on: #1 /FAIL/ → notify (set by you, at most every 2s).');
    expect(registry.watches.list("2")).toMatchObject([{ id: 1, pattern: "FAIL", action: "notify", debounceMs: 2_000, setBy: "agent" }]);
    // The client's view hears of them from the events (the jobs pane's ⚑, /watch's list).
    await waitFor(() => jobs.triggers("2").length === 1, "the client to know job 2's trigger");
  });

  it("a trigger's window is at least 1 s; minWatchDebounceMs (a test's quick triggers) lowers that floor", async () => {
    const { call, registry } = await setup();
    await call("bash_stream", { command: "echo up; sleep 30", readyPattern: "up", watch: [{ pattern: "FAIL", action: "notify", debounceMs: 200 }] });
    expect(registry.watches.list("1")).toMatchObject([{ debounceMs: 1_000 }]);
    const quick = await makeJobs(where, { minWatchDebounceMs: 100 });
    made.push(quick);
    const quickTools = new Map(serviceTools(quick.jobs).map((t) => [t.name, t as AgentTool]));
    await quickTools.get("bash_stream")!.execute("call-1", { command: "echo up; sleep 30", readyPattern: "up", watch: [{ pattern: "FAIL", action: "notify", debounceMs: 200 }] } as never, neverAborted(), () => undefined, callContext());
    expect(quick.registry.watches.list("1")).toMatchObject([{ debounceMs: 200 }]);
  });

  it("watch_process adds, lists and removes triggers; list_processes shows them; 32 at most", async () => {
    const { call } = await setup();
    await call("bash_stream", { command: "echo up; sleep 30", readyPattern: "up" });
    const added = await call("watch_process", { jobId: "1", add: [{ pattern: "error|panic" }, { pattern: "Tests: \\d+ failed", action: "steer" }] });
    expect(added.content).toContain("Added: #1, #2.");
    expect(added.content).toContain("#1 /error|panic/i → wake (set by you, at most every 10s)");
    expect(added.content).toContain("#2 /Tests: \\d+ failed/ → steer");
    const listed = await call("list_processes", {});
    expect(listed.content).toContain("    watching: #1 /error|panic/i → wake (set by you, at most every 10s); #2 /Tests: \\d+ failed/ → steer");
    expect((listed.details as JobListDetails).jobs[0]!.triggers).toHaveLength(2);
    const removed = await call("watch_process", { jobId: "1", remove: [1] });
    expect(removed.content).toContain("Removed: #1.");
    expect((removed.details as WatchDetails).triggers.map((t) => t.id)).toEqual([2]);
    const unknown = await call("watch_process", { jobId: "1", remove: [7] });
    expect(unknown).toMatchObject({ isError: true, content: "Job 1 has no trigger 7. Its triggers: 2. No trigger was added." });
    const many = await call("watch_process", { jobId: "1", add: Array.from({ length: 32 }, (_, i) => ({ pattern: `p${i}` })) });
    expect(many.isError).toBe(true);
    expect(many.content).toMatch(/at most 32 triggers \(it has 1, 32 more were asked for\)/);
    expect((await call("watch_process", { jobId: "1", remove: "all" })).content).toContain("No triggers.");
  });

  it("runs a catastrophic pattern in linear time while the job prints lines built to defeat it", async () => {
    const { call, firings } = await setup();
    // 16 KiB lines of a's with a '!' at the end make (a+)+$ backtrack for ever in a backtracking engine.
    const flood = `echo ready; read go; for i in $(seq 20); do printf 'a%.0s' $(seq 16000); echo '!'; done; echo "FAIL after the flood"; sleep 30`;
    await call("bash_stream", { command: flood, readyPattern: "ready" });
    await call("watch_process", { jobId: "1", add: [{ pattern: "(a+)+$", action: "notify" }, { pattern: "^FAIL", action: "notify" }] });
    await call("write_stdin", { jobId: "1", data: "go\n" });
    const fired = await waitFor(() => firings().find((f) => f.trigger.pattern === "^FAIL"), "the FAIL trigger to fire", 20_000);
    expect(fired.lines.find((l) => l.match)!.text).toBe("FAIL after the flood");
    expect(firings().filter((f) => f.trigger.pattern === "(a+)+$")).toEqual([]);
  });

  it("keeps triggers across a restart, refuses a job that ended, and drops them with the job", async () => {
    const { call, registry, events, jobs } = await setup();
    await call("bash_stream", { command: "echo up; sleep 30", readyPattern: "up" });
    await call("watch_process", { jobId: "1", add: [{ pattern: "FAIL" }] });
    await registry.restart("1", "person");
    expect(registry.watches.list("1")).toHaveLength(1);
    await registry.kill("1");
    const ended = await call("watch_process", { jobId: "1", add: [{ pattern: "x" }] });
    expect(ended).toMatchObject({ isError: true });
    expect(ended.content).toContain("Job 1 has ended: it prints nothing more, so there is nothing to watch.");
    registry.remove("1");
    await waitFor(() => events.some((e) => e.type === "job_removed"), "the job's removal to reach the client");
    expect(events.filter((e) => e.type === "job_triggers_changed").at(-1)).toEqual({ type: "job_triggers_changed", jobId: "1", triggers: [] });
    expect(registry.watches.list("1")).toEqual([]);
    expect(jobs.triggers("1")).toEqual([]);
  });

  it("the person's triggers go through the job service: set, refused with the reason, listed, removed, and the agent is told", async () => {
    const { jobs, call } = await setup();
    await call("bash_stream", { command: "echo up; sleep 30", readyPattern: "up" });
    const trigger = await jobs.addTrigger("1", { pattern: "Error", action: "wake" });
    expect(trigger).toMatchObject({ id: 1, pattern: "Error", action: "wake", setBy: "person" });
    await expect(jobs.addTrigger("1", { pattern: "(a)\\1", action: "notify" })).rejects.toThrow(/backreference/);
    await waitFor(() => jobs.triggers("1").length === 1, "the client to list the person's trigger");
    await expect(jobs.removeTriggers("1", 9)).rejects.toThrow("Job 1 has no trigger 9. Its triggers: 1.");
    expect(await jobs.removeTriggers("1")).toMatchObject([{ id: 1 }]);
    await waitFor(() => jobs.triggers("1").length === 0, "the client to hear the trigger went");
    const notices = noticeTexts(await jobs.drainNotices()).join("\n");
    expect(notices).toContain("The person set watch trigger 1 on job 1: /Error/ → wake");
    expect(notices).toContain("The person removed watch trigger 1 (/Error/) from job 1.");
  });

  it.runIf(where === "host")("a firing reaches only the client that owns the job; another client sees the triggers but not the firing", async () => {
    const { m, call, firings } = await setup();
    const other = m.another!("dashboard");
    const otherEvents: JobServiceEvent[] = [];
    other.subscribe((e) => otherEvents.push(e));
    await call("bash_stream", { command: "echo up; read go; echo 'FAIL here'; sleep 30", readyPattern: "up", watch: [{ pattern: "FAIL", action: "wake" }] });
    await other.attach();
    expect(other.triggers("1")).toMatchObject([{ id: 1, pattern: "FAIL" }]);
    await call("write_stdin", { jobId: "1", data: "go\n" });
    await waitFor(() => firings().length === 1, "the owner to get the firing");
    // A call's answer comes after everything the host sent before it: a firing would be here by now.
    expect(await other.text("1", "tail", 1)).toEqual(["FAIL here"]);
    expect(otherEvents.filter((e) => e.type === "job_triggered")).toEqual([]);
  });
});
