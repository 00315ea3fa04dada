// End to end: what a job's terminal looks like in the jobs pane. Colours and wide characters as a
// terminal shows them, progress bars drawn in place, full-screen programs (top, vim), its own
// scrollback, the pty sized to the pane (and to the zoomed pane), the mark for output not yet seen,
// and copying the screen or the log to the clipboard with OSC 52.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";
import { waitFor } from "../helpers/conditions.js";
import { countLive } from "../helpers/processes.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

function run(t: PitwallTerminal, command: string): void {
  t.press("Alt+0");
  t.type(`/run ${command}`);
  t.press("Enter");
}

/** The text of every OSC 52 sequence pitwall wrote so far, decoded. */
function clipboardWrites(t: PitwallTerminal): string[] {
  return [...t.rawOutput.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1]!, "base64").toString("utf8"));
}

describe("job terminal", () => {
  test("colours, 24-bit colour, wide characters and progress bars show as in a terminal; the border stays put", async () => {
    session = await startDashboard();
    const { t, cwd } = session;
    writeFileSync(
      join(cwd, "paint.sh"),
      `printf '\\e[31mRED\\e[0m \\e[1;38;2;0;200;0mRGB\\e[0m 中文X 🚀Y\\n'; for i in 1 2 3 4 5; do printf '\\rprogress %d%%' $((i*20)); sleep 0.05; done; echo; echo painted; sleep 63.11`,
    );
    run(t, "bash paint.sh");
    await t.waitForText("painted");
    const screen = await t.waitForText("progress 100%");
    expect(screen).not.toMatch(/progress 20%|progress 40%/);
    const red = t.findCell("RED")!;
    expect(red.fg).toBe(1);
    const rgb = t.findCell("RGB")!;
    // 24-bit colour is shown as the nearest of the 256 colours (0,200,0 → 40), bold kept.
    expect(rgb.fg).toBe(40);
    expect(rgb.bold).toBe(true);
    const cjk = t.findCell("中文X")!;
    expect(t.findCell("X 🚀")!.x).toBe(cjk.x + 4);
    const rocket = t.findCell("🚀Y")!;
    const line = t.terminal.buffer.active.getLine(t.terminal.buffer.active.viewportY + rocket.y)!;
    expect(line.getCell(rocket.x)!.getChars()).toBe("🚀");
    expect(line.getCell(rocket.x + 2)!.getChars()).toBe("Y");
    const row = screen.split("\n")[cjk.y]!;
    expect([...row].at(-1)).toBe("│");
  }, 40_000);

  test("full-screen programs: top draws its table, vim its buffer; zooming resizes the pty and they redraw", async () => {
    session = await startDashboard();
    const { t, cwd } = session;
    writeFileSync(join(cwd, "notes.txt"), "first line of the notes\nsecond line\n");
    run(t, "top -d 0.5");
    // The pane is 44 columns wide: top's first line is cut there, as in a terminal that narrow, so
    // how much of it shows depends on the uptime ("up  1:05," or "up 40 min,"); the load average
    // shows once the pane is zoomed, below.
    await t.waitForText(/top - \d+:\d+:\d+ up\s+\d/);
    await t.waitForText(/PID\s+USER/);
    run(t, "vim -u NONE -N -c 'set ruler' notes.txt");
    await t.waitForText("first line of the notes");
    let screen = await t.waitForText(/"notes\.txt" 2L/);
    // vim fills the rows below the text with ~.
    expect(screen.match(/│ ~\s+│/g)?.length ?? 0).toBeGreaterThan(3);
    // Zoomed, the terminal gets the whole width: vim redraws for it (its ruler moves to the right).
    t.press("Alt+3");
    t.type("z");
    screen = await t.waitFor(() => {
      const s = t.screenText();
      const ruler = s.split("\n").find((l) => /\b1,1\s+All/.test(l));
      return ruler && ruler.indexOf("All") > 100 ? s : undefined;
    }, 15_000, "vim to redraw at the zoomed width");
    expect(screen).toContain("first line of the notes");
    // Attached, vim gets its keys: quit it.
    t.type("a");
    await t.waitForText("attached — Ctrl+] to detach");
    t.press("Escape");
    t.type(":q!");
    t.press("Enter");
    await t.waitForText(/2 vim -u NONE -N -c 'set ruler' notes\.txt\s+exit 0/);
    await t.waitForNoText("attached —");
    t.type("k");
    await t.waitForText(/load average: [\d.]+, [\d.]+, [\d.]+/);
    t.type("x");
    // top ends cleanly on TERM.
    await t.waitForText(/1 top -d 0\.5\s+exit 0/);
    await waitFor(() => countLive("top -d 0.5") === 0, "top to end");
  }, 60_000);

  test("the pty takes the pane's size, and the zoomed size; scrollback pauses following until End", async () => {
    session = await startDashboard();
    const { t, cwd } = session;
    writeFileSync(join(cwd, "size.sh"), `trap 'echo "size $(stty size)"' WINCH; echo "size $(stty size)"; while :; do sleep 0.1; done`);
    run(t, "bash size.sh");
    // The side column is half of 120 columns: the pane is 56 columns wide inside its border and margins.
    await t.waitForText(/size \d+ 56\b/);
    t.press("Alt+3");
    t.type("z");
    await t.waitForText(/size \d+ 116\b/);
    t.type("z");
    await t.waitForText(/size \d+ 56\b/);
    t.type("x");
    await t.waitForText(/bash size\.sh\s+killed TERM/);

    run(t, "seq -f 'row %g' 1 300; sleep 63.21");
    await t.waitForText(/[│┤] row 300\s+│/);
    t.press("Alt+3");
    t.press("PageUp");
    let screen = await t.waitForText(/paused ↑\d+ · End/);
    expect(screen).not.toMatch(/[│┤] row 300\s+│/);
    t.press("Home");
    screen = await t.waitForText(/[│┤] row 1\s+│/);
    expect(screen).toMatch(/[│┤] row 2\s+│/);
    t.press("End");
    screen = await t.waitForText(/[│┤] row 300\s+│/);
    expect(screen).not.toContain("paused ↑");
  }, 60_000);

  test("a job that printed while another was on screen is marked until the person looks at it", async () => {
    session = await startDashboard();
    const { t, cwd } = session;
    run(t, "sleep 63.31");
    await t.waitForText(/▶ 1 sleep 63\.31\s+up/);
    run(t, "sleep 0.5; echo late-output; sleep 63.32");
    await t.waitForText(/▶ 2 sleep 0\.5/);
    // Job 2 is on screen, so its output is seen: no mark.
    await t.waitForText("late-output");
    expect(t.screenText()).not.toMatch(/•2 /);
    // Job 3 prints once the test says so (a file appears), whatever the machine's speed.
    run(t, "until [ -e go ]; do sleep 0.05; done; echo later-still; sleep 63.33");
    await t.waitForText(/▶ 3 until \[ -e go \]/);
    t.press("Alt+3");
    t.type("k");
    await t.waitForText(/▶ 2 sleep 0\.5/);
    writeFileSync(join(cwd, "go"), "");
    // Job 3 prints while job 2 is shown: job 3 gets the mark.
    await t.waitForText(/ •3 until \[ -e go \]/);
    t.type("j");
    await t.waitForText("later-still");
    await t.waitForText(/▶ 3 until/);
    expect(t.screenText()).not.toMatch(/•3 /);
  }, 60_000);

  test("c copies the visible screen, C the whole log, to the clipboard with OSC 52", async () => {
    session = await startDashboard();
    const { t } = session;
    run(t, "seq -f 'line %g' 1 500; sleep 63.41");
    await t.waitForText(/[│┤] line 500\s+│/);
    t.press("Alt+3");
    t.type("c");
    await t.waitForText(/copied the visible screen of job 1 \(\d+ lines\)/);
    const screenCopy = clipboardWrites(t).at(-1)!;
    expect(screenCopy.split("\n").at(-1)).toBe("line 500");
    expect(screenCopy).not.toContain("line 1\n");
    t.type("C");
    await t.waitForText("copied the log of job 1 (500 lines)");
    const logCopy = clipboardWrites(t).at(-1)!;
    expect(logCopy.startsWith("line 1\nline 2\n")).toBe(true);
    expect(logCopy.trimEnd().endsWith("line 500")).toBe(true);
    t.type("x");
    await waitFor(() => countLive("sleep 63.41") === 0, "the job to end");
  }, 40_000);

  test("at 80x24 the attached border still says so and how to leave; keys reach cat until Ctrl+]", async () => {
    session = await startDashboard({ cols: 80, rows: 24 });
    const { t } = session;
    await t.waitForText("Tool calls show their output here");
    run(t, "cat");
    // At 80 columns the job brings tabs: the jobs tab has the whole width.
    await t.waitForText(/jobs 1↑/);
    t.press("Alt+3");
    await t.waitForText(/▶ 1 cat\s+up/);
    t.type("a");
    await t.waitForText("─ job 1 attached — Ctrl+] to detach ─");
    // The whole jobs pane is drawn in the attach colour: the list's border as well as the terminal's.
    await t.waitFor(() => (t.findCell("─ jobs")?.fg === 3 ? true : undefined), 10_000, "the job list's border in the attach colour");
    expect(t.findCell("─ job 1 attached")?.fg).toBe(3);
    t.type("typed into cat");
    t.press("Enter");
    // The terminal echoes the line, then cat prints it: twice.
    await t.waitFor(() => ((t.screenText().match(/│ typed into cat/g) ?? []).length === 2 ? true : undefined), 10_000, "cat to echo the line");
    t.press("Ctrl+D");
    // Ctrl+D went to cat (end of input), not to pitwall's quit: cat ends, pitwall detaches.
    await t.waitForText("job 1 ended: detached");
    await t.waitForText(/1 cat\s+exit 0/);
    expect(t.hasExited).toBe(false);
  }, 40_000);

  test("a finished job's screen re-wraps in a narrower pane, as a running job's does, rather than being cut", async () => {
    session = await startDashboard({ cols: 200, rows: 40 });
    const { t } = session;
    // One long line (about 70 columns) and an end marker; the job then exits.
    run(t, "printf 'start-%s-end\\n' $(printf 'w%.0s' $(seq 1 60)); echo finished");
    await t.waitForText(/▶ 1 printf.*exit 0/);
    await t.waitForText(/│ finished +│/);
    t.resize(64, 40);
    // At 64 columns the panes are tabs: the jobs' tab shows the job's terminal, 60 columns wide.
    t.press("Alt+3");
    // The pane is now narrower than the line: its end shows on the next row, wrapped.
    const screen = await t.waitForText(/│ w+-end +│/);
    expect(screen).toMatch(/│ start-w+ ?│/);
  }, 60_000);
});

