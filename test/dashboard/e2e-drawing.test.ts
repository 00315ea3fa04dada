// End to end: how the cockpit is drawn, read from the emulator's cells: colours a person can read
// (the quit question, links), the status line without a model, glyphs every monospace font has,
// selection as one background colour, fenced code, the help table, TERM=linux and NO_COLOR.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";
import type { IBufferCell } from "@xterm/headless";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

/** The selection's background on a dark 256-colour terminal (screen/palette.ts). */
const SELECTION_GREY = 238;

interface CellInfo {
  ch: string;
  fg: number;
  bg: number;
  fgDefault: boolean;
  bgDefault: boolean;
  bold: boolean;
  inverse: boolean;
}

function cellInfo(c: IBufferCell): CellInfo {
  return { ch: c.getChars(), fg: c.getFgColor(), bg: c.getBgColor(), fgDefault: c.isFgDefault(), bgDefault: c.isBgDefault(), bold: c.isBold() !== 0, inverse: c.isInverse() !== 0 };
}

/** The cells of the screen row showing `text`, from the column where it starts for `length` columns. */
function cellsAt(t: PitwallTerminal, text: string, length: number, from = 0): CellInfo[] {
  const at = t.findCell(text);
  if (!at) throw new Error(`"${text}" is not on screen:\n${t.screenText()}`);
  const line = t.terminal.buffer.active.getLine(t.terminal.buffer.active.viewportY + at.y)!;
  const cells: CellInfo[] = [];
  for (let x = at.x + from; x < Math.min(t.terminal.cols, at.x + from + length); x++) cells.push(cellInfo(line.getCell(x)!));
  return cells;
}

/** Every cell of the screen. */
function allCells(t: PitwallTerminal): CellInfo[] {
  const buffer = t.terminal.buffer.active;
  const cells: CellInfo[] = [];
  for (let y = 0; y < t.terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y)!;
    for (let x = 0; x < t.terminal.cols; x++) cells.push(cellInfo(line.getCell(x)!));
  }
  return cells;
}

describe("drawing", () => {
  test("the quit question is black on yellow, not bold (bold black is grey in many terminals); links are bright blue; a closing fence is not text", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "See [the docs](https://example.com/docs) for more.\n\n```ts\nconst docs = 1;\n```" }] });
    const { t } = session;
    t.type("where are the docs?");
    t.press("Enter");
    await t.waitForText("the docs (https://example.com/docs)");
    // The reply ended with its closing fence: the code is shown as code, the fence is not.
    expect(await t.waitForText("const docs = 1;")).not.toContain("```");
    const link = t.findCell("the docs (")!;
    expect(link.fg).toBe(12);
    t.type("/run sleep 30");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.press("Ctrl+D");
    await t.waitForText("quit and stop it? y/n");
    const question = t.findCell("1 job running")!;
    expect(question).toMatchObject({ fg: 0, bg: 3, bold: false });
    t.type("n");
    await t.waitForNoText("quit and stop it?");
  }, 40_000);

  test("a selected job or file is one neutral grey across the row, its status colours kept: no reverse-video blocks, no blue", async () => {
    const cwd = tempFolder("cwd");
    writeFileSync(join(cwd, "app.ts"), "export const answer = 41;\n");
    session = await startDashboard({
      cwd,
      replies: [{ kind: "reply", text: "Edited.", toolCalls: [{ name: "edit", arguments: { file_path: "app.ts", old_string: "41", new_string: "42" } }] }, { kind: "reply", text: "Done." }],
    });
    const { t } = session;
    t.type("/run echo first && sleep 30");
    t.press("Enter");
    t.type("/run echo second && sleep 30");
    t.press("Enter");
    await t.waitForText(/2 echo second/);
    t.press("Alt+3");
    await t.waitForText(/▶ .?2 echo second/);
    t.type("k");
    await t.waitForText(/▶ .?1 echo first/);
    await t.waitFor(() => t.findCell("▶")?.bg === SELECTION_GREY, 10_000, "the selected row drawn with the selection colour");
    // The empty unseen-mark column and the coloured id share the row's one background.
    const row = cellsAt(t, "▶", 30);
    expect(new Set(row.map((c) => c.bg))).toEqual(new Set([SELECTION_GREY]));
    expect(row.every((c) => !c.inverse && c.bold)).toBe(true);
    // The status keeps its green on the grey.
    const up = cellsAt(t, "▶", t.terminal.cols).filter((c, i, all) => c.ch === "u" && all[i + 1]?.ch === "p");
    expect(up.map((c) => [c.fg, c.bg])).toEqual([[2, SELECTION_GREY]]);
    // In the escape stream: bold, the cyan mark, the 256-colour grey background, never blue (44).
    expect(t.rawOutput).toMatch(/\x1b\[0;1;36;48;5;238m▶/);
    expect(t.rawOutput).not.toMatch(/\x1b\[[0-9;]*;44m/);

    t.press("Alt+0");
    t.type("fix it");
    t.press("Enter");
    await t.waitForText("Done.");
    t.press("Alt+4");
    await t.waitForText(/M app\.ts\s+\+1 −1/);
    await t.waitFor(() => t.findCell("M app.ts")?.bg === SELECTION_GREY, 10_000, "the selected file drawn with the selection colour");
    const file = cellsAt(t, "M app.ts", 12);
    expect(new Set(file.map((c) => c.bg))).toEqual(new Set([SELECTION_GREY]));
    expect(file.some((c) => c.inverse)).toBe(false);
  }, 60_000);

  test("TERM=linux: borders and hints are drawn white, never black on the console's black", async () => {
    session = await startDashboard({ env: { TERM: "linux" } });
    const { t } = session;
    await t.waitForText("Tool calls show their output here");
    const corner = cellsAt(t, "┌", 1)[0]!;
    expect(corner.fgDefault).toBe(false);
    expect(corner.fg).toBe(7);
    const hint = cellsAt(t, "Tool calls show their output here", 1)[0]!;
    expect(hint.fg).toBe(7);
    // A selection on the console is blue, as before: no 256-colour grey there.
    t.type("/run sleep 30");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.press("Alt+3");
    await t.waitFor(() => t.findCell("▶ 1 sleep")?.bg === 4, 10_000, "the selected job on the console's blue");
    expect(allCells(t).filter((c) => c.ch.trim() !== "" && !c.fgDefault && c.fg === 0 && c.bgDefault)).toEqual([]);
  }, 40_000);

  test("NO_COLOR: no colour anywhere; focus is a bold title, the selection and the status line reverse video", async () => {
    session = await startDashboard({ env: { NO_COLOR: "1" } });
    const { t } = session;
    t.type("/run echo hi && sleep 30");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.press("Alt+3");
    await t.waitForText(/▶ .?1 echo hi/);
    await t.waitFor(() => cellsAt(t, "▶", 1)[0]!.inverse, 10_000, "the selected job drawn in reverse video");
    const cells = allCells(t);
    expect(cells.filter((c) => !c.fgDefault || !c.bgDefault)).toEqual([]);
    expect(cellsAt(t, "▶", 10).every((c) => c.inverse && c.bold)).toBe(true);
    expect(cellsAt(t, " jobs ", 5, 1).every((c) => c.bold)).toBe(true);
    expect(cellsAt(t, " chat ", 5, 1).some((c) => c.bold)).toBe(false);
    expect(cellsAt(t, "● ready", 7).every((c) => c.inverse)).toBe(true);
  }, 40_000);

  test("F1 at 80x24 is a two-column table: descriptions wrap inside their column, keys are never cut, the box ends above the input", async () => {
    session = await startDashboard({ cols: 80, rows: 24 });
    const { t } = session;
    t.press("F1");
    const screen = await t.waitForText("help: keys and commands");
    const rows = screen.split("\n");
    expect(screen).not.toMatch(/Alt\+Ri…|[A-Za-z]…\s{2}/);
    // Every row of the table starts its description at one column; continuation rows leave the key column blank.
    const descriptionColumn = rows.find((r) => r.includes("Quit; while jobs run"))!.indexOf("Quit;");
    const continued = rows[rows.findIndex((r) => r.includes("Quit; while jobs run")) + 1]!;
    expect(continued.slice(0, descriptionColumn).replace(/[│ ]/g, "")).toBe("");
    expect(continued.slice(descriptionColumn).trim()).not.toBe("");
    // The box's bottom border is above the input's top border.
    const inputTop = rows.findIndex((r) => r.includes("─ input"));
    expect(rows[inputTop - 1]).toMatch(/└─+┘/);
    t.press("Escape");
    await t.waitForNoText("help: keys and commands");
  }, 40_000);

  test("at 80x24: the job terminal has a left margin, two-digit job ids keep the command column, the files preview shows the changed lines", async () => {
    const cwd = tempFolder("cwd");
    writeFileSync(join(cwd, "app.ts"), Array.from({ length: 20 }, (_, i) => `const line${i} = ${i};`).join("\n") + "\n");
    session = await startDashboard({
      cwd,
      cols: 80,
      rows: 24,
      replies: [{ kind: "reply", text: "Edited.", toolCalls: [{ name: "edit", arguments: { file_path: "app.ts", old_string: "line10 = 10", new_string: "line10 = 100" } }] }, { kind: "reply", text: "Done." }],
    });
    const { t } = session;
    t.type("fix it");
    t.press("Enter");
    await t.waitForText("Done.");
    // A touched file at 80 columns brings tabs: in the files tab, not only in the tool output.
    await t.waitForText(/files 1/);
    t.press("Alt+4");
    await t.waitForText(/^│ -const line10 = 10;/m);
    expect(t.screenText()).toMatch(/^│ \+const line10 = 100;/m);
    // The jobs tab stays on screen while the input has the keys.
    t.press("Alt+3");
    t.press("Alt+0");
    for (let i = 1; i <= 10; i++) {
      t.type(`/run echo job-${i}-says-hi`);
      t.press("Enter");
      await t.waitForText(`echo job-${i}-says`);
    }
    // The terminal's text starts one column in from its border.
    await t.waitForText(/│ job-10-says-hi/);
    // Ids right-aligned in one column: the commands start in the same column.
    const rows = (await t.waitForText(/ 9 echo job-9[\s\S]*10 echo job-1/)).split("\n");
    // The job list's rows (in the right column, after a border): ▶ or not (selected), • or not
    // (news not seen yet: which of these fast jobs has it depends on timing), then the id.
    const nine = rows.find((r) => /│ [▶ ][• ] 9 echo job-9/.test(r));
    const ten = rows.find((r) => /│ [▶ ][• ]10 echo job-1/.test(r));
    // The job's terminal has the whole width of the jobs tab.
    expect(rows.find((r) => r.includes("─ job "))!.startsWith("├")).toBe(true);
    expect(nine && ten, rows.join("\n")).toBeTruthy();
    expect(nine!.lastIndexOf("echo")).toBe(ten!.lastIndexOf("echo"));
  }, 60_000);
});
