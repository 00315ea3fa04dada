// End to end, the completion menu: Tab with several candidates opens a box just above the input
// listing them with what each does (a prompt template's first line), the current one on the
// selection's grey; Down and Shift+Tab move (filling the input), Enter keeps one without sending,
// Esc puts back what was typed, and any other key closes it and does what it does. Past 8
// candidates it scrolls with the selection and says how many more. It fits at 80x24 as at 160x48.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

/** The selection's grey on a dark 256-colour terminal (panes/screen/palette.ts). */
const SELECTION_GREY = 238;

function homeWithTemplates(): string {
  const home = tempFolder("home");
  mkdirSync(join(home, "prompts"), { recursive: true });
  writeFileSync(join(home, "prompts", "review.md"), "Review $1 for bugs and say what you would change.\nSecond line, not shown.\n");
  writeFileSync(join(home, "prompts", "refactor.md"), "Refactor $1 into smaller functions.\n");
  return home;
}

/** What the input's row shows after "› ", without the border and the trailing spaces. */
function inputLine(t: PitwallTerminal): string {
  const row = t.screenText().split("\n").find((line) => line.includes("› ")) ?? "";
  return row.slice(row.indexOf("› ")).replace(/[\s│]*$/, "");
}

/** Whether the candidate's row is the highlighted one. */
function highlighted(t: PitwallTerminal, candidate: string): boolean {
  return t.findCell(new RegExp(`${candidate}\\s`))?.bg === SELECTION_GREY;
}

describe("the completion menu", () => {
  for (const [cols, rows] of [
    [160, 48],
    [80, 24],
  ] as const) {
    test(`at ${cols}x${rows}: lists the candidates with their first lines; Down moves, Enter keeps one unsent, Esc puts back the typed text`, async () => {
      const { t, llm } = await startDashboard({ home: homeWithTemplates(), cols, rows });
      t.type("/re");
      t.press("Tab");
      let screen = await t.waitForText(/\/review\s+Review \$1 for bugs/);
      expect(screen).toMatch(/\/refactor\s+Refactor \$1 into smaller functions\./);
      expect(screen).not.toContain("Second line, not shown");
      // Built-in commands are listed with their descriptions too, cut with "…" where they are long.
      expect(screen).toMatch(/\/rewind\s+Go back to before one of your messages.*…/);
      expect(screen).toContain("Tab next · Enter pick · Esc close");
      // The first candidate is in the input and highlighted; the menu sits just above the input.
      const lines = screen.split("\n");
      const inputRow = lines.findIndex((line) => line.includes("› "));
      const first = inputLine(t).match(/^› (\/\S+)$/)?.[1];
      expect(first).toBeDefined();
      expect(highlighted(t, first!)).toBe(true);
      const menuRows = lines.slice(0, inputRow).filter((line) => /\/re\w+\s/.test(line));
      expect(menuRows).toHaveLength(4);
      const firstRow = lines.findIndex((line) => line.includes(`${first!}  `));
      expect(inputRow - firstRow).toBeLessThanOrEqual(7);
      // The menu starts at the input's left edge and is at most 76 columns wide.
      const top = lines[firstRow - 1]!;
      expect(top.startsWith("┌")).toBe(true);
      expect(top.indexOf("┐")).toBeGreaterThan(20);
      expect(top.indexOf("┐")).toBeLessThan(76);

      // Down goes through the candidates until /review, each filling the input.
      for (let i = 0; i < 4 && !inputLine(t).includes("/review"); i++) {
        const before = inputLine(t);
        t.press("Down");
        await t.waitFor(() => inputLine(t) !== before, 5_000, "Down to fill the next candidate");
      }
      await t.waitFor(() => highlighted(t, "/review"), 5_000, "/review highlighted");
      expect(highlighted(t, first!)).toBe(false);
      // Enter keeps it in the input, closes the menu, sends nothing.
      t.press("Enter");
      await t.waitForNoText("Tab next · Enter pick");
      expect(inputLine(t)).toBe("› /review");
      expect(llm.requests).toHaveLength(0);
      screen = t.screenText();
      expect(screen).not.toMatch(/\/refactor\s+Refactor/);

      // Esc closes it and puts back what was typed.
      t.press("Ctrl+U");
      t.type("/re");
      t.press("Tab");
      await t.waitForText("Tab next · Enter pick · Esc close");
      await t.waitFor(() => inputLine(t) !== "› /re", 5_000, "the first candidate in the input");
      t.press("Escape");
      await t.waitForNoText("Tab next · Enter pick");
      expect(inputLine(t)).toBe("› /re");
      expect(llm.requests).toHaveLength(0);
    }, 60_000);
  }

  test("Shift+Tab goes back, a typed key closes the menu and is typed; one candidate completes at once, no menu", async () => {
    const { t } = await startDashboard({ home: homeWithTemplates(), cols: 80, rows: 24 });
    t.type("/re");
    t.press("Tab");
    await t.waitForText("Tab next · Enter pick · Esc close");
    const first = inputLine(t);
    t.press("Tab");
    await t.waitFor(() => inputLine(t) !== first, 5_000, "Tab to fill the next candidate");
    t.press("Shift+Tab");
    await t.waitFor(() => inputLine(t) === first, 5_000, "Shift+Tab to go back");
    // Shift+Tab from the first wraps to the last.
    t.press("Shift+Tab");
    await t.waitFor(() => inputLine(t) !== first, 5_000, "Shift+Tab to wrap to the last candidate");
    t.type("x");
    await t.waitForNoText("Tab next · Enter pick");
    expect(inputLine(t)).toMatch(/^› \/\w+ x$/);

    // Every command: 8 rows, "+N more"; the selection scrolls the list (Shift+Tab wraps to the last).
    t.press("Ctrl+U");
    t.type("/");
    t.press("Tab");
    let screen = await t.waitForText(/\+\d+ more/);
    expect(screen).toMatch(/\/help\s+Show the key bindings/);
    expect(screen).not.toMatch(/\/review\s+Review \$1/);
    // The templates come after the built-in commands: the last is a template.
    t.press("Shift+Tab");
    screen = await t.waitForText(/\/review\s+Review \$1/);
    expect(screen).not.toMatch(/\/help\s+Show the key bindings/);
    expect(screen).toMatch(/\+\d+ more/);
    await t.waitFor(() => highlighted(t, "/review"), 5_000, "/review highlighted");
    expect(inputLine(t)).toBe("› /review");
    t.press("Escape");
    await t.waitForNoText(/\+\d+ more/);

    t.press("Ctrl+U");
    t.type("/ref");
    t.press("Tab");
    await t.waitForText("/refactor · Refactor $1 into smaller functions.");
    expect(inputLine(t)).toBe("› /refactor");
    expect(t.screenText()).not.toContain("Tab next · Enter pick");
  }, 60_000);
});
