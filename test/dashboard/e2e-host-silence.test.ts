// The dashboard shows a job host that stopped answering in the jobs pane (its title, in red), Esc
// still ends the turn at once, and once the host answers again (continued), the pane says nothing
// more of it.
import { describe, expect, it } from "vitest";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import { jobHostPids } from "../helpers/job-hosts.js";
import { wrapped } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

describe("a job host that stops answering, in the dashboard", () => {
  it("is shown in the jobs pane; Esc ends the turn at once; answering again clears it", async () => {
    const { t } = await startDashboard({
      env: { PITWALL_HOST_SILENCE_MS: "1500" },
      replies: [
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo waiting; sleep 30" } }] },
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo second" } }] },
        { kind: "reply", text: "the host did not answer" },
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo third-call-ran" } }] },
        { kind: "reply", text: "it answers again" },
      ],
    });
    t.type("/run sleep 3011");
    t.press("Enter");
    await t.waitForText(/1 up/);
    const [host] = jobHostPids(t.home);
    process.kill(host!, "SIGSTOP");
    try {
      t.type("run the slow thing");
      t.press("Enter");
      await t.waitForText("waiting");
      // Esc ends the turn while the stopped host holds the call.
      t.press("Escape");
      await t.waitForText(/● ready/);
      await t.waitForText(wrapped("Aborted: the job host did not confirm the stop in time"));
      t.type("again");
      t.press("Enter");
      await t.waitForText("host not answering");
      expect(t.findCell("host not answering")).toMatchObject({ fg: 1 });
      await t.waitForText("the host did not answer");
    } finally {
      process.kill(host!, "SIGCONT");
    }
    t.type("try once more");
    t.press("Enter");
    await t.waitForText("it answers again");
    await t.waitForNoText("host not answering");
    expect(t.screenText()).toContain("third-call-ran");
  }, 60_000);
});
