// A fenced command starts on a fence set up ahead of it (tools/process/prestarted-shells.ts): the
// next call with the same fence finds a shell waiting inside it, gives it its environment and its
// command, and runs as a freshly started one would: the same fence, the same environment, the same
// process group and signals. Anything the waiting shell cannot take starts the usual way.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { groupAlive } from "../../tools/process-group.js";
import { PrestartedShells } from "../../tools/process/prestarted-shells.js";
import { CommandSandbox, sandboxPolicy, type CommandFence } from "../../tools/sandbox/index.js";
import { startShellCommand, type ShellRunResult } from "../../tools/shell-process.js";
import { waitFor } from "../helpers/conditions.js";
import { tempDir } from "../helpers/temp-dir.js";
import { requireBubblewrap } from "./sandbox-fixture.js";

let cwd: string;
let home: string;
let fence: CommandFence;
let pool: PrestartedShells | undefined;

beforeAll(async () => {
  await requireBubblewrap();
  const base = tempDir("prestarted");
  cwd = join(base, "work");
  home = join(base, "home");
  mkdirSync(cwd);
  mkdirSync(home);
  const sandbox = new CommandSandbox(() => join(base, "own"));
  fence = await sandbox.fence({ policy: sandboxPolicy({ profile: "workspace", required: true, home, pitwallHome: join(home, ".pitwall") }), root: cwd });
});

afterEach(() => pool?.dispose());

interface Run {
  result: ShellRunResult;
  output: string;
}

async function run(command: string, env: Record<string, string> = {}, signal?: AbortSignal, seen: { output: string } = { output: "" }): Promise<Run> {
  const started = startShellCommand({
    shell: "/bin/bash",
    command,
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, ...env },
    fence,
    ...(pool ? { prestarted: pool } : {}),
    ...(signal ? { signal } : {}),
    killGraceMs: 2_000,
    onChunk: (chunk) => (seen.output += chunk),
  });
  return { result: await started.result, output: seen.output };
}

/** The shell waiting for the next call once the last one is done. */
const waiting = (): Promise<number> => waitFor(() => pool?.waitingPids()[0], "a shell waiting in the fence");

describe("a fenced call after the first", () => {
  it("runs in the shell set up ahead, inside the same fence, with its own environment", async () => {
    pool = new PrestartedShells();
    const first = await run("echo first", { KEPT: "1", CHANGED: "before", GONE: "x" });
    expect(first.output).toBe("first\n");
    const ready = await waiting();

    const second = await run(`echo "$KEPT $CHANGED \${GONE-unset} $PITWALL_SANDBOX"; echo in > inside.txt; echo out > ${home}/out.txt`, { KEPT: "1", CHANGED: "after" });
    expect(second.result.pid).toBe(ready);
    expect(second.output).toContain("1 after unset workspace\n");
    expect(second.output).toContain("Read-only file system");
    expect(readFileSync(join(cwd, "inside.txt"), "utf8")).toBe("in\n");
    expect(second.result.exitCode).toBe(1);
    // Its descriptor for orders is closed before the command runs: ls sees its own 3, no other.
    const next = await waiting();
    const fds = await run("ls /proc/self/fd | sort -n | tr '\\n' ' '");
    expect(fds.result.pid).toBe(next);
    expect(fds.output.trim()).toBe("0 1 2 3");
  });

  it("sets up the next shell only once the call's result is out, off the call's path", async () => {
    pool = new PrestartedShells();
    // What a caller does with the result in its own continuations (the host answering its client)
    // comes before the spawn, which blocks the process for milliseconds.
    const waitingWhenAnswered = await run("echo first").then(() => pool?.waitingPids().length);
    expect(waitingWhenAnswered).toBe(0);
    await waiting();
  });

  it("gets TERM as a fresh start would: its trap runs and the whole group ends", async () => {
    pool = new PrestartedShells();
    await run("true");
    const ready = await waiting();
    const stop = new AbortController();
    const seen = { output: "" };
    const pending = run("trap 'echo cleaned up; exit 3' TERM; echo started; sleep 30 & wait", {}, stop.signal, seen);
    // Once it has printed, its trap is set.
    await waitFor(() => seen.output.includes("started"), "the command started");
    stop.abort();
    const { result, output } = await pending;
    expect(result.pid).toBe(ready);
    expect(result.aborted).toBe(true);
    expect(output).toContain("cleaned up");
    expect(groupAlive(ready)).toBe(false);
  });
});

describe("the usual start", () => {
  it("runs a command too long to hand over, and one whose variables a shell cannot name; the waiting shell stays for the next", async () => {
    pool = new PrestartedShells();
    await run("true");
    const ready = await waiting();
    const long = await run(`echo ${"x".repeat(2_000)} | wc -c`);
    expect(long.result.pid).not.toBe(ready);
    expect(long.output.trim()).toBe("2001");
    const oddName = await run("env | grep '^ODD-NAME='", { "ODD-NAME": "kept" });
    expect(oddName.result.pid).not.toBe(ready);
    expect(oddName.output).toBe("ODD-NAME=kept\n");
    expect(pool.waitingPids()).toContain(ready);
  });

  it("runs when the waiting shell died", async () => {
    pool = new PrestartedShells();
    await run("true");
    const ready = await waiting();
    process.kill(-ready, "SIGKILL");
    await waitFor(() => !groupAlive(ready), "the waiting shell gone");
    const after = await run("echo after");
    expect(after.result.pid).not.toBe(ready);
    expect(after.output).toBe("after\n");
  });
});

it("a waiting shell ends without running anything when its owner lets it go", async () => {
  pool = new PrestartedShells();
  await run(`echo ran >> ${cwd}/runs.txt`);
  const ready = await waiting();
  pool.dispose();
  await waitFor(() => !groupAlive(ready), "the waiting shell's group gone");
  expect(readFileSync(join(cwd, "runs.txt"), "utf8")).toBe("ran\n");
});
