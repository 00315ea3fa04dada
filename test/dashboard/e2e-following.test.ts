// End to end: following what is live. A call the person just picked holds the tool-output pane
// while a new call runs; the title names the new call and End goes to it.
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("following what is live", () => {
  test("a call picked just now stays while a new one runs, the title says \"new: bash … · End\", End shows the live call", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Two calls.", toolCalls: [{ name: "bash", arguments: { command: "echo the-older-call" } }, { name: "bash", arguments: { command: "echo the-newer-call" } }] },
        { kind: "reply", text: "First turn done." },
        { kind: "reply", text: "Flooding.", toolCalls: [{ name: "bash", arguments: { command: "for i in $(seq 1 400); do echo flood-$i; done" } }] },
        { kind: "reply", text: "Second turn done." },
      ],
    });
    const { t } = session;
    t.type("first");
    t.press("Enter");
    await t.waitForText("First turn done.");
    t.press("Alt+Up");
    await t.waitForText("tool output: bash echo the-older-call");
    t.type("second");
    t.press("Enter");
    await t.waitForText("Second turn done.");
    let screen = await t.waitForText(/new: bash for i in \$.* · End/);
    expect(screen).toMatch(/─ tool output: bash e/);
    expect(screen).toMatch(/^│ the-older-call\s/m);
    t.press("Alt+2");
    t.press("End");
    screen = await t.waitForText("tool output: bash for i in $(seq 1 400)");
    expect(screen).toMatch(/│ flood-400\s/);
    expect(screen).not.toContain("new: bash");
  }, 40_000);
});
