// The sandbox across the job host's socket: the client sends the person's policy with each command,
// the host fences the model's commands, the person's jobs and their restarts with it, and what the
// fence stopped comes back as a job event and on the job's info.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { HostJobService } from "../../tools/jobs/client/host-job-service.js";
import type { JobServiceEvent } from "../../tools/jobs/events.js";
import { hostPaths, prepareHostDir } from "../../tools/jobs/host/host-paths.js";
import { JobHostServer } from "../../tools/jobs/host/host-server.js";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import { pitwallVersion } from "../../tools/pitwall-version.js";
import { CommandSandbox, sandboxPolicy } from "../../tools/sandbox/index.js";
import { waitFor } from "../helpers/conditions.js";
import { tempDir } from "../helpers/temp-dir.js";
import { requireBubblewrap } from "../sandbox/sandbox-fixture.js";

const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  await requireBubblewrap();
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function hostWithSandbox() {
  const base = tempDir("host-sandbox");
  const cwd = join(base, "work");
  const home = join(base, "home");
  const hostTemp = join(base, "host-temp");
  for (const dir of [cwd, home, hostTemp]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, "target.txt"), "keep\n");
  const paths = hostPaths(home, cwd);
  prepareHostDir(paths);
  const registry = new JobRegistry({ cwd, env: process.env, settings: { killGraceMs: 500 }, sandbox: new CommandSandbox(() => hostTemp) });
  const server = new JobHostServer({ cwd, socketPath: paths.socket, registry, version: pitwallVersion(), keepJobsMs: 60_000, onIdle: () => undefined });
  await server.listen();
  const policy = sandboxPolicy({ profile: "workspace", home, pitwallHome: join(home, ".pitwall") });
  const jobs = new HostJobService({ cwd, env: { ...process.env, HOME: home }, settings: { killGraceMs: 500 }, marker: undefined, secrets: [], sandbox: { policy, personProfile: "off" } }, { home, kind: "json", keepJobsMs: 60_000 });
  const events: JobServiceEvent[] = [];
  jobs.subscribe((event) => events.push(event));
  closers.push(async () => {
    await jobs.shutdown();
    await server.close();
    await registry.shutdown();
  });
  return { jobs, events, cwd, home };
}

const neverAborted = new AbortController().signal;

describe("the sandbox in the job host", () => {
  it("fences the model's bash calls and jobs with the policy the client sends", async () => {
    const { jobs, events, home } = await hostWithSandbox();
    const context = { yieldSignal: new AbortController().signal };
    const bash = await jobs.runTool({ tool: "bash", toolCallId: "c1", params: { command: `echo no > ${home}/bash.txt` }, signal: neverAborted, onUpdate: () => undefined, context });
    expect(bash.isError).toBe(true);
    expect(bash.content).toContain(`[sandbox] The sandbox (profile workspace) stopped writing ${home}/bash.txt`);
    expect(bash.details).toMatchObject({ sandbox: "workspace", fence: [{ kind: "read-only", target: `${home}/bash.txt` }] });

    const stream = await jobs.runTool({
      tool: "bash_stream",
      toolCallId: "c2",
      params: { command: `echo no > ${home}/job.txt; echo finished`, yieldMs: 10_000, stdinMode: "pipe" },
      signal: neverAborted,
      onUpdate: () => undefined,
      context,
    });
    const id = (stream.details as { jobId: string }).jobId;
    await waitFor(() => events.find((event) => event.type === "job_fenced" && event.jobId === id), "the job_fenced event from the host");
    await waitFor(() => jobs.get(id)?.status === "exited" || undefined, "the job's end");
    expect(jobs.get(id)).toMatchObject({ sandbox: "workspace", fenceHits: 1 });
    expect(existsSync(join(home, "job.txt"))).toBe(false);
  });

  it("runs the person's jobs under their profile, and restarts one under another when they ask", async () => {
    const { jobs, home } = await hostWithSandbox();
    const info = await jobs.start(`echo mine > ${home}/mine.txt`);
    expect(info.sandbox).toBe("off");
    await waitFor(() => existsSync(join(home, "mine.txt")) || undefined, "the person's unfenced job to write in HOME");
    await waitFor(() => jobs.get(info.id)?.status === "exited" || undefined, "the job's end");
    const restarted = await jobs.restart(info.id, undefined, "workspace");
    expect(restarted).toMatchObject({ sandbox: "workspace", restarts: 1 });
    await waitFor(() => (jobs.get(info.id)?.status === "exited" && jobs.get(info.id)?.restarts === 1) || undefined, "the restarted job's end");
    expect(jobs.get(info.id)?.exitCode).not.toBe(0);
  });
});
