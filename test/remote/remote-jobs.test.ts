// Jobs on another machine, over ssh, end to end: a private sshd on loopback stands for the remote
// (test/helpers/test-sshd.ts), a folder of the test for the remote's project. pitwall installs itself
// there, starts the remote's job host through the bridge, and its jobs outlive the ssh client.
import { join } from "node:path";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
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

function call(service: Jobs.JobService, tool: Jobs.ServiceToolName, params: unknown, onUpdate: (chunk: string) => void = () => undefined) {
  return service.runTool({
    tool,
    toolCallId: `t-${Math.random()}`,
    params,
    signal: new AbortController().signal,
    onUpdate: (update) => onUpdate(update.chunk),
    context: { yieldSignal: new AbortController().signal },
  });
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

  it("reconnects after a drop mid-flood and resumes every job's output from the last character it saw", async () => {
    const said: string[] = [];
    const service = remoteService({ kind: "json", onStatus: (text) => said.push(text) });
    const output: string[] = [];
    let id: string | undefined;
    service.subscribe((event) => {
      if (event.type === "job_started" && event.job.command.includes("seq 1 400")) id = event.job.id;
      if (event.type === "job_output" && event.jobId === id) output.push(event.chunk);
    });
    await call(service, "bash_stream", { command: "for i in $(seq 1 400); do echo n-$i; sleep 0.005; done; echo finished", yieldMs: 1000 });
    await waitFor(() => output.join("").includes("n-40\r\n"), "the flood to be under way");
    for (const pid of bridgeClients()) process.kill(pid, "SIGKILL");
    await waitFor(() => said.some((line) => /dropped.*reconnecting…/.test(line)), "the drop to be reported");
    await waitFor(() => output.join("").includes("finished"), "the rest of the output after the reconnect", 30_000);
    expect(said.some((line) => line.startsWith("Reconnected to box"))).toBe(true);
    const numbers = output
      .join("")
      .split(/\r?\n/)
      .filter((line) => line.startsWith("n-"))
      .map((line) => Number(line.slice(2)));
    expect(numbers).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // A print or JSON client's jobs are held for it while its link is down, and are its own again.
    await waitFor(() => service.get(id ?? "")?.status === "exited", "the job's end to reach the client");
  });

  it("fails a bash call the drop interrupted with what happened, and the command goes on there as a job", async () => {
    const service = remoteService({ kind: "print" });
    let begun = false;
    // The command runs on until the test lets it finish (a flag file), however long the reconnect takes.
    const goOn = "drop-test-go-on";
    const running = call(service, "bash", { command: `echo begun; while [ ! -f ${goOn} ]; do sleep 0.05; done; rm ${goOn}; echo done-after-drop` }, (chunk) => (begun ||= chunk.includes("begun")));
    await waitFor(() => begun, "the command to be running there");
    for (const pid of bridgeClients()) process.kill(pid, "SIGKILL");
    await expect(running).rejects.toThrow(/The link to box dropped while bash ran\. The command goes on there as a background job/);
    const job = await waitFor(() => service.list().find((info) => info.command.includes("done-after-drop")), "the command to show as a job after the reconnect", 20_000);
    writeFileSync(join(sshd.remoteProject, goOn), "");
    await waitFor(async () => (await service.text(job.id, "log")).includes("done-after-drop"), "the command to finish there");
  });

  it("previews remote files for the files pane through the host: text, binary, a FIFO refused without blocking", async () => {
    const preview = (await import(join(REPO_ROOT, "dist", "panes", "files", "files-preview.js"))) as typeof import("../../panes/files/files-preview.js");
    const service = remoteService();
    writeFileSync(join(sshd.remoteProject, "shown.ts"), "const a = 1;\nconst b = 2;\n");
    writeFileSync(join(sshd.remoteProject, "blob.bin"), Buffer.from([0, 1, 2, 0]));
    execFileSync("mkfifo", [join(sshd.remoteProject, "fifo")]);
    const source = (path: string, maxBytes: number) => service.readFile(path, maxBytes);
    expect(await preview.readTextFile(join(sshd.remoteProject, "shown.ts"), 1024, source)).toEqual({ kind: "text", lines: ["const a = 1;", "const b = 2;"], size: 26, truncated: false });
    expect(await preview.readTextFile("blob.bin", 1024, source)).toEqual({ kind: "binary", size: 4 });
    expect(await preview.readTextFile("fifo", 1024, source)).toMatchObject({ kind: "error", message: expect.stringMatching(/not a regular file/) });
    expect(await preview.readTextFile("gone.txt", 1024, source)).toEqual({ kind: "error", message: "The file no longer exists." });
  });
});

