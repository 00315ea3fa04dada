// End to end: a bash call that outlives its wait shows in the jobs pane as a job, live; and the
// person's own commands (`!command`, /run) see no provider key in their environment.
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

/** `text` as a pane shows it wrapped: any run of spaces, line ends and borders between its words. */
function wrapped(text: string): RegExp {
  return new RegExp(text.split(" ").map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s│]+"));
}

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("bash calls and the jobs pane", () => {
  test("a bash call still running after its wait becomes a job the jobs pane shows, live", async () => {
    const server = 'echo adopted-up; i=0; while true; do i=$((i+1)); echo "beat $i"; sleep 0.3; done';
    const session = await startDashboard({
      env: { PI_BASH_YIELD_MS: "1000" },
      replies: [
        { kind: "reply", text: "Starting it.", toolCalls: [{ name: "bash", arguments: { command: server } }] },
        { kind: "reply", text: "It runs as a job now." },
      ],
    });
    const { t, llm } = session;
    t.type("start the heartbeat");
    t.press("Enter");
    await t.waitForText("It runs as a job now.");
    expect(llm.requests[1]!.transcript).toMatch(/Still running as job 1/);
    const screen = await t.waitForText(/▶ 1 echo adopted-up;.*up \d/);
    expect(screen).toContain("1 job up");
    expect(screen).toContain("adopted-up");
    // The call's line in the chat says where it went, not a finished "✓".
    expect(screen).toMatch(/▸ bash echo adopted-up.*↷ moved to job 1/);
    // The call's own output view says where its output went.
    // (Wrapped at the pane's width.)
    expect(screen).toMatch(/still running as job 1: its output goes on in the jobs[\s│]+pane/);
    // Its output keeps arriving in the job's terminal after the call returned.
    const beat = Number(/beat (\d+)/.exec(screen)?.[1] ?? "0");
    await t.waitForText(`beat ${beat + 3}`);
    // Once the job has ended, the footer says how instead of "still running".
    t.press("Alt+3");
    t.type("x");
    const ended = await t.waitForText(wrapped("ran on as job 1, which was killed by SIGTERM: its output is in the jobs pane"));
    expect(ended).not.toMatch(/still running as job 1/);
  }, 60_000);

  test("!command and the person's jobs run without the provider key", async () => {
    const session = await startDashboard({ replies: [{ kind: "reply", text: "Noted." }] });
    const { t } = session;
    command(t, "!env | grep -c ANTHROPIC_API_KEY || echo bang-no-key");
    await t.waitForText("bang-no-key");
    command(t, "/run env | grep -c ANTHROPIC_API_KEY || echo job-no-key; sleep 61.5");
    await t.waitForText("job-no-key");
  }, 60_000);
});
