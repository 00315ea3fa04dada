// A remote session in the dashboard: the status bar and the jobs pane say where the tools and jobs
// run, the agent's bash runs there, a job the person starts runs there, and a `!command` says it
// runs on this machine.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";

endDashboardsAfterEach();
let sshd: TestSshd;

beforeAll(async () => {
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

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
});
