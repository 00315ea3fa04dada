// `pitwall jobs` from another terminal: it lists the folder's jobs with their status, stops one job,
// several or all (and what they started), prints a job's last lines or follows them until the job
// ends; it never starts a host. A host of another version is listed from its refusal and stopped by
// `stop all`; the dashboard meeting one says so, lists its jobs and offers to stop it.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { cliEnv, REPO_ROOT, runCli, startCli } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { jobHostPids, reapJobHosts } from "../helpers/job-hosts.js";
import { alivePids, countLive } from "../helpers/processes.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("pitwall jobs", () => {
  test("lists, tails (and follows) and stops the jobs of this folder's host, from another terminal", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    const env = cliEnv({ extra: { PITWALL_HOME: home } });
    try {
      const none = await runCli(["jobs"], env, { cwd });
      expect(none.stdout).toBe(`No job host runs in ${cwd}: no jobs.\n`);
      expect(jobHostPids(home)).toEqual([]);

      const { t } = await startDashboard({ cwd, home });
      command(t, "/run seq -f 'line %g' 1 50; sleep 63.71");
      await t.waitForText(/[│┤] line 50\s+│/);
      // Job 2 says tick-0, then waits for the go file before ticking.
      command(t, "/run echo tick-0; while [ ! -e go ]; do sleep 0.05; done; for i in $(seq 1 12); do echo tick-$i; sleep 0.1; done");
      await t.waitForText(/[│┤] tick-0\s+│/);

      const follow = startCli(["jobs", "tail", "2", "-f", "-n", "5"], env, cwd);
      let followed = "";
      let followErr = "";
      follow.stdout.setEncoding("utf8").on("data", (d: string) => (followed += d));
      follow.stderr.setEncoding("utf8").on("data", (d: string) => (followErr += d));
      const followExit = new Promise<number | null>((resolve) => follow.on("close", resolve));
      // Its last lines came first: from then on, every new line follows.
      await waitFor(() => followed === "tick-0\n", "tail -f to print the job's last line");
      writeFileSync(join(cwd, "go"), "");

      const list = await runCli(["jobs"], env, { cwd });
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^job host \d+ \(pitwall .+\) in .+: 2 jobs, attached: dashboard/);
      expect(list.stdout).toMatch(/ID\s+STATUS\s+TIME\s+BY\s+COMMAND\s+LAST LINE/);
      expect(list.stdout).toMatch(/\n1\s+running\s+\S+\s+person\s+seq -f 'line %g' 1 50; sleep 63\.71\s+line 50\n/);

      const tail = await runCli(["jobs", "tail", "1", "-n", "3"], env, { cwd });
      expect(tail.stdout).toBe("line 48\nline 49\nline 50\n");

      // -f printed every line as it came, and ended with the job.
      expect(await followExit).toBe(0);
      expect(followed.trim().split("\n")).toEqual(Array.from({ length: 13 }, (_, i) => `tick-${i}`));
      expect(followErr).toBe("job 2 ended: exit 0\n");

      const unknown = await runCli(["jobs", "stop", "9"], env, { cwd });
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toBe("No job 9 here. Jobs: 1, 2.\n");

      const stop = await runCli(["jobs", "stop", "1"], env, { cwd });
      expect(stop.stdout).toMatch(/^job 1: killed TERM  seq -f/);
      expect(countLive("sleep 63.71")).toBe(0);
      // The dashboard shows it, and tells its agent (the person stopped it).
      await t.waitForText(/1 seq -f 'line %g' 1 50;.* killed TERM/);

      command(t, "/run sleep 63.72");
      command(t, "/run sleep 63.73");
      await t.waitForText(/▶ 4 sleep 63\.73/);
      const all = await runCli(["jobs", "stop", "all"], env, { cwd });
      expect(all.stdout).toMatch(/job 3: killed TERM  sleep 63\.72\njob 4: killed TERM  sleep 63\.73\n/);
      expect(countLive("sleep 63.7")).toBe(0);
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);

  test("a host of another version: pitwall jobs lists its jobs and `stop all` ends it; the dashboard offers to stop it", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    const env = cliEnv({ extra: { PITWALL_HOME: home } });
    const startOld = async (): Promise<number> => {
      const old = spawn(process.execPath, [join(REPO_ROOT, "dist/test/jobs/old-job-host.js"), home, cwd], { detached: true, stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      old.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
      await waitFor(() => out.includes("READY"), "the old host to listen");
      old.unref();
      return old.pid!;
    };
    try {
      let old = await startOld();
      const list = await runCli(["jobs"], env, { cwd });
      expect(list.stdout).toContain(`The job host here runs pitwall 0.0.1-old (pid ${old}), not this pitwall's version; its 1 job:\n  1  running  sleep 63.91\n`);
      const tail = await runCli(["jobs", "tail", "1"], env, { cwd });
      expect(tail.code).toBe(1);
      const stop = await runCli(["jobs", "stop", "all"], env, { cwd });
      expect(stop.stdout).toBe(`Stopped the job host of pitwall 0.0.1-old (pid ${old}) and its 1 job.\n`);
      expect(alivePids([old])).toEqual([]);
      expect(countLive("sleep 63.91")).toBe(0);

      old = await startOld();
      const { t } = await startDashboard({ cwd, home });
      const screen = await t.waitForText("a job host of another pitwall version runs here");
      expect(screen).toContain(`A job host of pitwall 0.0.1-old (pid ${old}) serves this folder, with 1 job:`);
      expect(screen).toMatch(/1\s+running\s+sleep 63\.91/);
      t.press("Enter");
      await t.waitForText(`Stopped the job host of pitwall 0.0.1-old (pid ${old}) and its jobs`);
      expect(alivePids([old])).toEqual([]);
      expect(countLive("sleep 63.91")).toBe(0);
      // This pitwall's own host starts with its first job.
      command(t, "/run echo new-host-job; sleep 63.92");
      await t.waitForText(/[│┤] new-host-job\s+│/);
      expect(jobHostPids(home).filter((pid) => pid !== old)).toHaveLength(1);
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);

  test("a host that does not answer (stopped): one clear line, no stack; `stop all` stops it by its pid", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    // A host that never greets is given up on after hostGreetingMs (5 s by default; shortened here).
    const env = cliEnv({ extra: { PITWALL_HOME: home, PITWALL_HOST_GREETING_MS: "1000" } });
    try {
      const { t } = await startDashboard({ cwd, home });
      command(t, "/run echo frozen-job; sleep 63.81");
      await t.waitForText(/[│┤] frozen-job\s+│/);
      const [host] = jobHostPids(home);
      process.kill(host!, "SIGSTOP");
      const list = await runCli(["jobs"], env, { cwd });
      expect(list.code).toBe(1);
      expect(list.stdout).toBe("");
      expect(list.stderr).toBe(`The job host (pid ${host}) of ${cwd} does not answer: the job host did not answer within 1 s. \`pitwall jobs stop all\` stops it and its jobs by its pid.\n`);
      const stop = await runCli(["jobs", "stop", "all"], env, { cwd });
      expect(stop.stdout).toBe(`Stopped the job host (pid ${host}), which did not answer, and its jobs.\n`);
      expect(alivePids([host!])).toEqual([]);
      await waitFor(() => countLive("sleep 63.81") === 0, "the job to end with its host");
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);

  test("a host whose jobs have all ended stops: when the last dashboard quits, and after `pitwall jobs stop all`", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    const env = cliEnv({ extra: { PITWALL_HOME: home } });
    try {
      // A job that finished, nothing running: quitting leaves no host counting down for it.
      const first = await startDashboard({ cwd, home });
      command(first.t, "/run echo done-71; exit 3");
      await first.t.waitForText(/1 echo done-71; exit 3 +exit 3/);
      const [firstHost] = jobHostPids(home);
      first.t.press("Ctrl+D");
      await first.t.waitForExit();
      await first.done();
      await waitFor(() => alivePids([firstHost!]).length === 0, "the host to exit once no job runs and no client is attached");

      // Kept running, then ending on its own: the host does not keep the finished jobs for 30 minutes.
      const kept = await startDashboard({ cwd, home });
      command(kept.t, "/run while [ ! -f go ]; do sleep 0.05; done; echo went");
      await kept.t.waitForText(/▶ 1 while/);
      command(kept.t, "/run echo done-73");
      await kept.t.waitForText(/2 echo done-73 +exit 0/);
      const [keptHost] = jobHostPids(home);
      kept.t.press("Ctrl+D");
      await kept.t.waitForText("k keep it running");
      kept.t.type("k");
      await kept.t.waitForExit();
      await kept.done();
      expect(alivePids([keptHost!])).toEqual([keptHost]);
      writeFileSync(join(cwd, "go"), "");
      await waitFor(() => alivePids([keptHost!]).length === 0, "the host to exit once its kept job ended");

      // A job kept running, and one that ended: stop all ends the running one, then the host goes.
      const second = await startDashboard({ cwd, home });
      command(second.t, "/run sleep 63.72");
      await second.t.waitForText(/▶ 1 sleep 63\.72/);
      command(second.t, "/run echo done-72");
      await second.t.waitForText(/2 echo done-72 +exit 0/);
      const [secondHost] = jobHostPids(home);
      second.t.press("Ctrl+D");
      await second.t.waitForText("k keep it running");
      second.t.type("k");
      await second.t.waitForExit();
      await second.done();
      expect(alivePids([secondHost!])).toEqual([secondHost]);
      const stop = await runCli(["jobs", "stop", "all"], env, { cwd });
      expect(stop.code).toBe(0);
      await waitFor(() => countLive("sleep 63.72") === 0, "the kept job to end");
      await waitFor(() => alivePids([secondHost!]).length === 0, "the host to exit after stop all");
      expect((await runCli(["jobs"], env, { cwd })).stdout).toBe(`No job host runs in ${cwd}: no jobs.\n`);
    } finally {
      reapJobHosts(home);
    }
  }, 90_000);
});

