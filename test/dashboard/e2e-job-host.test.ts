// End to end with real processes: the jobs live in the folder's job host, so they outlive the
// dashboard. Killed with SIGKILL, the dashboard's jobs are kept; `pitwall -c` attaches to them again
// with their scrollback (read through the job terminal), the agent is told which still run, and ids
// go on. Quitting with "k" keeps them too; with no dashboard attached they end after the grace period
// (`pitwall jobs` says when), and while one is attached the grace clock does not run. An idle
// dashboard starts its host in the background, so the first command waits for nothing.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { waitFor } from "../helpers/conditions.js";
import { jobHostPids, reapJobHosts } from "../helpers/job-hosts.js";
import { alivePids, countLive } from "../helpers/processes.js";
import { wrapped, type PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("the job host", () => {
  test("kill -9 of the dashboard: the jobs run on, and pitwall -c gets them back with their scrollback; the agent is told; ids go on", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    try {
      const first = await startDashboard({ cwd, home });
      command(first.t, "/run sleep 63.51");
      await first.t.waitForText(/▶ 1 sleep 63\.51/);
      command(first.t, "/run seq -f 'row %g' 1 400; echo flood-done; sleep 63.52");
      await first.t.waitForText(/[│┤] flood-done\s+│/);
      const [hostPid] = jobHostPids(home);
      expect(hostPid).toBeGreaterThan(0);
      // pitwall runs as its bundle, and so does the host it started.
      // Its young generation capped (host-launcher.ts), then its program.
      const [, heapFlag, program] = readFileSync(`/proc/${hostPid}/cmdline`, "utf8").split("\0");
      expect(heapFlag).toMatch(/^--max-semi-space-size=\d+$/);
      expect(program).toMatch(/dist\/bundle\/job-host\.cjs$/);

      process.kill(first.t.proc.pid, "SIGKILL");
      await first.t.waitForExit();
      await first.done();
      // The host noticed, and keeps both jobs.
      expect(alivePids([hostPid!])).toEqual([hostPid]);
      expect(countLive("sleep 63.51")).toBe(1);
      expect(countLive("sleep 63.52")).toBe(1);

      const second = await startDashboard({ cwd, home, args: ["-c"], replies: [{ kind: "reply", text: "Noted." }] });
      const { t, llm } = second;
      const attached = await t.waitForText(new RegExp(`${wrapped("2 jobs kept running from an earlier pitwall, attached again: 1").source}\\s`));
      expect(attached).toMatch(wrapped("sleep 63.51 · 2 seq -f"));
      await t.waitForText(/▶ 1 sleep 63\.51/);
      await t.waitForText(/2 seq -f 'row %g'/);
      // The screen as the host's emulator has it, and its scrollback back to the first row.
      t.press("Alt+3");
      t.press("Down");
      await t.waitForText(/[│┤] flood-done\s+│/);
      t.press("Home");
      const top = await t.waitForText(/[│┤] row 1\s+│/);
      expect(top).toMatch(/[│┤] row 2\s+│/);
      t.press("End");
      await t.waitForText(/[│┤] flood-done\s+│/);

      command(t, "what is running?");
      await t.waitForText("Noted.");
      expect(llm.requests[0]!.transcript).toMatch(/left running by an earlier pitwall in this folder and are still running/);
      expect(llm.requests[0]!.transcript).toMatch(/job 1 \(sleep 63\.51, started by the person\)/);

      command(t, "/run sleep 63.53");
      await t.waitForText(/▶ 3 sleep 63\.53/);

      command(t, "/quit");
      await t.waitForText("3 jobs running: quit and stop them? y/n · k keep them running");
      t.type("y");
      await t.waitForExit();
      await waitFor(() => countLive("sleep 63.5") === 0, "every job to end");
      await waitFor(() => alivePids([hostPid!]).length === 0, "the host to exit once it has no job and no client");
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);

  test("the host starts in the background once the dashboard is idle after ready, and the first bash call uses it; print mode starts none for a reply without commands", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    try {
      const session = await startDashboard({
        cwd,
        home,
        env: { PITWALL_IDLE_WARM_UP: "1" },
        replies: [{ kind: "reply", text: "Running.", toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] }, { kind: "reply", text: "Ran it." }],
      });
      const { t } = session;
      await t.waitForText("● ready");
      // Nothing typed: the host starts by itself a moment after ready.
      const [host] = await waitFor(() => (jobHostPids(home).length > 0 ? jobHostPids(home) : undefined), "the job host to start while the dashboard is idle", 15_000);
      t.type("run echo");
      t.press("Enter");
      await t.waitForText("Ran it.");
      expect(jobHostPids(home)).toEqual([host]);

      // Print mode starts the host only when a command needs it.
      const printHome = tempFolder("home");
      session.llm.enqueue({ kind: "reply", text: "No commands needed." });
      const printed = await runCli(["-p", "just answer", "--no-session"], cliEnv({ anthropicBaseUrl: session.llm.anthropicBaseUrl, apiKey: "test-key", extra: { PITWALL_HOME: printHome } }), { cwd });
      expect(printed.stdout).toContain("No commands needed.");
      expect(jobHostPids(printHome)).toEqual([]);
      await session.done();
    } finally {
      reapJobHosts(home);
    }
  }, 40_000);

  test("quit with k keeps the jobs; the next pitwall attaches; with none attached they end after the grace period", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    // `pitwall jobs` from another terminal says whether the grace clock runs, and when it ends.
    const jobsList = async (): Promise<string> => (await runCli(["jobs"], cliEnv({ extra: { PITWALL_HOME: home } }), { cwd })).stdout;
    try {
      // The first pitwall's grace is a minute: longer than the second takes to start, however loaded the machine.
      const first = await startDashboard({ cwd, home, env: { PITWALL_KEEP_JOBS_MINUTES: "1" } });
      command(first.t, "/run echo kept-job-says-hi; sleep 63.61");
      await first.t.waitForText(/[│┤] kept-job-says-hi\s+│/);
      command(first.t, "/quit");
      await first.t.waitForText("1 job running: quit and stop it? y/n · k keep it running");
      first.t.type("k");
      // Leaving the jobs to the host is a clean exit (it once failed on the connection it had just closed).
      expect(await first.t.waitForExit()).toBe(0);
      await first.done();
      expect(countLive("sleep 63.61")).toBe(1);
      const [hostPid] = jobHostPids(home);
      // With no pitwall attached, the grace clock runs.
      expect(await jobsList()).toMatch(/: 1 job, no pitwall attached; kept jobs end in \S+ unless a pitwall attaches\n/);

      // The next pitwall's grace is a second (0.02 minutes): the one the host uses once it has left.
      const second = await startDashboard({ cwd, home, env: { PITWALL_KEEP_JOBS_MINUTES: "0.02" } });
      await second.t.waitForText(/1 job kept running from an earlier pitwall, attached[\s│]+again: 1 echo/);
      await second.t.waitForText(/[│┤] kept-job-says-hi\s+│/);
      // Attached, the grace clock does not run.
      const attached = await jobsList();
      expect(attached).toMatch(/: 1 job, attached: dashboard\n/);
      expect(attached).not.toContain("kept jobs end in");
      expect(countLive("sleep 63.61")).toBe(1);
      command(second.t, "/quit");
      await second.t.waitForText("1 job running: quit and stop it? y/n · k keep it running");
      second.t.type("k");
      expect(await second.t.waitForExit()).toBe(0);
      await second.done();
      // Nobody came back within the second's grace: the job ends, and the host with it.
      await waitFor(() => countLive("sleep 63.61") === 0, "the kept job to end after the grace period", 20_000);
      await waitFor(() => alivePids([hostPid!]).length === 0, "the host to exit", 10_000);
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);

  test("two dashboards in one folder: the quit question counts only this dashboard's jobs, and y stops only them", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    try {
      const first = await startDashboard({ cwd, home });
      command(first.t, "/run sleep 63.61");
      await first.t.waitForText(/▶ 1 sleep 63\.61/);
      const second = await startDashboard({ cwd, home });
      command(second.t, "/run sleep 63.62");
      command(second.t, "/run sleep 63.63");
      // Each sees all three jobs of the folder's host.
      await first.t.waitForText(/3 sleep 63\.63/);
      first.t.press("Ctrl+D");
      await first.t.waitForText("1 job running: quit and stop it? y/n · k keep it running");
      first.t.type("y");
      await first.t.waitForExit();
      await waitFor(() => countLive("sleep 63.61") === 0, "the first dashboard's job to end");
      expect(countLive("sleep 63.62")).toBe(1);
      expect(countLive("sleep 63.63")).toBe(1);
      second.t.press("Ctrl+D");
      await second.t.waitForText("2 jobs running: quit and stop them? y/n · k keep them running");
      second.t.type("y");
      await second.t.waitForExit();
    } finally {
      reapJobHosts(home);
    }
  }, 60_000);

  test("\"the agent is told\" only when it is: not again for an old exit on -c, not for another pitwall's job", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    try {
      const first = await startDashboard({ cwd, home, cols: 160, rows: 48, replies: [{ kind: "reply", text: "Seen the exit." }] });
      command(first.t, "/run sleep 63.61");
      await first.t.waitForText(/▶ 1 sleep 63\.61/);
      command(first.t, "/run sh -c 'while [ ! -f go ]; do sleep 0.05; done; echo failing; exit 4'");
      await first.t.waitForText(/2 sh -c/);

      // A second dashboard in the same folder sees the jobs, not their news.
      const second = await startDashboard({ cwd, home, cols: 160, rows: 48 });
      await second.t.waitForText(/2 sh -c/);
      writeFileSync(join(cwd, "go"), "");
      await first.t.waitForText(/Job 2 \(sh -c[^)]*\)[\s│]+exited with code 4 after[^]*The agent is told with its next request\./);
      const other = await second.t.waitForText(/Job 2 \(sh -c[^)]*\)[\s│]+exited with code 4/);
      expect(other).not.toContain("The agent is told");
      expect(other).toMatch(/It is another pitwall's job: this agent is not told\./);
      await second.t.close();
      await second.done();

      // The first one's agent is told, once.
      command(first.t, "what happened?");
      await first.t.waitForText("Seen the exit.");
      expect(first.llm.requests[0]!.transcript).toMatch(/Job 2 \(sh -c[^)]*\), started by the person, exited with code 4/);
      first.t.press("Ctrl+D");
      await first.t.waitForText("k keep it running");
      first.t.type("k");
      await first.t.waitForExit();
      await first.done();

      // -c: the old exit is in the list, not news again.
      const third = await startDashboard({ cwd, home, cols: 160, rows: 48, args: ["-c"], replies: [{ kind: "reply", text: "Nothing new." }] });
      await third.t.waitForText(/1 job kept running from an earlier pitwall, attached again/);
      await third.t.waitForText(/2 sh -c.*exit 4/);
      command(third.t, "anything new?");
      const screen = await third.t.waitForText("Nothing new.");
      expect(screen).not.toMatch(/Job 2 \(sh -c[^)]*\) exited/);
      // The resumed conversation has the notice from before, and nothing repeats it.
      expect(third.llm.requests[0]!.transcript.match(/exited with code 4/g)).toHaveLength(1);
      third.t.press("Ctrl+D");
      await third.t.waitForText("quit and stop it? y/n");
      third.t.type("y");
      await third.t.waitForExit();
    } finally {
      reapJobHosts(home);
    }
  }, 120_000);
});

