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
        { kind: "reply", text: "Starting.", toolCalls: [{ name: "bash_stream", arguments: { command: "printf '\\033[31mred-server-line\\033[0m\\n'; sleep 30", yieldMs: 1000 } }] },
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
