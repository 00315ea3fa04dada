// A remote session in the dashboard: the status bar and the jobs pane say where the tools and jobs
// run, the agent's bash runs there, a job the person starts runs there, and a `!command` says it
// runs on this machine. The sandbox fences the agent's commands there, and the chat says what it
// stopped; a remote that cannot fence is told once, in the status bar and the chat, and a refusal
// under --sandbox required names it. A `!command` under a personSandbox profile is fenced on this
// machine: when this machine cannot fence it, the chat says so once, and --sandbox required refuses it.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { wrapped, type PitwallTerminal } from "../helpers/terminal-harness.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { requireBubblewrap } from "../sandbox/sandbox-fixture.js";

endDashboardsAfterEach();
let sshd: TestSshd;
/** A remote whose bubblewrap is a program that is not there. */
let bare: TestSshd;

beforeAll(async () => {
  await requireBubblewrap();
  sshd = await startTestSshd();
  bare = await startTestSshd({ withoutBwrap: true });
});
afterAll(async () => {
  await sshd?.stop();
  await bare?.stop();
});

const occurrences = (text: string, part: string): number => text.split(part).length - 1;

/** A PITWALL_HOME (the dashboard's HOME too) whose config.json holds `config`. */
function homeWithConfig(config: Record<string, unknown>): string {
  const home = tempFolder("home");
  writeFileSync(join(home, "config.json"), JSON.stringify(config));
  return home;
}

describe("a remote session in the dashboard", () => {
  it("shows where things run, runs the agent's bash and the person's jobs there, and a !command here", async () => {
    writeFileSync(join(sshd.remoteProject, "marker.txt"), "on-the-remote\n");
    const spec = `box:${sshd.remoteProject}`;
    const { t } = await startDashboard({
      cols: 160,
      rows: 40,
      args: ["--remote", spec],
      env: { PITWALL_SSH_COMMAND: sshd.sshCommand },
      replies: [{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "cat marker.txt" } }] }, { kind: "reply", text: "done reading" }],
    });
    await t.waitForText(`⇄ ${spec}`, 30_000);
    t.type("read the marker");
    t.press("Enter");
    await t.waitForText("on-the-remote", 30_000);
    await t.waitForText("done reading");
    t.type("/run cat marker.txt; sleep 30");
    t.press("Enter");
    await t.waitForText(/1 up/, 30_000);
    // The jobs pane (shown once there is a job) says where they run; the title is cut to the pane's width.
    await t.waitForText("jobs on box:/tmp/");
    // Its terminal shows what it printed there.
    await t.waitForText("job 1: cat marker.txt");
    t.type("!pwd");
    t.press("Enter");
    await t.waitForText("! pwd (on this machine, not box:/tmp/");
  });

  it("fences the agent's commands on the remote and says in the chat what the fence stopped", async () => {
    const project = join(sshd.remoteProject, "fenced-dashboard");
    mkdirSync(project, { recursive: true });
    const target = join(sshd.remoteHome, "dashboard-escape.txt");
    const { t } = await startDashboard({
      cols: 160,
      rows: 48,
      args: ["--remote", `box:${project}`],
      env: { PITWALL_SSH_COMMAND: sshd.sshCommand },
      replies: [{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `echo out > ${target}` } }] }, { kind: "reply", text: "the fence said no" }],
    });
    await t.waitForText("⇄ box:", 30_000);
    t.type("write outside");
    t.press("Enter");
    await t.waitForText("the fence said no", 30_000);
    const screen = await t.waitForText(wrapped("The sandbox (workspace) stopped the agent's bash call"));
    expect(screen).not.toContain("⚠ unfenced");
    expect(existsSync(target)).toBe(false);
  });

  it("says once, in the status bar and the chat, that a remote without bubblewrap runs the commands unfenced, and runs them", async () => {
    const project = join(bare.remoteProject, "unfenced-dashboard");
    mkdirSync(project, { recursive: true });
    const outside = tempFolder("remote-outside");
    const { t } = await startDashboard({
      cols: 160,
      rows: 48,
      args: ["--remote", `box:${project}`],
      env: { PITWALL_SSH_COMMAND: bare.sshCommand },
      replies: [{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `echo ran > ${outside}/ran.txt && echo ok` } }] }, { kind: "reply", text: "it ran" }],
    });
    await t.waitForText("⚠ unfenced", 30_000);
    await t.waitForText(wrapped("run unfenced, with the ssh login's permissions there"));
    expect(t.screenText()).toMatch(wrapped("install bubblewrap (Debian and Ubuntu: apt install"));
    t.type("write it");
    t.press("Enter");
    await t.waitForText("it ran", 30_000);
    expect(readFileSync(join(outside, "ran.txt"), "utf8")).toBe("ran\n");
    // Once (the notice names a temp path of random length, so it may wrap anywhere).
    expect(occurrences(t.screenText(), "⚠ unfenced")).toBe(1);
    expect(t.screenText().match(new RegExp(wrapped("run unfenced, with the ssh login's permissions there").source, "g"))).toHaveLength(1);
  });

  it("names the remote, not 'here', when --sandbox required refuses a job the person starts there", async () => {
    const project = join(bare.remoteProject, "required-dashboard");
    mkdirSync(project, { recursive: true });
    const { t } = await startDashboard({
      cols: 160,
      rows: 48,
      args: ["--remote", `box:${project}`, "--sandbox", "required"],
      env: { PITWALL_SSH_COMMAND: bare.sshCommand },
      home: homeWithConfig({ personSandbox: "workspace" }),
    });
    await t.waitForText("no sandbox: commands refused", 30_000);
    t.type("/run echo ran > ran.txt");
    t.press("Enter");
    const screen = await t.waitForText(wrapped("cannot be made on box: the bubblewrap program"), 30_000);
    expect(screen).toMatch(wrapped("To fix it, on box: install bubblewrap"));
    expect(screen).not.toMatch(wrapped("cannot be made here"));
    expect(existsSync(join(project, "ran.txt"))).toBe(false);
  });
});

describe("a !command in a remote session, where this machine cannot fence it", () => {
  /**
   * A dashboard on `box:<folder>` under `--sandbox <sandbox>` and the person's workspace profile,
   * whose machine's bubblewrap is a program that is not there (the remote's is there); `outside` is
   * a local folder the person's commands write to.
   */
  async function startWithoutLocalBwrap(folder: string, sandbox: "workspace" | "required"): Promise<{ t: PitwallTerminal; outside: string }> {
    const project = join(sshd.remoteProject, folder);
    mkdirSync(project, { recursive: true });
    const { t } = await startDashboard({
      cols: 160,
      rows: 48,
      args: ["--remote", `box:${project}`, "--sandbox", sandbox],
      env: { PITWALL_SSH_COMMAND: sshd.sshCommand, PITWALL_BWRAP: join(tempFolder("no-local-bwrap"), "bwrap") },
      home: homeWithConfig({ personSandbox: "workspace" }),
    });
    return { t, outside: tempFolder("local-outside") };
  }

  it("says once in the chat that the person's !commands run unfenced here, and runs them", async () => {
    const { t, outside } = await startWithoutLocalBwrap("local-unfenced", "workspace");
    await t.waitForText("⇄ box:", 30_000);
    await t.waitForText(wrapped("Your !commands run on this machine unfenced, with your permissions: the bubblewrap program"), 30_000);
    expect(t.screenText()).toMatch(wrapped("To fence them, install bubblewrap (Debian and Ubuntu: apt install"));
    // The remote fences the agent's commands: the status line says nothing is unfenced there.
    expect(t.screenText()).not.toContain("⚠ unfenced");
    // What it prints is not what was typed: the typed line shows at once.
    t.type(`!echo local > ${outside}/local.txt && echo "wrote $((6 * 7))"`);
    t.press("Enter");
    await t.waitForText("wrote 42", 30_000);
    expect(readFileSync(join(outside, "local.txt"), "utf8")).toBe("local\n");
    expect(t.screenText().match(new RegExp(wrapped("Your !commands run on this machine unfenced").source, "g"))).toHaveLength(1);
  });

  it("refuses the person's !command under --sandbox required, saying this machine cannot fence it", async () => {
    const { t, outside } = await startWithoutLocalBwrap("local-required", "required");
    await t.waitForText(wrapped("Your !commands will not run: --sandbox required, and no sandbox can be made on this machine, where they run"), 30_000);
    t.type(`!touch ${outside}/touched.txt`);
    t.press("Enter");
    await t.waitForText(wrapped("Not run: the sandbox is required (--sandbox required) and cannot be made on this machine: the bubblewrap program"), 30_000);
    expect(existsSync(join(outside, "touched.txt"))).toBe(false);
  });
});
