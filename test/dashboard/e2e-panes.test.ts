// End to end: what the side panes show (files touched, jobs, a selected call's diff), zoom and
// focus, mouse wheel, large pastes, retries and errors in the status line, config warnings, and
// the terminal given back on exit.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { waitFor } from "../helpers/conditions.js";
import { countLive } from "../helpers/processes.js";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";
import { wrapped } from "../helpers/terminal-harness.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("panes", () => {
  test("files touched get R/W/M marks, newest first; a selected edit shows its diff coloured", async () => {
    const cwd = tempFolder("pitwall-cwd-");
    writeFileSync(join(cwd, "app.ts"), "export const answer = 41;\n");
    session = await startDashboard({
      cwd,
      replies: [
        {
          kind: "reply",
          text: "Fixing.",
          toolCalls: [
            { name: "read", arguments: { file_path: "app.ts" } },
            { name: "edit", arguments: { file_path: "app.ts", old_string: "41", new_string: "42" } },
            { name: "write", arguments: { file_path: "notes/plan.md", content: "- ship it\n" } },
            { name: "bash", arguments: { command: "echo last-call" } },
          ],
        },
        { kind: "reply", text: "Fixed." },
      ],
    });
    const { t } = session;
    t.type("fix the answer");
    t.press("Enter");
    await t.waitForText("Fixed.");
    const screen = await t.waitForText(/W notes\/plan\.md[\s\S]*M app\.ts\s+\+1 −1/);
    expect(screen).not.toMatch(/R app\.ts/);
    // The last call is shown by default; Alt+Up twice selects the edit.
    expect(screen).toContain("last-call");
    t.press("Alt+Up");
    t.press("Alt+Up");
    const selected = await t.waitForText("tool output: edit app.ts");
    expect(selected).toContain("-export const answer = 41;");
    expect(selected).toContain("+export const answer = 42;");
    const buffer = t.terminal.buffer.active;
    const row = Array.from({ length: t.terminal.rows }, (_, y) => buffer.getLine(y)!).find((l) => l.translateToString().includes("+export const answer = 42;"))!;
    const x = row.translateToString().indexOf("+export");
    expect(row.getCell(x)!.getFgColor()).toBe(2);
    // The chat's selected line is marked.
    expect(selected).toMatch(/▶ edit app\.ts/);
    t.press("Alt+Up");
    await t.waitForText("tool output: read app.ts");
    await t.waitForText(/1\s+export const answer = 41;/);
  }, 40_000);

  test("a background job shows in the jobs pane; x in the jobs pane stops it; quitting ends every job", async () => {
    session = await startDashboard({
      // These jobs never end by themselves: bash_stream returns after 100 ms, its 1 s floor lowered for the test.
      env: { PITWALL_BASH_MIN_YIELD_MS: "100" },
      replies: [
        { kind: "reply", text: "Starting two servers.", toolCalls: [{ name: "bash_stream", arguments: { command: "sleep 41.5", yieldMs: 100 } }, { name: "bash_stream", arguments: { command: "sleep 42.5", yieldMs: 100 } }] },
        { kind: "reply", text: "Both are up." },
      ],
    });
    const { t } = session;
    t.type("start the servers");
    t.press("Enter");
    await t.waitForText("Both are up.");
    let screen = await t.waitForText(/1 sleep 41\.5\s+up \d/);
    expect(screen).toMatch(/2 sleep 42\.5\s+up \d/);
    expect(screen).toContain("2 jobs up");
    // Focus the jobs pane, select the first job, stop it.
    t.press("Tab");
    t.press("Tab");
    t.press("Tab");
    await t.waitForText(/▶ 1 sleep 41\.5/);
    t.type("k");
    t.type("x");
    screen = await t.waitForText(/1 sleep 41\.5\s+killed TERM/);
    expect(screen).toContain("1 job up");
    await waitFor(() => countLive("sleep 41.5") === 0, "job 1 to end");
    expect(countLive("sleep 42.5")).toBe(1);
    // With a job running, Ctrl+D asks once; Ctrl+D again answers yes.
    t.press("Ctrl+D");
    await t.waitForText("1 job running: quit and stop it? y/n");
    t.press("Ctrl+D");
    expect(await t.waitForExit()).toBe(0);
    await waitFor(() => countLive("sleep 42.5") === 0, "every job to end with pitwall");
  }, 40_000);

  test("zoom maximises the focused pane; the mouse wheel scrolls the pane under the pointer with --mouse", async () => {
    const replies = [{ kind: "reply" as const, text: Array.from({ length: 80 }, (_, i) => `line number ${i}`).join("\n\n") }];
    session = await startDashboard({ replies, args: ["--mouse"] });
    const { t } = session;
    expect(t.rawOutput).toContain("\x1b[?1000h");
    // A job, so that the side column is there to be hidden by the zoom.
    t.type("/run sleep 60");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.type("many lines");
    t.press("Enter");
    await t.waitForText("line number 79");
    t.press("Alt+Z");
    let screen = await t.waitForText(/┌─ chat ─+┐/);
    expect(screen).not.toContain("─ jobs");
    t.press("Alt+Z");
    screen = await t.waitForText("─ jobs");
    // Wheel up over the chat (column 10, row 5).
    t.type("\x1b[<64;10;5M".repeat(10));
    screen = await t.waitForText("paused · End");
    expect(screen).not.toContain("line number 79");
    t.press("Alt+1");
    t.press("End");
    await t.waitForText("line number 79");
  }, 40_000);

  test("without --mouse no mouse reporting is asked for, so the terminal's selection works", async () => {
    session = await startDashboard();
    expect(session.t.rawOutput).not.toContain("\x1b[?1000h");
    expect(session.t.rawOutput).toContain("\x1b[?2004h");
  }, 40_000);

  test("a large paste becomes a placeholder at once and is sent whole", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Got the log." }] });
    const { t, llm } = session;
    const log = Array.from({ length: 20_000 }, (_, i) => `log line ${i}`).join("\n");
    t.type(`\x1b[200~${log}\x1b[201~`);
    await t.waitForText("[Pasted text #1 +20000 lines]");
    t.type(" what failed?");
    t.press("Enter");
    await t.waitForText("Got the log.");
    const request = await llm.waitForRequest(1);
    expect(request.transcript).toContain("log line 0\nlog line 1\n");
    expect(request.transcript).toContain("log line 19999 what failed?");
  }, 40_000);

  test("a retry is shown; a failure stays in the status line until Esc dismisses it", async () => {
    session = await startDashboard({
      replies: [{ kind: "error", status: 529, message: "overloaded" }, { kind: "reply", text: "Recovered." }, { kind: "error", status: 400, message: "bad request: too many tokens" }],
    });
    const { t } = session;
    t.type("first");
    t.press("Enter");
    await t.waitForText("Recovered.");
    expect(t.screenText()).toMatch(/Retrying in \d+ ms, attempt 2\/4: .*529/);
    t.type("second");
    t.press("Enter");
    const screen = await t.waitForText(/✗ .*too many tokens/);
    await t.waitForText("● ready");
    // The status line keeps the error's start (cut short before the model and the meter give way); the chat has it whole.
    expect(screen.split("\n").at(-1)).toContain("✗ Anthropic rejected the request");
    expect(screen).toMatch(wrapped("bad request: too many tokens"));
    t.press("Escape");
    await t.waitFor(() => !t.screenText().split("\n").at(-1)!.includes("✗ Anthropic rejected") || undefined, 10_000, "the error to be dismissed");
  }, 40_000);

  test("config warnings show in the chat at start; SIGTERM gives the terminal back", async () => {
    const home = tempFolder("pitwall-home-");
    writeFileSync(join(home, "config.json"), JSON.stringify({ colour: "blue" }));
    session = await startDashboard({ home });
    const { t } = session;
    await t.waitForText('unknown field "colour"');
    process.kill(t.pid, "SIGTERM");
    await t.waitForExit();
    const tail = t.rawOutput.slice(-300);
    expect(tail).toContain("\x1b[?2004l");
    expect(tail).toContain("\x1b[?1049l");
    expect(readFileSync(join(home, "config.json"), "utf8")).toContain("colour");
  }, 40_000);
});
