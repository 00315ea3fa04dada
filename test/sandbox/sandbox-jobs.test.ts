// Jobs in the sandbox: what the fence stops is told once per job and path (the model, the job's
// info, one event); the person may restart a job under another profile; stopping, process groups
// and the exit code work as they do unfenced; and where no sandbox can be made, commands run
// unfenced and say so, or, when the person requires the sandbox, are refused.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { JobInfo } from "../../tools/jobs/index.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { liveGroupMembers } from "../helpers/processes.js";
import { call, fencedAgent, requireBubblewrap, type FencedAgent } from "./sandbox-fixture.js";

const llm = useFakeLlm();
const agents: FencedAgent[] = [];

beforeAll(async () => {
  await requireBubblewrap();
});

afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.coding.dispose();
});

function agentWith(...args: Parameters<typeof fencedAgent> extends [unknown, ...infer Rest] ? Rest : never): FencedAgent {
  const agent = fencedAgent(llm, ...args);
  agents.push(agent);
  return agent;
}

const infoOf = (agent: FencedAgent, id: string): JobInfo => agent.coding.jobs.get(id)!;
const fencedEvents = (agent: FencedAgent) => agent.events.filter((event) => event.type === "job_fenced");

describe("a job the fence stops", () => {
  it("is told once per path: one event, a count on the job, one note to the model", async () => {
    const agent = agentWith();
    const command = `for i in 1 2 3; do echo x > ${agent.home}/a.txt; done; echo y > ${agent.home}/b.txt; echo done`;
    const started = await call(llm, agent, "bash_stream", { command, stdinMode: "pipe", yieldMs: 10_000 });
    expect(started.content).toContain("done");
    await waitFor(() => fencedEvents(agent).length === 2 || undefined, "two job_fenced events");
    expect(fencedEvents(agent).map((event) => event.type === "job_fenced" && event.hit.target)).toEqual([join(agent.home, "a.txt"), join(agent.home, "b.txt")]);
    const id = started.details!.jobId as string;
    expect(infoOf(agent, id)).toMatchObject({ sandbox: "workspace", fenceHits: 2 });
    // The result that finished the job told the model, once.
    expect(started.content).toContain(`stopped writing ${agent.home}/a.txt (outside the writable roots); writing ${agent.home}/b.txt`);
    const poll = await call(llm, agent, "poll_process", { jobId: id });
    expect(poll.content).not.toContain("[sandbox]");
  });

  it("can be restarted by the person under another profile, which the model could not do", async () => {
    const agent = agentWith();
    const command = `echo written > ${agent.home}/by-job.txt && echo ok`;
    const first = await call(llm, agent, "bash_stream", { command, stdinMode: "pipe", yieldMs: 10_000 });
    expect(first.isError).toBe(true);
    const id = first.details!.jobId as string;
    expect(existsSync(join(agent.home, "by-job.txt"))).toBe(false);
    const info = await agent.coding.jobs.restart(id, undefined, "off");
    expect(info.sandbox).toBe("off");
    await waitFor(() => infoOf(agent, id).status !== "running" || undefined, "the restarted job to end");
    expect(infoOf(agent, id)).toMatchObject({ status: "exited", exitCode: 0, restarts: 1, sandbox: "off" });
    expect(readFileSync(join(agent.home, "by-job.txt"), "utf8")).toBe("written\n");
    // A plain restart keeps the profile the person chose.
    await agent.coding.jobs.restart(id);
    expect(infoOf(agent, id).sandbox).toBe("off");
  });
});

describe("stopping a sandboxed job", () => {
  it("works as unfenced: its pid leads its group, TERM reaches the command, whose cleanup runs and whose exit counts", async () => {
    const agent = agentWith();
    const command = "trap 'echo cleaning up; exit 0' TERM; echo serving; while true; do sleep 0.1; done";
    const started = await call(llm, agent, "bash_stream", { command, readyPattern: "serving", yieldMs: 10_000 });
    const id = started.details!.jobId as string;
    const pid = infoOf(agent, id).pid;
    const group = liveGroupMembers(pid);
    expect(group.some((row) => row.pid === pid)).toBe(true);
    expect(group.some((row) => row.pid !== pid && /^\S*bwrap /.test(row.args))).toBe(true);
    expect(group.some((row) => row.args.includes("while true"))).toBe(true);
    const stopped = await call(llm, agent, "kill_process", { jobId: id });
    expect(stopped.isError).toBe(false);
    await waitFor(() => liveGroupMembers(pid).length === 0 || undefined, "the job's group to be gone");
    expect((await agent.coding.jobs.text(id, "log")).join("\n")).toContain("cleaning up");
    expect(infoOf(agent, id)).toMatchObject({ status: "exited", exitCode: 0 });
  });

  it("takes input through its terminal, and Ctrl+C ends it as it would unfenced", async () => {
    const agent = agentWith();
    const started = await call(llm, agent, "bash_stream", { command: "read -r line; echo \"got $line\"; echo waiting; sleep 600", readyPattern: "never", yieldMs: 1_000 });
    const id = started.details!.jobId as string;
    await call(llm, agent, "write_stdin", { jobId: id, data: "hello\n" });
    await waitFor(async () => (await agent.coding.jobs.text(id, "log")).includes("waiting") || undefined, "the job to answer its input");
    expect(await agent.coding.jobs.text(id, "log")).toContain("got hello");
    await call(llm, agent, "write_stdin", { jobId: id, data: "\u0003" });
    await waitFor(() => infoOf(agent, id).status !== "running" || undefined, "Ctrl+C to end the job");
    expect(infoOf(agent, id)).toMatchObject({ status: "killed", signal: "SIGINT" });
  });

  it("reports a command that TERM ended as killed by it, as unfenced", async () => {
    const agent = agentWith();
    const started = await call(llm, agent, "bash_stream", { command: "echo serving; sleep 600", readyPattern: "serving", yieldMs: 10_000 });
    const id = started.details!.jobId as string;
    await call(llm, agent, "kill_process", { jobId: id });
    expect(infoOf(agent, id)).toMatchObject({ status: "killed", signal: "SIGTERM" });
    expect(liveGroupMembers(infoOf(agent, id).pid)).toEqual([]);
  });

  it("reports a command's own exit code", async () => {
    const agent = agentWith();
    const result = await call(llm, agent, "bash", { command: "exit 7" });
    expect(result.content).toContain("Command exited with code 7");
    expect(result.details).toMatchObject({ exitCode: 7, sandbox: "workspace" });
  });
});

describe("where no sandbox can be made", () => {
  it("commands run unfenced, and their results and jobs say so", async () => {
    const agent = agentWith("workspace", { bwrap: "/nonexistent/bwrap" });
    const bash = await call(llm, agent, "bash", { command: `echo unfenced > ${agent.home}/unfenced.txt && echo ok` });
    expect(bash).toMatchObject({ isError: false, content: "ok" });
    expect(bash.details).toMatchObject({ sandbox: "workspace", unfenced: true });
    expect(existsSync(join(agent.home, "unfenced.txt"))).toBe(true);
    const job = await call(llm, agent, "bash_stream", { command: "echo job", yieldMs: 10_000 });
    expect(infoOf(agent, job.details!.jobId as string)).toMatchObject({ sandbox: "workspace", unfenced: true });
  });

  it("write, edit and read still follow the profile: they run in pitwall's own process", async () => {
    const agent = agentWith("workspace", { bwrap: "/nonexistent/bwrap" });
    const write = await call(llm, agent, "write", { file_path: join(agent.home, "written.txt"), content: "outside\n" });
    expect(write.isError).toBe(true);
    expect(write.content).toContain("the sandbox (profile workspace) keeps it read-only (outside the writable roots)");
    expect(existsSync(join(agent.home, "written.txt"))).toBe(false);
    const read = await call(llm, agent, "read", { file_path: join(agent.home, ".ssh", "id_rsa") });
    expect(read.isError).toBe(true);
    expect(read.content).toContain("the sandbox (profile workspace) hides it");
    expect(await call(llm, agent, "write", { file_path: "inside.txt", content: "inside\n" })).toMatchObject({ isError: false });
    expect(readFileSync(join(agent.cwd, "inside.txt"), "utf8")).toBe("inside\n");
  });

  it("with the sandbox required, commands are refused with what to do", async () => {
    const agent = agentWith("workspace", { bwrap: "/nonexistent/bwrap", required: true });
    const bash = await call(llm, agent, "bash", { command: `echo refused > ${agent.home}/refused.txt` });
    expect(bash.isError).toBe(true);
    expect(bash.content).toContain("Not run: the sandbox is required (--sandbox required) and cannot be made here: the bubblewrap program /nonexistent/bwrap is not there");
    expect(bash.content).toContain("apt install bubblewrap");
    expect(existsSync(join(agent.home, "refused.txt"))).toBe(false);
    const job = await call(llm, agent, "bash_stream", { command: "echo never", yieldMs: 5_000 });
    expect(job.isError).toBe(true);
    expect(agent.events.some((event) => event.type === "job_started")).toBe(false);
  });
});

describe("the person's own jobs", () => {
  it("run off by default, and under the profile config.json gives them", async () => {
    const off = agentWith();
    const mine = await off.coding.jobs.start(`echo mine > ${off.home}/mine.txt`);
    expect(mine.sandbox).toBe("off");
    await waitFor(() => existsSync(join(off.home, "mine.txt")) || undefined, "the person's job to write in HOME");

    const fenced = agentWith("workspace", { personProfile: "strict" });
    const theirs = await fenced.coding.jobs.start(`echo theirs > ${fenced.home}/theirs.txt`);
    expect(theirs.sandbox).toBe("strict");
    await waitFor(() => infoOf(fenced, theirs.id).status !== "running" || undefined, "the job to end");
    expect(existsSync(join(fenced.home, "theirs.txt"))).toBe(false);
  });
});
