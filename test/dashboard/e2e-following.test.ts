// End to end: following what is live. A call the person just picked holds the tool-output pane
// while a new call runs, for as long as they read it (15 s after their last pick or scroll); the
// title names the new call and End goes to it. Sending a message ends the hold.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("following what is live", () => {
  test("a call picked just now stays while a new one runs, the title says \"new: bash … · End\", End shows the live call", async () => {
    session = await startDashboard({
      replies: [
        {
          kind: "reply",
          text: "Two calls.",
          toolCalls: [{ name: "bash", arguments: { command: "echo the-older-call; while [ ! -f picked ]; do sleep 0.05; done" } }, { name: "bash", arguments: { command: "for i in $(seq 1 400); do echo flood-$i; done; sleep 1" } }],
        },
        { kind: "reply", text: "First turn done." },
      ],
    });
    const { t, cwd } = session;
    t.type("first");
    t.press("Enter");
    await t.waitForText(/│ the-older-call\s/);
    // Picked while it runs (it runs until the pick has shown); the next call of the same turn starts while the person reads it.
    t.press("Alt+Up");
    await t.waitForText(/tool output: bash echo the-older-call.*selected/);
    writeFileSync(join(cwd, "picked"), "");
    let screen = await t.waitForText(/new: bash for i in \$.* · End/);
    expect(screen).toMatch(/─ tool output: bash e/);
    expect(screen).toMatch(/^│ the-older-call\s/m);
    t.press("Alt+2");
    t.press("End");
    await t.waitForText("tool output: bash for i in $(seq 1 400)");
    screen = await t.waitForText(/│ flood-400\s/);
    expect(screen).not.toContain("new: bash");
    await t.waitForText("First turn done.");
  }, 40_000);

  test("sending a prompt ends the hold: the pane follows the new turn's call", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Two calls.", toolCalls: [{ name: "bash", arguments: { command: "echo the-older-call" } }, { name: "bash", arguments: { command: "echo the-newer-call" } }] },
        { kind: "reply", text: "First turn done." },
        { kind: "reply", text: "Sleeping.", toolCalls: [{ name: "bash", arguments: { command: "echo long-call-started; sleep 20" } }] },
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
    await t.waitForText(/─ tool output: bash echo long-call-started; sleep 20 .*running/);
    // The call's first line may reach the pane a frame after its title.
    const screen = await t.waitForText(/│ long-call-started\s/);
    expect(screen).toMatch(/─ tool output: bash echo long-call-started; sleep 20 /);
    expect(screen).not.toContain("new: bash");
    t.press("Escape");
  }, 40_000);

  test("the hold ends readingHoldMs after the person last picked or scrolled, while the new call still runs", async () => {
    // 15 s by default; shortened here, which proves the same: held before it, live after it.
    const holdMs = 4_000;
    session = await startDashboard({
      env: { PITWALL_READING_HOLD_MS: String(holdMs) },
      replies: [
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo the-older-call; while [ ! -f picked ]; do sleep 0.05; done" } }, { name: "bash", arguments: { command: "echo long-call-started; sleep 40" } }] },
        { kind: "reply", text: "Done." },
      ],
    });
    const { t, cwd } = session;
    t.type("first");
    t.press("Enter");
    await t.waitForText(/│ the-older-call\s/);
    // Taken before the key goes out: the hold starts after it, so it cannot end sooner than holdMs from here.
    const beforePick = Date.now();
    t.press("Alt+Up");
    await t.waitForText(/tool output: bash echo the-older-call.*selected/);
    // The newer call starts only once the pick has shown, well within the hold.
    writeFileSync(join(cwd, "picked"), "");
    await t.waitForText(/new: bash echo long-call-.* · End/);
    // Nothing pressed since: after the hold the pane goes to the live call by itself.
    const screen = await t.waitForText(/─ tool output: bash echo long-call-started; sleep 40 .*running/, 25_000);
    expect(Date.now() - beforePick).toBeGreaterThanOrEqual(holdMs);
    expect(screen).not.toContain("new: bash");
    t.press("Escape");
  }, 60_000);

  test("a long output's first line says how many earlier lines the pane let go and where the full output is", async () => {
    session = await startDashboard({
      replies: [{ kind: "reply", text: "Printing.", toolCalls: [{ name: "bash", arguments: { command: "seq 1 7000" } }] }, { kind: "reply", text: "Printed." }],
    });
    const { t } = session;
    t.type("print a lot");
    t.press("Enter");
    await t.waitForText("Printed.");
    t.press("Alt+2");
    t.press("Home");
    const screen = await t.waitForText(/^│ … [\d,]+ earlier lines · full output:/m);
    expect(screen).toMatch(/bash-\d+-\w+\.log/);
    const dropped = Number(/… ([\d,]+) earlier lines/.exec(screen)![1]!.replace(/,/g, ""));
    // The line after the note is the first one kept: the note counts exactly what was let go.
    expect(screen).toMatch(new RegExp(`^│ ${dropped + 1}\\s`, "m"));
  }, 40_000);

  test("bash_stream's output in the tool-output pane keeps its colours, as in the job's terminal", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Starting.", toolCalls: [{ name: "bash_stream", arguments: { command: "printf '\\033[31mred-server-line\\033[0m\\n'; sleep 30", readyPattern: "red-server-line", yieldMs: 1000 } }] },
        { kind: "reply", text: "Started." },
      ],
    });
    const { t } = session;
    t.type("start it");
    t.press("Enter");
    await t.waitForText("Started.");
    await t.waitForText(/tool output: bash_stream/);
    const cell = await t.waitFor(() => {
      const buffer = t.terminal.buffer.active;
      for (let y = 0; y < t.terminal.rows; y++) {
        const line = buffer.getLine(y)!;
        // The left column: the tool-output pane (the job's terminal on the right shows it too).
        if (line.translateToString().startsWith("│ red-server-line")) return line.getCell(2)!;
      }
      return undefined;
    }, 10_000, "the red line in the tool-output pane");
    expect(cell.getFgColor()).toBe(1);
  }, 40_000);
});
