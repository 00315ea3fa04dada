// End to end: a job's terminal as faithful as tmux's. The mouse reaches a job that asked for it
// (SGR 1006 or X10 bytes, the job's own coordinates) while it is attached or zoomed, and never one
// that did not; the job's hidden cursor stays hidden and its cursor shape is the terminal's while
// attached; 24-bit colour reaches a terminal that has it and is rounded for one that does not; a
// ZWJ sequence and an emoji with VS16 are painted whole.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

function run(t: PitwallTerminal, command: string): void {
  t.press("Alt+0");
  t.type(`/run ${command}`);
  t.press("Enter");
}

/**
 * A job that asks for mouse reports (sgr: 1000 + 1006, x10: 1000 alone, none: nothing), then prints
 * every byte it is sent, control bytes as <n>, a line for each escape sequence.
 */
const MOUSE_JOB = `
const modes = { sgr: "\\x1b[?1000h\\x1b[?1006h", x10: "\\x1b[?1000h", none: "" };
process.stdin.setRawMode(true);
process.stdout.write(modes[process.argv[2]] + "MOUSE-READY " + process.argv[2] + "\\r\\n");
process.stdin.on("data", (data) => {
  for (const part of data.toString("latin1").split(/(?=\\x1b)/)) {
    const shown = [...part].map((c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) > 126 ? "<" + c.charCodeAt(0) + ">" : c)).join("");
    process.stdout.write("got " + shown + "\\r\\n");
  }
});
setTimeout(() => undefined, 600_000);
`;

/** The mouse modes pitwall asked of its terminal (what the harness's emulator recorded). */
function outerMouse(t: PitwallTerminal): string {
  return t.terminal.modes.mouseTrackingMode;
}

/** xterm's internal cursor state of the harness's emulator: whether the cursor is hidden, and its style. */
function outerCursor(t: PitwallTerminal): { hidden: boolean; style: string | undefined; blink: boolean | undefined } {
  const core = (t.terminal as unknown as { _core: { coreService: { isCursorHidden: boolean; decPrivateModes: { cursorStyle?: string; cursorBlink?: boolean } } } })._core;
  return { hidden: core.coreService.isCursorHidden, style: core.coreService.decPrivateModes.cursorStyle, blink: core.coreService.decPrivateModes.cursorBlink };
}

/** An SGR mouse report as a terminal sends it to pitwall, at 0-based screen cell (x, y). */
function sgrMouse(code: number, x: number, y: number, release = false): string {
  return `\x1b[<${code};${x + 1};${y + 1}${release ? "m" : "M"}`;
}

describe("job terminal fidelity", () => {
  test("mouse reports reach a job that asked for them, in its encoding and coordinates, while attached or zoomed; none reach a job that did not", async () => {
    const { t, cwd } = await startDashboard();
    writeFileSync(join(cwd, "mouse.js"), MOUSE_JOB);
    // Without --mouse pitwall asks its terminal for no mouse reports.
    expect(outerMouse(t)).toBe("none");

    run(t, "node mouse.js sgr");
    await t.waitForText("MOUSE-READY sgr");
    const origin = t.findCell("MOUSE-READY")!;
    // Not in front (the jobs pane neither attached nor zoomed): the terminal is not asked for the mouse.
    expect(outerMouse(t)).toBe("none");
    t.press("Alt+3");
    t.type("a");
    await t.waitForText("attached — Ctrl+] to detach");
    await t.waitFor(() => outerMouse(t) === "vt200", 10_000, "pitwall to ask its terminal for mouse reports");
    // A click at the job's column 5, row 3 (1-based), the wheel there, and the release.
    t.type(sgrMouse(0, origin.x + 4, origin.y + 2));
    t.type(sgrMouse(0, origin.x + 4, origin.y + 2, true));
    t.type(sgrMouse(65, origin.x + 4, origin.y + 2));
    await t.waitForText("got <27>[<65;5;3M");
    let screen = t.screenText();
    expect(screen).toContain("got <27>[<0;5;3M");
    expect(screen).toContain("got <27>[<0;5;3m");
    // A click outside the job's terminal is not the job's.
    t.type(sgrMouse(0, 0, 0));
    t.type(sgrMouse(0, 0, 0, true));
    t.type("k");
    await t.waitForText("got k");
    expect(t.screenText()).not.toContain("<27>[<0;-");
    t.press("Ctrl+]");
    await t.waitForText("detached from job 1");
    await t.waitFor(() => outerMouse(t) === "none", 10_000, "pitwall to stop asking for the mouse once detached");

    // Zoomed, without attaching: a click still goes to the job.
    t.type("z");
    await t.waitFor(() => outerMouse(t) === "vt200", 10_000, "the zoomed job's mouse");
    const zoomed = t.findCell("MOUSE-READY")!;
    t.type(sgrMouse(2, zoomed.x + 9, zoomed.y + 1));
    await t.waitForText("got <27>[<2;10;2M");
    t.type("z");
    await t.waitFor(() => outerMouse(t) === "none", 10_000, "unzoomed, no mouse");

    // A job that asked for X10's bytes gets them.
    run(t, "node mouse.js x10");
    await t.waitForText("MOUSE-READY x10");
    t.press("Alt+3");
    t.type("j");
    t.type("a");
    await t.waitForText("job 2 attached");
    await t.waitFor(() => outerMouse(t) === "vt200", 10_000, "the X10 job's mouse");
    const x10 = t.findCell("MOUSE-READY x10")!;
    t.type(sgrMouse(0, x10.x + 4, x10.y + 2));
    // Button 0 + 32 is a space, column 5 + 32 is "%", row 3 + 32 is "#".
    await t.waitForText("got <27>[M %#");
    t.press("Ctrl+]");
    await t.waitForText("detached from job 2");

    // A job that asked for nothing: the terminal is not asked, and nothing that looks like a report is passed on.
    run(t, "node mouse.js none");
    await t.waitForText("MOUSE-READY none");
    t.press("Alt+3");
    t.type("j");
    t.type("a");
    await t.waitForText("job 3 attached");
    const none = t.findCell("MOUSE-READY none")!;
    t.type(sgrMouse(0, none.x + 4, none.y + 2));
    t.type(sgrMouse(0, none.x + 4, none.y + 2, true));
    t.type("q");
    await t.waitForText("got q");
    screen = t.screenText();
    const after = screen.slice(screen.indexOf("MOUSE-READY none"));
    expect(after).not.toContain("<27>");
    expect(outerMouse(t)).toBe("none");
  }, 60_000);

  test("attached, the job's hidden cursor stays hidden and its cursor shape is used; detached, the terminal's own shape comes back", async () => {
    const { t, cwd } = await startDashboard();
    writeFileSync(join(cwd, "cursor.sh"), `printf 'HIDDEN-CURSOR\\e[?25l'; read line; printf '\\e[?25h\\e[6 q BAR-CURSOR'; sleep 600`);
    run(t, "bash cursor.sh");
    await t.waitForText("HIDDEN-CURSOR");
    t.press("Alt+3");
    t.type("a");
    await t.waitForText("attached — Ctrl+] to detach");
    await t.waitFor(() => outerCursor(t).hidden, 10_000, "the cursor to stay hidden while attached to a job that hid it");
    t.press("Enter");
    await t.waitForText("BAR-CURSOR");
    await t.waitFor(() => {
      const cursor = outerCursor(t);
      return !cursor.hidden && cursor.style === "bar" && cursor.blink === false;
    }, 10_000, "the job's steady bar cursor");
    t.press("Ctrl+]");
    await t.waitForText("detached from job 1");
    await t.waitFor(() => outerCursor(t).style === undefined, 10_000, "the terminal's own cursor shape back");
  }, 40_000);

  const PAINT = `printf '\\e[1;38;2;0;200;0mRGB\\e[0m \\e[48;2;255;128;0mBG\\e[0m\\n'; sleep 600`;

  test("with COLORTERM=truecolor a job's 24-bit colour reaches the terminal as it is", async () => {
    const { t, cwd } = await startDashboard({ env: { COLORTERM: "truecolor" } });
    writeFileSync(join(cwd, "paint.sh"), PAINT);
    run(t, "bash paint.sh");
    await t.waitForText("RGB BG");
    const rgb = t.findCell("RGB")!;
    expect(rgb).toMatchObject({ fgRgb: true, fg: 0x00c800, bold: true });
    expect(t.rawOutput).toContain("38;2;0;200;0");
    expect(t.rawOutput).toContain("48;2;255;128;0");
  }, 40_000);

  test("a terminal that answers the query with the 24-bit colour it was set gets a job's 24-bit colours too", async () => {
    const { t, cwd } = await startDashboard();
    // pitwall asked (DECRQSS after setting a 24-bit background); this terminal answers as xterm does.
    expect(t.rawOutput).toContain("\x1b[0;48;2;1;2;3m\x1bP$qm\x1b\\");
    t.type("\x1bP1$r0;48:2::1:2:3m\x1b\\");
    writeFileSync(join(cwd, "paint.sh"), PAINT);
    run(t, "bash paint.sh");
    await t.waitForText("RGB BG");
    await t.waitFor(() => t.findCell("RGB")?.fgRgb, 10_000, "the 24-bit colour");
    expect(t.findCell("RGB")).toMatchObject({ fg: 0x00c800 });
    // The answer was not typed into the input.
    expect(t.screenText()).not.toContain("$r0");
  }, 40_000);

  test("without it (no COLORTERM, no known terminal, no answer to the query) it is rounded to the nearest of the 256", async () => {
    const { t, cwd } = await startDashboard();
    writeFileSync(join(cwd, "paint.sh"), PAINT);
    run(t, "bash paint.sh");
    await t.waitForText("RGB BG");
    expect(t.findCell("RGB")).toMatchObject({ fgRgb: false, fg: 40, bold: true });
    expect(t.rawOutput).not.toContain("38;2;0;200;0");
    expect(t.rawOutput).not.toContain("48;2;255;128;0");
    expect(t.rawOutput).toContain("48;5;208");
  }, 40_000);

  test("a ZWJ sequence and an emoji with VS16 are painted whole, in the columns the job's emulator gave them", async () => {
    const { t, cwd } = await startDashboard();
    writeFileSync(join(cwd, "emoji.sh"), `printf '[\\U1F468\\u200d\\U1F469\\u200d\\U1F467]<\\u2764\\ufe0f>e\\u0301|\\n'; sleep 600`);
    run(t, "bash emoji.sh");
    await t.waitForText("e\u0301|");
    const open = t.findCell("[")!;
    const line = t.terminal.buffer.active.getLine(t.terminal.buffer.active.viewportY + open.y)!;
    const cells = [0, 1, 3, 5, 7, 8, 9, 10, 11].map((dx) => line.getCell(open.x + dx)!.getChars());
    expect(cells).toEqual(["[", "\u{1F468}\u200d", "\u{1F469}\u200d", "\u{1F467}", "]", "<", "\u2764\ufe0f", ">", "e\u0301"]);
    // The pane's border after the row stays where it belongs.
    expect([...t.screenText().split("\n")[open.y]!].at(-1)).toBe("│");
  }, 40_000);
});
