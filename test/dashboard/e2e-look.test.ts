// End to end, what a person sees at a glance: a job's terminal wide enough for real logs, a queued
// steer that moves no row, and colours chosen for the terminal's background (asked with OSC 11, or
// set in config.json).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

/** The screen's borders alone: where every pane's frame is. */
function frames(screen: string): string[] {
  return screen.split("\n").map((row) => row.replace(/[^─│┌┐└┘├┤┬┴┼]/g, " "));
}

/** The status line's cells: background and foreground of the cell where `text` starts. */
function statusCell(t: PitwallTerminal, text: string): { fg: number; bg: number } | undefined {
  const cell = t.findCell(text);
  return cell && cell.y === t.terminal.rows - 1 ? { fg: cell.fg, bg: cell.bg } : undefined;
}

describe("a screen that reads at a glance", () => {
  test("at 160x48 a job's terminal is at least 80 columns wide", async () => {
    const { t } = await startDashboard({ cols: 160, rows: 48 });
    t.type("/run stty size; sleep 30");
    t.press("Enter");
    const screen = await t.waitForText(/│ \d+ \d+\s+│/);
    const cols = Number(/│ \d+ (\d+)\s+│/.exec(screen)![1]);
    expect(cols).toBeGreaterThanOrEqual(80);
    // And the chat beside it keeps a readable width.
    const divider = screen.split("\n")[1]!.indexOf("│", 1);
    expect(divider).toBeGreaterThanOrEqual(72);
  }, 40_000);

  test("a steer queued while a tool runs shows in the input's border; no row of the screen moves", async () => {
    // The suite runs until the steer has shown (a flag file), however long the typing takes.
    const { t, cwd } = await startDashboard({
      replies: [{ kind: "reply", text: "Running the suite.", toolCalls: [{ name: "bash", arguments: { command: "echo suite-started; while [ ! -f steered ]; do sleep 0.05; done; echo suite-done" } }] }, { kind: "reply", text: "All done." }],
    });
    t.type("run the suite");
    t.press("Enter");
    await t.waitForText("suite-started");
    t.type("also run the linter");
    const before = await t.waitForText("› also run the linter");
    t.press("Enter");
    const after = await t.waitForText("↳ steer: also run the linter");
    const inputTop = after.split("\n").findIndex((row) => row.includes("↳ steer: also run the linter"));
    expect(before.split("\n")[inputTop]).toContain("─ input");
    const was = frames(before);
    frames(after).forEach((row, y) => {
      if (y !== inputTop) expect(row, `row ${y}`).toBe(was[y]);
    });
    writeFileSync(join(cwd, "steered"), "");
    await t.waitForText("All done.");
  }, 40_000);

  test("on a light terminal: pitwall asks for the background after its first frame and redraws in shades that read on white", async () => {
    const { t } = await startDashboard();
    // Asked once the first frame is out; the answer is the terminal's, never typed text.
    await t.waitFor(() => (t.rawOutput.includes("\x1b]11;?") ? true : undefined), 10_000, "the background query");
    expect(t.rawOutput.indexOf("\x1b]11;?")).toBeGreaterThan(t.rawOutput.indexOf("\x1b[?2026l"));
    expect(statusCell(t, "● ready")).toEqual({ fg: 2, bg: 235 });
    t.type("\x1b]11;rgb:ffff/ffff/ffff\x1b\\");
    await t.waitFor(() => (statusCell(t, "● ready")?.bg === 254 ? true : undefined), 10_000, "the status line redrawn for a light terminal");
    // Green darkened; no black stripe; the input took nothing of the answer.
    expect(statusCell(t, "● ready")).toEqual({ fg: 28, bg: 254 });
    expect(t.screenText()).not.toContain("rgb:");
    expect(t.screenText()).toContain("› Ask pitwall to do something");
  }, 40_000);

  test("theme: light in config.json wins over the terminal's answer", async () => {
    const home = tempFolder("home");
    writeFileSync(join(home, "config.json"), JSON.stringify({ theme: "light" }));
    const { t } = await startDashboard({ home });
    await t.waitFor(() => (statusCell(t, "● ready")?.bg === 254 ? true : undefined), 10_000, "the light theme from the config");
    t.type("\x1b]11;rgb:0000/0000/0000\x1b\\");
    t.type("x");
    await t.waitForText("› x");
    expect(statusCell(t, "● ready")?.bg).toBe(254);
  }, 40_000);
});
