// A closed terminal (a closed window, `tmux kill-session`) is a clean end: the kernel hangs the
// terminal up, pitwall leaves its jobs to the job host as the README says and ends as a hangup ends
// a program, with no abort, no native stack and no core file (Node 20's stdio reset asserts on a
// terminal that is gone). pitwall's own core dumps are off from its start, since it holds the keys;
// the commands it runs get the person's settings back.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";

endDashboardsAfterEach();

const SIGHUP = 1;

function coreLimit(pid: number): string | undefined {
  return /^Max core file size\s+(\S+)/m.exec(readFileSync(`/proc/${pid}/limits`, "utf8"))?.[1];
}

describe("a closed terminal", () => {
  it("ends pitwall as a hangup, with no abort or native stack; the job runs on in the job host; no core dumps meanwhile", async () => {
    const stderrFile = join(tempFolder("stderr"), "stderr.txt");
    const { t, llm, cwd } = await startDashboard({
      beforeExec: "ulimit -S -c unlimited",
      stderrFile,
      replies: [
        { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "echo server-up; sleep 3007", readyPattern: "server-up" } }] },
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo limit=$(ulimit -c) filter=$(cat /proc/self/coredump_filter)" } }] },
        { kind: "reply", text: "the server runs" },
      ],
    });
    // Core dumps are off for pitwall itself (it holds the key), though the shell allowed them.
    await waitFor(() => coreLimit(t.pid) === "0", "pitwall's core file limit to be 0");
    expect(readFileSync(`/proc/${t.pid}/coredump_filter`, "utf8").trim()).toBe("00000000");
    t.type("start the server");
    t.press("Enter");
    await t.waitForText("the server runs");
    // ...and its commands get the person's own settings back.
    expect(llm.requests.at(-1)!.transcript).toContain("limit=unlimited filter=00000033");

    t.hangUp();
    await t.waitForExit();
    expect(t.exitSignal).toBe(SIGHUP);
    const stderr = readFileSync(stderrFile, "utf8");
    expect(stderr).not.toMatch(/Assertion|node::|Abort|Native stack/i);

    // The README: a closed terminal leaves the dashboard's jobs running in the job host.
    const jobs = await runCli(["jobs"], cliEnv({ home: t.home, extra: { PITWALL_HOME: t.home } }), { cwd });
    expect(jobs.stdout).toMatch(/1\s+running.*sleep 3007|1\s+running.*echo server-up/);
  }, 60_000);
});
