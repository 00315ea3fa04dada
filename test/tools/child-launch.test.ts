// The launcher every child goes through runs none of the person's shell start-up files. bash reads
// ~/.bashrc when it is a top-level shell whose stdin is a socket (it takes that for sshd), and
// Node's "pipe" stdio is a socket: the watchdog (environment: PATH alone) and a pipe job started by
// a pitwall whose own environment has no SHLVL are both that. Each such read ran the person's
// start-up code where nobody asked for it (a pyenv set-up: ~140 ms of CPU and a /.pyenv folder).
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { launch, launchShell } from "../../tools/process/child-launch.js";
import { tempDir } from "../helpers/temp-dir.js";

/** Runs `file args` with a socket for stdin (closed at once), as Node's "pipe" gives; resolves with its stdout. */
function runWithSocketStdin(file: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ["pipe", "pipe", "inherit"], env });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => (out += text));
    child.stdin.end();
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

describe("the child launcher", () => {
  it("reads no ~/.bashrc for a launch or a pipe job's shell, whose stdin is a socket and whose environment has no SHLVL", async () => {
    const home = tempDir("launch-home");
    const marker = join(home, "bashrc-ran");
    writeFileSync(join(home, ".bashrc"), `echo "$0" >> '${marker}'\n`);
    // PATH and HOME alone, as the watchdog's environment (no SHLVL).
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home };

    // The machine's bash does read it this way when started directly: the case is real here.
    await runWithSocketStdin("/bin/bash", ["-c", "true"], env);
    expect(existsSync(marker), "bash started directly with a socket for stdin should read ~/.bashrc").toBe(true);
    const before = readFileSync(marker, "utf8");

    const plain = launch("/bin/echo", ["launched"]);
    expect(await runWithSocketStdin(plain.file, plain.args, env)).toBe("launched\n");
    // A pipe job: the person's shell runs the command with the job's socket for stdin.
    const job = launchShell("/bin/bash", 'echo "level $SHLVL"');
    const said = await runWithSocketStdin(job.file, job.args, { ...env, ...job.env });
    expect(said).toMatch(/^level \d+\n$/);
    expect(Number(said.match(/\d+/)![0])).toBeGreaterThanOrEqual(2);

    expect(readFileSync(marker, "utf8")).toBe(before);
  });
});
