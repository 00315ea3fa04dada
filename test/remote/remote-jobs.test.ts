// Jobs on another machine, over ssh, end to end: a private sshd on loopback stands for the remote
// (test/helpers/test-sshd.ts), a folder of the test for the remote's project. pitwall installs itself
// there, starts the remote's job host through the bridge, and its jobs outlive the ssh client.
import { join } from "node:path";
import { existsSync, readdirSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as Jobs from "../../tools/jobs/index.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { liveProcesses } from "../helpers/processes.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { tempDir } from "../helpers/temp-dir.js";

// From dist: the bundle copied to the remote is dist/bundle's.
let jobs: typeof Jobs;
let sshd: TestSshd;
const services: Jobs.JobService[] = [];

beforeAll(async () => {
  assertBuilt();
  jobs = (await import(join(REPO_ROOT, "dist", "tools", "jobs", "index.js"))) as typeof Jobs;
  sshd = await startTestSshd();
});
afterEach(async () => {
  for (const service of services.splice(0)) await service.shutdown().catch(() => undefined);
});
afterAll(async () => {
  await sshd?.stop();
});

function inputs(): Jobs.JobServiceInputs {
  return { cwd: tempDir("local-cwd"), env: { PATH: process.env["PATH"] ?? "" }, settings: {}, marker: undefined, secrets: ["sk-test-never-sent"] };
}

function remoteService(options: { sshCommand?: string; onStatus?: (text: string) => void; kind?: Jobs.HostClientKind } = {}): Jobs.RemoteJobService {
  const service = new jobs.RemoteJobService(inputs(), {
    home: tempDir("local-home"),
    kind: options.kind ?? "dashboard",
    keepJobsMs: 60_000,
    sshCommand: options.sshCommand ?? sshd.sshCommand,
    target: jobs.parseRemote(`box:${sshd.remoteProject}`),
    reconnectMs: 50,
    ...(options.onStatus ? { onStatus: options.onStatus } : {}),
  });
  services.push(service);
  return service;
}

/** The ssh clients this test's pitwall runs to the bridge. */
function bridgeClients(): number[] {
  return liveProcesses()
    .filter((row) => row.args.startsWith("ssh ") && row.args.includes(sshd.sshConfig) && row.args.includes("bridge"))
    .map((row) => row.pid);
}

function call(service: Jobs.JobService, tool: Jobs.ServiceToolName, params: unknown) {
  return service.runTool({ tool, toolCallId: `t-${Math.random()}`, params, signal: new AbortController().signal, onUpdate: () => undefined, context: { yieldSignal: new AbortController().signal } });
}

describe("a remote job host over ssh", () => {
  it("installs pitwall on the remote once, saying so, and runs bash in the remote folder", async () => {
    const said: string[] = [];
    const service = remoteService({ onStatus: (text) => said.push(text) });
    expect(service.where).toBe("remote");
    const result = await call(service, "bash", { command: "pwd; echo $HOME" });
    expect(result.content).toContain(sshd.remoteProject);
    expect(result.content).toContain(sshd.remoteHome);
    expect(said.join("\n")).toMatch(/Installing pitwall on box \(~\/\.pitwall\/remote\/[^/]+\/\)/);
    const installed = readdirSync(join(sshd.remoteHome, ".pitwall", "remote"));
    expect(installed.filter((name) => !name.startsWith("."))).toHaveLength(1);
    expect(existsSync(join(sshd.remoteHome, ".pitwall", "remote", installed[0] ?? "", "node_modules", "node-pty", "package.json"))).toBe(true);
    // A second session finds it installed and says nothing about it.
    const again: string[] = [];
    await call(remoteService({ onStatus: (text) => again.push(text) }), "bash", { command: "true" });
    expect(again).toEqual([]);
  });

  it("keeps a job running when the ssh client is killed, and a new session re-attaches to it with its output", async () => {
    const first = remoteService();
    const started = await call(first, "bash_stream", { command: "for i in 1 2 3; do echo remote-line-$i; done; echo waiting; sleep 60", yieldMs: 1000, readyPattern: "waiting" });
    const id = /job (\d+)/.exec(started.content)?.[1] ?? first.list()[0]?.id;
    expect(id).toBeDefined();
    const clients = bridgeClients();
    expect(clients.length).toBeGreaterThan(0);
    for (const pid of clients) process.kill(pid, "SIGKILL");
    // The first session reconnects by itself.
    await waitFor(() => bridgeClients().some((pid) => !clients.includes(pid)), "the first session to reconnect");
    const second = remoteService();
    const outcome = await second.attach();
    expect(outcome.kind).toBe("attached");
    const job = second.list().find((info) => info.id === id);
    expect(job?.status).toBe("running");
    const log = await second.text(id ?? "", "log");
    expect(log).toEqual(expect.arrayContaining(["remote-line-1", "remote-line-2", "remote-line-3", "waiting"]));
  });
});
