// The job host as a real process (the compiled dist/tools/jobs/host/host-main.js, started on demand
// by its client): jobs a dashboard leaves are kept for the next one and ended after the grace
// period; a client that is not a dashboard has its jobs stopped when it goes, however it goes; the
// host exits once it has neither clients nor jobs; a killed host takes every job (escapes included)
// with it; another user cannot reach its socket; and a client and a host of different versions
// refuse each other instead of talking past each other.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, connect, type Socket } from "node:net";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HostJobService as HostJobServiceType } from "../../tools/jobs/client/host-job-service.js";
import type * as HostPaths from "../../tools/jobs/host/host-paths.js";
import type * as Handshake from "../../tools/jobs/wire/handshake.js";
import type * as Framing from "../../tools/jobs/wire/framing.js";
import type * as Connection from "../../tools/jobs/client/host-connection.js";
import type { JobServiceInputs } from "../../tools/jobs/service.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { alivePids, childPids, killPids, liveProcesses, pidAlive } from "../helpers/processes.js";
import { noticeTexts, tempDir } from "./helpers.js";
import { sandboxPolicy } from "../../tools/sandbox/index.js";
import { requireBubblewrap } from "../sandbox/sandbox-fixture.js";

// Run from dist, so the host the client starts is the compiled one next to it.
const dist = (path: string): string => join(REPO_ROOT, "dist", path);
let HostJobService: typeof HostJobServiceType;
let hostPaths: typeof HostPaths.hostPaths;
let prepareHostDir: typeof HostPaths.prepareHostDir;
let PROTOCOL_VERSION: number;
let MAX_FRAME_CHARS: number;
let HostConnection: typeof Connection.HostConnection;

beforeAll(async () => {
  assertBuilt();
  ({ HostJobService } = (await import(dist("tools/jobs/client/host-job-service.js"))) as typeof import("../../tools/jobs/client/host-job-service.js"));
  ({ hostPaths, prepareHostDir } = (await import(dist("tools/jobs/host/host-paths.js"))) as typeof HostPaths);
  ({ PROTOCOL_VERSION } = (await import(dist("tools/jobs/wire/handshake.js"))) as typeof Handshake);
  ({ MAX_FRAME_CHARS } = (await import(dist("tools/jobs/wire/framing.js"))) as typeof Framing);
  ({ HostConnection } = (await import(dist("tools/jobs/client/host-connection.js"))) as typeof Connection);
});

const services: HostJobServiceType[] = [];
const pids: number[] = [];

afterEach(async () => {
  for (const service of services.splice(0)) await service.shutdown().catch(() => undefined);
  killPids(pids.splice(0));
});

interface Folder {
  home: string;
  cwd: string;
}

function folder(): Folder {
  return { home: tempDir(), cwd: tempDir() };
}

function client(where: Folder, kind: "dashboard" | "print" | "json" = "dashboard", keepJobsMs = 60_000): HostJobServiceType {
  // The host takes its starter's settings: bash_stream calls come back once their job runs.
  const inputs: JobServiceInputs = { cwd: where.cwd, env: process.env, settings: { killGraceMs: 500, minYieldMs: 50 }, marker: undefined, secrets: [] };
  const service = new HostJobService(inputs, { home: where.home, kind, keepJobsMs });
  services.push(service);
  return service;
}

function hostPidOf(where: Folder): number | undefined {
  const file = hostPaths(where.home, where.cwd).pidFile;
  return existsSync(file) ? Number(readFileSync(file, "utf8").trim()) : undefined;
}

const never = new AbortController().signal;
const context = { yieldSignal: never };

async function bashStream(service: HostJobServiceType, command: string): Promise<string> {
  const result = await service.runTool({ tool: "bash_stream", toolCallId: `t${Math.random()}`, params: { command, yieldMs: 50 }, signal: never, onUpdate: () => undefined, context });
  const id = /job (\d+)/i.exec(result.content)?.[1];
  if (!id) throw new Error(`no job id in: ${result.content}`);
  return id;
}

describe("the job host process", () => {
  it("keeps a dashboard's jobs when it goes, gives them to the next dashboard with a notice, and exits once nothing is left", async () => {
    const where = folder();
    const first = client(where);
    expect(await first.attach()).toEqual({ kind: "none" });
    const id = await bashStream(first, "echo serving; sleep 1021");
    const job = first.get(id)!;
    const host = first.hostPid!;
    pids.push(host, job.pid);
    expect(hostPidOf(where)).toBe(host);
    // A library user's host is the tsc-compiled program next to the client (the bundle has its own).
    // Its young generation capped (host-launcher.ts), then its program.
    const [, heapFlag, program] = readFileSync(`/proc/${host}/cmdline`, "utf8").split("\0");
    expect(heapFlag).toMatch(/^--max-semi-space-size=\d+$/);
    expect(program).toBe(dist("tools/jobs/host/host-main.js"));
    // The host is not this process's child's session: a terminal's signals do not reach it.
    expect(readFileSync(`/proc/${host}/stat`, "utf8").split(") ")[1]!.split(" ")[3]).toBe(String(host));
    // The dashboard goes without a word (as after kill -9): the job runs on.
    await first.detach();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pidAlive(job.pid)).toBe(true);

    const second = client(where);
    const outcome = await second.attach();
    expect(outcome).toMatchObject({ kind: "attached", adopted: [{ id, status: "running", command: "echo serving; sleep 1021" }] });
    const notices = noticeTexts(await second.drainNotices());
    expect(notices.join("\n")).toMatch(/left running by an earlier pitwall[\s\S]*job 1 \(echo serving; sleep 1021, started by the agent\): running for/);
    expect((await second.text(id, "log")).join("\n")).toContain("serving");
    // Ids go on.
    expect(await bashStream(second, "sleep 1022")).toBe("2");
    const next = second.get("2")!.pid;
    pids.push(next);
    // Quitting and stopping them: every job ends, and the host too.
    await second.shutdown();
    await waitFor(() => alivePids([job.pid, next, host]).length === 0, "the jobs and the host to end", 10_000);
    expect(existsSync(hostPaths(where.home, where.cwd).socket)).toBe(false);
  }, 30_000);

  it("the client's copy of a job's triggers counts their firings as the host does (the person's /watch list says 'fired 1×')", async () => {
    const where = folder();
    const service = client(where);
    const id = await bashStream(service, "while [ ! -f fire ]; do sleep 0.05; done; echo FAIL once; sleep 1023");
    pids.push(service.hostPid!, service.get(id)!.pid);
    await service.addTrigger(id, { pattern: "FAIL", action: "notify" });
    await waitFor(() => service.triggers(id).length === 1, "the trigger to reach the client");
    expect(service.triggers(id)[0]!.fired).toBe(0);
    writeFileSync(join(where.cwd, "fire"), "");
    await waitFor(() => service.triggers(id)[0]!.fired === 1, "the client's copy to count the firing");
  }, 30_000);

  it("prepare() starts the host in the background once; the next bash call uses it; a host with no jobs ends with its client", async () => {
    const where = folder();
    const service = client(where);
    void service.prepare();
    void service.prepare();
    await waitFor(() => service.hostPid, "the host to start", 15_000);
    const host = service.hostPid!;
    pids.push(host);
    const result = await service.runTool({ tool: "bash", toolCallId: "t1", params: { command: "echo from the host" }, signal: never, onUpdate: () => undefined, context });
    expect(result.content).toContain("from the host");
    expect(service.hostPid).toBe(host);
    await service.shutdown();
    await waitFor(() => !pidAlive(host), "the host to end", 10_000);
  }, 30_000);

  it("prepare() under a sandbox sets up the first bash call's fence ahead: a shell waits in it, and the first call runs there", async () => {
    await requireBubblewrap();
    const where = folder();
    const policy = sandboxPolicy({ profile: "workspace", required: true, home: where.home, pitwallHome: where.home });
    const inputs: JobServiceInputs = { cwd: where.cwd, env: process.env, settings: { killGraceMs: 500 }, marker: undefined, secrets: [], sandbox: { policy, personProfile: "off" } };
    const service = new HostJobService(inputs, { home: where.home, kind: "dashboard", keepJobsMs: 60_000 });
    services.push(service);
    void service.prepare();
    await waitFor(() => service.hostPid, "the host to start", 15_000);
    const host = service.hostPid!;
    pids.push(host);
    // The waiting shell: a child of the host, in its fence, before any call of ours.
    const waitingShells = (): number[] => {
      const children = new Set(childPids(host));
      return liveProcesses()
        .filter((row) => children.has(row.pid) && row.args.includes("pitwall-command"))
        .map((row) => row.pid);
    };
    await waitFor(() => waitingShells().length === 1, "a shell to wait in the fence", 15_000);
    const [ahead] = waitingShells();
    const result = await service.runTool({ tool: "bash", toolCallId: "t1", params: { command: "echo in $PITWALL_SANDBOX" }, signal: never, onUpdate: () => undefined, context });
    expect(result.content).toContain("in workspace");
    // It ran the call (it is gone), and another waits for the next one.
    await waitFor(() => waitingShells().length === 1 && waitingShells()[0] !== ahead, "the next call's shell to wait", 15_000);
    expect(pidAlive(ahead!)).toBe(false);
  }, 30_000);

  it("ends kept jobs after the grace period when no dashboard comes back", async () => {
    const where = folder();
    const dashboard = client(where, "dashboard", 1_500);
    const id = await bashStream(dashboard, "sleep 1031");
    const job = dashboard.get(id)!;
    const host = dashboard.hostPid!;
    pids.push(host, job.pid);
    await dashboard.detach();
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(pidAlive(job.pid)).toBe(true);
    await waitFor(() => !pidAlive(job.pid) && !pidAlive(host), "the grace period to end the job and the host", 10_000);
    expect(readFileSync(hostPaths(where.home, where.cwd).log, "utf8")).toMatch(/no pitwall attached for 1\.5s: stopping the jobs left running/);
  }, 30_000);

  it("stops a print or JSON client's jobs as soon as its connection ends", async () => {
    const where = folder();
    const dashboard = client(where);
    const kept = await bashStream(dashboard, "sleep 1041");
    const json = client(where, "json");
    const own = await bashStream(json, "sleep 1042");
    pids.push(dashboard.get(kept)!.pid, json.get(own)!.pid, dashboard.hostPid!);
    expect(dashboard.list().map((j) => j.id)).toEqual([kept, own]);
    await json.detach();
    await waitFor(() => !pidAlive(json.get(own)!.pid), "the JSON client's job to end", 10_000);
    await waitFor(() => dashboard.get(own) === undefined, "the dashboard to see it go");
    expect(pidAlive(dashboard.get(kept)!.pid)).toBe(true);
  }, 30_000);

  it("a dashboard gets a job's output sampled, but all of its end, before the exit", async () => {
    const where = folder();
    const dashboard = client(where);
    const seen: string[] = [];
    dashboard.subscribe((event) => {
      if (event.type === "job_output") seen.push(event.chunk);
      if (event.type === "job_exited") seen.push("<exit>");
    });
    // Lines well within one sampling interval of each other, then the exit.
    const id = await bashStream(dashboard, "echo first; sleep 0.05; echo second; echo third; sleep 0.05; echo last");
    pids.push(dashboard.hostPid!);
    await waitFor(() => seen.includes("<exit>"), "the job's exit", 10_000);
    const text = seen.join("");
    expect(text.indexOf("<exit>"), text).toBe(text.length - "<exit>".length);
    expect(text.replace(/\r/g, "")).toContain("first\nsecond\nthird\nlast\n");
    expect(dashboard.get(id)?.status).toBe("exited");
  }, 30_000);

  it("a killed host takes every job with it, escapes included, and its client says so", async () => {
    const where = folder();
    const dashboard = client(where);
    const problems: string[] = [];
    dashboard.onProblem((text) => problems.push(text));
    const id = await bashStream(dashboard, "setsid -f sh -c 'echo $$ > escaped.pid; exec sleep 1052'; sleep 1051");
    const job = dashboard.get(id)!;
    const host = dashboard.hostPid!;
    const escapedFile = join(where.cwd, "escaped.pid");
    await waitFor(() => existsSync(escapedFile) && readFileSync(escapedFile, "utf8").trim() !== "", "the escape to start");
    const escaped = Number(readFileSync(escapedFile, "utf8").trim());
    pids.push(host, job.pid, escaped);
    process.kill(host, "SIGKILL");
    await waitFor(() => alivePids([job.pid, escaped]).length === 0, "the host's watchdog to end the job and its escape", 5_000);
    await waitFor(() => problems.length > 0, "the client to notice");
    expect(problems[0]).toMatch(/The job host \(pid \d+\) stopped unexpectedly; job 1 ended with it/);
    expect(dashboard.get(id)).toMatchObject({ status: "killed" });
    expect(noticeTexts(await dashboard.drainNotices()).join("\n")).toContain("stopped unexpectedly");
    // The next job starts a new host; ids go on.
    expect(await bashStream(dashboard, "sleep 1053")).toBe("2");
    pids.push(dashboard.hostPid!, dashboard.get("2")!.pid);
    expect(dashboard.hostPid).not.toBe(host);
  }, 30_000);

  it("another user cannot connect: the host's folder is private (0700) and its socket 0600", async () => {
    if (process.getuid?.() !== 0) return; // only root can run a process as another user
    const where = folder();
    const dashboard = client(where);
    await bashStream(dashboard, "sleep 1061");
    pids.push(dashboard.hostPid!, dashboard.get("1")!.pid);
    const paths = hostPaths(where.home, where.cwd);
    expect(statSync(paths.dir).mode & 0o777).toBe(0o700);
    expect(statSync(dirname(paths.dir)).mode & 0o777).toBe(0o700);
    expect(statSync(paths.socket).mode & 0o777).toBe(0o600);
    // Every folder above the host's lets the other user through: only the host's own folder stops them.
    for (let dir = dirname(dirname(paths.dir)); dir !== "/"; dir = dirname(dir)) if (statSync(dir).uid === 0) chmodSync(dir, statSync(dir).mode | 0o055);
    const attempt = (path: string) =>
      spawnSync(process.execPath, ["-e", `require("net").connect(${JSON.stringify(path)}).on("connect", () => { console.log("CONNECTED"); process.exit(0); }).on("error", (e) => { console.log(e.code); process.exit(1); })`], {
        uid: 12345,
        gid: 12345,
        encoding: "utf8",
        timeout: 10_000,
      });
    const other = attempt(paths.socket);
    expect(other.stdout.trim()).toBe("EACCES");
    // The same attempt as this user connects: the refusal is the folder's doing.
    const mine = spawnSync(process.execPath, ["-e", `require("net").connect(${JSON.stringify(paths.socket)}).on("connect", () => { console.log("CONNECTED"); process.exit(0); }).on("error", (e) => { console.log(e.code); process.exit(1); })`], { encoding: "utf8", timeout: 10_000 });
    expect(mine.stdout.trim()).toBe("CONNECTED");
  }, 30_000);
});

describe("the host's program", () => {
  it("is host/host-main.js beside the launcher's folder as tsc compiled it, job-host.cjs in the bundle, and a clear error when neither is there", async () => {
    const { hostProgram } = (await import(dist("tools/jobs/client/host-launcher.js"))) as typeof import("../../tools/jobs/client/host-launcher.js");
    const folder = join(tempDir(), "client");
    mkdirSync(folder);
    const here = pathToFileURL(join(folder, "chunk-X.js")).href;
    expect(() => hostProgram(here)).toThrow(/The job host's program is missing: none of .*host-main\.js, .*job-host\.cjs exists/);
    writeFileSync(join(folder, "job-host.cjs"), "");
    expect(hostProgram(here)).toBe(join(folder, "job-host.cjs"));
    mkdirSync(join(folder, "..", "host"));
    writeFileSync(join(folder, "..", "host", "host-main.js"), "");
    expect(hostProgram(here)).toBe(join(folder, "..", "host", "host-main.js"));
  });

  it("started after its folder was removed (a home deleted while it started), exits and makes nothing again", () => {
    const home = tempDir();
    const cwd = tempDir();
    const config = { cwd, home, settings: {}, keepJobsMs: 1000 };
    const result = spawnSync(process.execPath, [dist("tools/jobs/host/host-main.js"), JSON.stringify(config)], { encoding: "utf8", timeout: 15_000 });
    expect(result.status).toBe(0);
    expect(existsSync(join(home, "hosts"))).toBe(false);
  });
});

describe("version skew", () => {
  it("a host refuses a client of another version, telling it its version, pid and jobs", async () => {
    const where = folder();
    const dashboard = client(where);
    await bashStream(dashboard, "sleep 1071");
    const host = dashboard.hostPid!;
    pids.push(host, dashboard.get("1")!.pid);
    const socket = connect(hostPaths(where.home, where.cwd).socket);
    socket.setEncoding("utf8");
    let answer = "";
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.write(`${JSON.stringify({ type: "hello", protocol: PROTOCOL_VERSION + 1, version: "99.0.0", client: { kind: "dashboard", pid: process.pid, output: "all", brandNew: true } })}\n`);
    await waitFor(() => answer.includes("\n"), "the host's answer");
    const message = JSON.parse(answer.split("\n")[0]!) as Record<string, unknown>;
    expect(message).toMatchObject({ type: "mismatch", protocol: PROTOCOL_VERSION, pid: host, jobs: [{ id: "1", command: "sleep 1071", status: "running" }] });
    socket.destroy();
    // The refused client took nothing over: the job is still the dashboard's, and runs.
    expect(pidAlive(dashboard.get("1")!.pid)).toBe(true);
  }, 30_000);

  it("a client meeting a host of another version says so and never uses it; a host that breaks the protocol is dropped", async () => {
    const where = folder();
    const paths = hostPaths(where.home, where.cwd);
    prepareHostDir(paths);
    let mode: "old" | "garbled" = "old";
    const fake = createServer((socket) => {
      socket.setEncoding("utf8");
      socket.once("data", () => {
        if (mode === "old") {
          socket.write(`${JSON.stringify({ type: "mismatch", protocol: 0, version: "0.0.9", pid: 4242, jobs: [{ id: "3", command: "npm run dev", status: "running" }] })}\n`);
          socket.end();
        } else {
          socket.write(`${JSON.stringify({ type: "welcome", protocol: PROTOCOL_VERSION, version: "0.1.0", pid: 4243, clientId: "c1", jobs: [], adopted: [], exitsToTell: [], triggers: [] })}\n`);
          // An event this version does not know.
          socket.write(`${JSON.stringify({ type: "event", event: { type: "job_teleported", jobId: "1" } })}\n`);
        }
      });
    });
    await new Promise<void>((resolve) => fake.listen(paths.socket, resolve));
    try {
      const dashboard = client(where);
      expect(await dashboard.attach()).toEqual({ kind: "mismatch", mismatch: { type: "mismatch", protocol: 0, version: "0.0.9", pid: 4242, jobs: [{ id: "3", command: "npm run dev", status: "running" }] } });
      // Asked to run a job anyway, it refuses with what to do rather than starting a second host.
      await expect(bashStream(dashboard, "true")).rejects.toThrow(/another pitwall version \(0\.0\.9, protocol 0, pid 4242\).*pitwall jobs stop all/);
      mode = "garbled";
      const other = client(where);
      const problems: string[] = [];
      other.onProblem((text) => problems.push(text));
      expect(await other.attach()).toMatchObject({ kind: "attached" });
      await waitFor(() => problems.length > 0, "the client to drop the garbled connection");
      expect(problems[0]).toMatch(/sent a message this pitwall does not understand/);
      expect(other.hostPid).toBeUndefined();
      expect(other.list()).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  }, 30_000);
});

/** A process's resident memory now, in MB (VmRSS of /proc/<pid>/status). */
function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (kb === undefined) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(kb) / 1024;
}

/**
 * Writes `total` characters of "x" (no newline) as fast as the peer reads them, until it ends the
 * connection or all was written; returns how much was handed to the socket.
 */
async function flood(socket: Socket, total: number): Promise<{ written: number; cutOff: boolean }> {
  const chunk = "x".repeat(64 * 1024);
  let written = 0;
  let cutOff = false;
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  void ended.then(() => (cutOff = true));
  socket.on("error", () => undefined);
  while (written < total && !cutOff) {
    written += chunk.length;
    if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once("drain", resolve)), ended]);
  }
  return { written, cutOff };
}

describe("frames on the host's socket", () => {
  it("a client sending a 100 MB line is cut off soon after the cap, the host stays small, and other clients go on", async () => {
    const where = folder();
    const dashboard = client(where);
    const id = await bashStream(dashboard, "sleep 1091");
    const host = dashboard.hostPid!;
    pids.push(host, dashboard.get(id)!.pid);
    const paths = hostPaths(where.home, where.cwd);
    // Another client, as `pitwall jobs` is: it asks the host for its status during the flood.
    const handshake = await HostConnection.open(paths.socket, { kind: "cli", pid: process.pid, output: "none" });
    if (handshake.kind !== "welcome") throw new Error("the host refused the status client");
    const other = handshake.connection;
    expect((await other.call("status", {})).jobs.map((listed) => listed.job.id)).toEqual([id]);
    const idle = Math.max(rssMb(host), rssMb(host), rssMb(host));

    const socket = connect(paths.socket);
    socket.setEncoding("utf8");
    await new Promise((resolve) => socket.once("connect", resolve));
    socket.write(`${JSON.stringify({ type: "hello", protocol: PROTOCOL_VERSION, version: other.welcome.version, client: { kind: "cli", pid: process.pid, output: "none" } })}\n`);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(host))), 5);
    const answers: number[] = [];
    let flooding = true;
    const asking = (async () => {
      while (flooding) answers.push((await other.call("status", {})).pid);
    })();
    const started = Date.now();
    const sent = await flood(socket, 100 * 1024 * 1024).finally(() => {
      flooding = false;
      clearInterval(sampler);
    });
    await asking;
    const took = Date.now() - started;
    peak = Math.max(peak, rssMb(host));

    expect(sent.cutOff).toBe(true);
    // What was still in the socket's buffers when the host refused is all that passed the cap.
    expect(sent.written).toBeGreaterThan(MAX_FRAME_CHARS);
    expect(sent.written).toBeLessThan(MAX_FRAME_CHARS + 2 * 1024 * 1024);
    expect(peak - idle, `idle ${idle.toFixed(1)} MB, peak ${peak.toFixed(1)} MB, cut off after ${took} ms`).toBeLessThanOrEqual(20);
    await waitFor(() => readFileSync(paths.log, "utf8").includes(`sent a message longer than ${MAX_FRAME_CHARS} characters; disconnected`), "the host to log the refusal");
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((pid) => pid === host)).toBe(true);
    // The host and its job go on; the status client and the dashboard are still served.
    expect((await other.call("status", {})).jobs).toMatchObject([{ job: { id, status: "running" } }]);
    expect(pidAlive(host)).toBe(true);
    expect((await dashboard.text(id, "log")).join("")).toBe("");
    // A client does not send what the host would refuse: the call fails, the connection stays.
    await expect(dashboard.write(id, "x".repeat(MAX_FRAME_CHARS))).rejects.toThrow(
      new RegExp(`^Cannot send write to the job host: the request is \\d+ characters, over the ${MAX_FRAME_CHARS} a message may have\\. Send less at a time\\.$`),
    );
    expect(dashboard.hostPid).toBe(host);
    expect(await dashboard.text(id, "log")).toEqual([""]);
    other.close();
  }, 60_000);

  it("a host sending a 100 MB line is dropped by its client soon after the cap", async () => {
    const where = folder();
    const paths = hostPaths(where.home, where.cwd);
    prepareHostDir(paths);
    let sent: Promise<{ written: number; cutOff: boolean }> | undefined;
    const fake = createServer((socket) => {
      socket.setEncoding("utf8");
      socket.once("data", () => {
        socket.write(`${JSON.stringify({ type: "welcome", protocol: PROTOCOL_VERSION, version: "0.1.0", pid: 4244, clientId: "c1", jobs: [], adopted: [], exitsToTell: [], triggers: [] })}\n`);
        sent = flood(socket, 100 * 1024 * 1024);
      });
    });
    await new Promise<void>((resolve) => fake.listen(paths.socket, resolve));
    try {
      const dashboard = client(where);
      const problems: string[] = [];
      dashboard.onProblem((text) => problems.push(text));
      expect(await dashboard.attach()).toMatchObject({ kind: "attached" });
      await waitFor(() => problems.length > 0, "the client to drop the host", 30_000);
      expect(problems[0]).toMatch(new RegExp(`The job host \\(pid 4244\\) sent a message longer than ${MAX_FRAME_CHARS} characters: this pitwall stopped talking to it`));
      const { written, cutOff } = await sent!;
      expect(cutOff).toBe(true);
      expect(written).toBeLessThan(MAX_FRAME_CHARS + 2 * 1024 * 1024);
      expect(dashboard.hostPid).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => fake.close(() => resolve()));
    }
  }, 60_000);
});
