// The guard's watchdog, on its own: when its owner dies by SIGKILL it kills the process groups it was
// told about (even one whose processes scrubbed their environment, so the sweep cannot see them),
// never a group it was told to forget, and every process carrying the run's marker.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { alivePids, killPids } from "../helpers/processes.js";
import { tempDir } from "./helpers.js";

beforeAll(assertBuilt);
const started: number[] = [];
afterEach(() => killPids(started.splice(0)));

const OWNER = `
import { spawn } from "node:child_process";
import { ProcessGuard } from ${JSON.stringify(join(REPO_ROOT, "dist/tools/process/process-guard.js"))};
const guard = ProcessGuard.start();
const detached = (command, env) => spawn("/bin/sh", ["-c", command], { detached: true, stdio: "ignore", env }).pid;
// A group whose processes carry no marker (env -i): only the group list can end it.
const tracked = detached("exec env -i sleep 1011", {});
guard.trackGroup(tracked);
// A group that was handed on: the watchdog must leave it alone.
const forgotten = detached("exec env -i sleep 1012", {});
guard.trackGroup(forgotten);
guard.untrackGroup(forgotten);
// A marked process that left every group: only the sweep finds it.
const marked = detached("exec sleep 1013", { ...process.env, ...guard.env });
setTimeout(() => process.stdout.write(JSON.stringify({ tracked, forgotten, marked, watchdog: guard.watchdogPid }) + "\\n"), 200);
setInterval(() => {}, 1000);
`;

describe("ProcessGuard", () => {
  it("after its owner is killed with SIGKILL, the watchdog ends tracked groups and marked processes, and nothing else", async () => {
    const dir = tempDir();
    const script = join(dir, "owner.mjs");
    writeFileSync(script, OWNER);
    const owner = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
    started.push(owner.pid!);
    let out = "";
    owner.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    await waitFor(() => out.includes("\n"), "the owner to start its processes");
    const pids = JSON.parse(out) as { tracked: number; forgotten: number; marked: number; watchdog: number };
    started.push(pids.tracked, pids.forgotten, pids.marked, pids.watchdog);
    expect(alivePids([pids.tracked, pids.forgotten, pids.marked, pids.watchdog])).toHaveLength(4);

    owner.kill("SIGKILL");
    await waitFor(() => alivePids([pids.tracked, pids.marked]).length === 0, "the tracked group and the marked process to be killed", 2_000);
    await waitFor(() => alivePids([pids.watchdog]).length === 0, "the watchdog to exit", 5_000);
    expect(alivePids([pids.forgotten])).toEqual([pids.forgotten]);
  }, 30_000);
});
