// End to end: keys a person leans on all day. The --resume picker's list keys; Esc and the detach
// key arriving in one read; xterm's metaSendsEscape turned on and restored; Ctrl+Z suspends and fg
// brings the cockpit back while jobs run on; Ctrl+L redraws; /clear starts a new conversation.
import { mkdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import { waitFor } from "../helpers/conditions.js";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

/** Session files of `cwd` under `home`, "question 1" the oldest. */
function writeSessions(home: string, cwd: string, count: number): void {
  const folder = sessionFolder(join(home, "sessions"), cwd);
  mkdirSync(folder, { recursive: true });
  for (let i = 1; i <= count; i++) {
    const header = { type: "session", version: 1, id: `s${i}`, timestamp: new Date(i * 1000).toISOString(), cwd, provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0" };
    const message = { type: "message", message: { role: "user", content: `question ${i}`, origin: "prompt", timestamp: i * 1000 } };
    const path = join(folder, `session-${String(i).padStart(2, "0")}.jsonl`);
    writeFileSync(path, `${JSON.stringify(header)}\n${JSON.stringify(message)}\n`);
    utimesSync(path, new Date(1_700_000_000_000 + i * 60_000), new Date(1_700_000_000_000 + i * 60_000));
  }
}

describe("keys", () => {
  test("the --resume picker moves with j/k, g/G and Space, and q declines it", async () => {
    const home = tempFolder("home");
    const cwd = tempFolder("cwd");
    writeSessions(home, cwd, 12);
    session = await startDashboard({ home, cwd, args: ["--resume"], waitReady: false });
    const { t } = session;
    await t.waitForText("resume a session (12)");
    await t.waitForText(/▶ .*question 12/);
    t.type("j");
    await t.waitForText(/▶ .*question 11/);
    t.type("k");
    await t.waitForText(/▶ .*question 12/);
    t.type("G");
    await t.waitForText(/▶ .*question 1\b/);
    t.type("g");
    await t.waitForText(/▶ .*question 12/);
    t.type(" ");
    await t.waitForText(/▶ .*question 2\b/);
    t.type("q");
    await t.waitForNoText("resume a session");
    const screen = await t.waitForText("● ready");
    expect(screen).not.toContain("Resumed");
  }, 40_000);

  test("Esc and Ctrl+] arriving in one read: the job gets the Esc, and pitwall detaches", async () => {
    session = await startDashboard();
    const { t } = session;
    t.type("/run cat");
    t.press("Enter");
    await t.waitForText(/▶ 1 cat\s+up/);
    t.press("Alt+3");
    t.type("a");
    await t.waitForText("attached —");
    t.type("\x1b\x1d");
    const screen = await t.waitForText("detached from job 1");
    expect(screen).not.toContain("attached —");
    // The terminal echoed the Esc that reached cat (its screen comes from the job host, a frame later).
    await t.waitForText(/│ \^\[/);
  }, 40_000);

  test("xterm's metaSendsEscape is saved, turned on while pitwall runs, and restored on exit; F1 says what Alt needs", async () => {
    session = await startDashboard();
    const { t } = session;
    expect(t.rawOutput).toContain("\x1b[?1036s\x1b[?1036h");
    t.press("F1");
    await t.waitForText("Alt keys need a terminal that sends Alt as Esc");
    t.press("Escape");
    await t.waitForNoText("Alt keys need");
    t.press("Ctrl+D");
    expect(await t.waitForExit()).toBe(0);
    const restoreAt = t.rawOutput.lastIndexOf("\x1b[?1036r");
    expect(restoreAt).toBeGreaterThan(t.rawOutput.lastIndexOf("\x1b[?1036h"));
  }, 40_000);

  test("Ctrl+Z suspends pitwall to the shell while its jobs run on; fg brings the whole cockpit back", async () => {
    session = await startDashboard({ viaShell: true, replies: [{ kind: "reply", text: "Back in business." }] });
    const { t, cwd } = session;
    t.type("/run while :; do echo tick >> ticks; sleep 0.05; done");
    t.press("Enter");
    await t.waitForText(/▶ 1 while :; do echo tick/);
    await waitFor(() => statSync(join(cwd, "ticks"), { throwIfNoEntry: false }) !== undefined, "the job to write");
    const modesBefore = t.rawOutput.split("\x1b[?1036h").length;
    t.press("Ctrl+Z");
    let screen = await t.waitForText(/Stopped/);
    expect(screen).toContain("shell$");
    expect(screen).not.toContain("─ chat");
    // The job keeps running while pitwall is stopped.
    const size = statSync(join(cwd, "ticks")).size;
    await waitFor(() => statSync(join(cwd, "ticks")).size > size + 20, "the job to go on writing");
    t.type("fg\r");
    screen = await t.waitForText("─ chat");
    expect(screen).toContain("● ready");
    expect(screen).toMatch(/▶ 1 while :; do echo tick/);
    // Its terminal modes were restored for the shell and are back on, and it still works.
    expect(t.rawOutput).toContain("\x1b[?1036r");
    expect(t.rawOutput.split("\x1b[?1036h").length).toBe(modesBefore + 1);
    t.type("still there?");
    t.press("Enter");
    await t.waitForText("Back in business.");
  }, 60_000);

  test("Ctrl+Z where nothing could continue pitwall (no job control) leaves it running and says so", async () => {
    session = await startDashboard();
    const { t } = session;
    t.press("Ctrl+Z");
    const screen = await t.waitForText("Ctrl+Z did nothing: the shell that started pitwall has no job control");
    expect(screen).toContain("─ chat");
    t.type("/help");
    t.press("Enter");
    await t.waitForText("help: keys and commands");
  }, 40_000);

  test("Ctrl+L draws the whole screen again over whatever scribbled on it", async () => {
    session = await startDashboard();
    const { t } = session;
    // Something else wrote to the terminal (a stray background process).
    await new Promise<void>((resolve) => t.terminal.write("\x1b[5;5HSCRIBBLED-OVER-THE-PANES", resolve));
    await t.waitForText("SCRIBBLED-OVER-THE-PANES");
    t.press("Ctrl+L");
    const screen = await t.waitForNoText("SCRIBBLED-OVER-THE-PANES");
    expect(screen).toContain("─ chat");
  }, 40_000);

  test("/clear starts a new conversation: the chat, tool output and files start empty, the model sees nothing of before", async () => {
    const cwd = tempFolder("cwd");
    writeFileSync(join(cwd, "app.ts"), "export const answer = 41;\n");
    session = await startDashboard({
      cwd,
      replies: [
        { kind: "reply", text: "Read it.", toolCalls: [{ name: "read", arguments: { file_path: "app.ts" } }] },
        { kind: "reply", text: "The answer is 41." },
        { kind: "reply", text: "Fresh start." },
      ],
    });
    const { t, llm } = session;
    t.type("what is the answer?");
    t.press("Enter");
    await t.waitForText("The answer is 41.");
    await t.waitForText(/R app\.ts/);
    t.type("/clear");
    t.press("Enter");
    const screen = await t.waitForText("New conversation.");
    expect(screen).not.toContain("The answer is 41.");
    expect(screen).not.toMatch(/R app\.ts/);
    // No file touched any more: the files pane goes with the side column; the tool output is empty.
    expect(screen).not.toContain("─ files");
    expect(screen).toContain("Tool calls show their output here");
    t.type("hello again");
    t.press("Enter");
    await t.waitForText("Fresh start.");
    const request = (await llm.waitForRequest(3)).transcript;
    expect(request).toContain("hello again");
    expect(request).not.toContain("what is the answer?");
  }, 40_000);
});
