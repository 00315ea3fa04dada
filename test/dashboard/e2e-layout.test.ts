// End to end: the layout at several sizes, resizing, one pane at a time under a tab bar on a small
// terminal, the too-small notice, and wide characters.
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

/** Every row of the screen is exactly `cols` columns wide and its last column is a border (or the status line). */
function rightEdge(screen: string): string[] {
  return screen.split("\n").map((row) => [...row].at(-1) ?? "");
}

describe("layout", () => {
  test("resizes to 80x24 and back, and below 40x12 says the terminal is too small", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Résumé: 中文 and 🚀 emoji ✅ fine." }], cols: 120, rows: 40 });
    const { t } = session;
    t.type("hello");
    t.press("Enter");
    await t.waitForText("emoji ✅ fine.");
    t.resize(80, 24);
    let screen = await t.waitFor(() => (t.terminal.cols === 80 && t.screenText().split("\n")[23]?.includes("ready") ? t.screenText() : undefined), 10_000, "the 80x24 layout");
    expect(screen).toContain("─ chat");
    expect(screen).toContain("─ input");
    // No job and no file yet: the chat and the tool output have the whole width.
    expect(screen).toMatch(/├─ tool output ─+┤/);
    expect(screen).not.toContain("─ jobs");
    expect(screen).not.toContain("─ files");
    // A job at 80 columns: tabs, rather than a column too thin for its log; the chat tab keeps the tool output.
    t.type("/run echo eighty-columns && sleep 30");
    t.press("Enter");
    screen = await t.waitForText(/chat.*│.*tool.*│.*jobs 1↑/);
    expect(screen).toContain("─ chat");
    expect(screen).toMatch(/├─ tool output[^┼]+┤/);
    t.press("Alt+3");
    screen = await t.waitForText(/│ eighty-columns/);
    expect(screen).toContain("─ job 1: echo eighty-columns");
    // Back to the input, where the typing below goes.
    t.press("Alt+0");
    t.resize(38, 11);
    screen = await t.waitForText("Terminal too small: 38x11");
    expect(screen).toContain("at least 40x12");
    t.type("still typing");
    t.resize(120, 40);
    screen = await t.waitForText("› still typing");
    expect(screen).toContain("emoji ✅ fine.");
    expect(screen).not.toContain("too small");
  }, 40_000);

  test("emoji, CJK and combined emoji never move the right border", async () => {
    const text = "👨‍👩‍👧 family, 🇫🇷 flag, ❤️ heart, 👍🏽 thumbs, 中文字 CJK, e\u0301 accent, 🚀✅⌛ row";
    session = await startDashboard({ replies: [{ kind: "reply", text }] });
    const { t } = session;
    // A job brings the side column: the divider between the columns is what must not move.
    t.type("/run sleep 30");
    t.press("Enter");
    await t.waitForText("1 job up");
    t.type("emoji ✅ please 👍🏽");
    t.press("Enter");
    await t.waitForText("accent");
    const screen = t.screenText();
    const edges = rightEdge(screen).slice(0, 38);
    // Every row of the panes ends in the outer border.
    expect(edges.every((c) => c === "│" || c === "┐" || c === "┤" || c === "┘")).toBe(true);
    // The chat's right border (the divider between the columns) sits in the same column on every row.
    const buffer = t.terminal.buffer.active;
    const dividerColumn = (y: number): number => {
      const line = buffer.getLine(y)!;
      for (let x = 1; x < t.terminal.cols - 1; x++) if (["│", "┤", "├", "┬", "┼", "┴"].includes(line.getCell(x)!.getChars())) return x;
      return -1;
    };
    const columns = new Set(Array.from({ length: 20 }, (_, y) => dividerColumn(y + 1)));
    expect([...columns]).toHaveLength(1);
    expect([...columns][0]).toBeGreaterThan(0);
  }, 40_000);

  test("a small terminal shows one pane at a time under a tab bar; Alt+N and Tab switch; the too-small notice still quits with Ctrl+D", async () => {
    session = await startDashboard({
      cols: 50,
      rows: 15,
      replies: [
        { kind: "reply", text: "Listing.", toolCalls: [{ name: "bash", arguments: { command: "echo small-screen-output" } }] },
        { kind: "reply", text: "Listed." },
        { kind: "reply", text: "Noted while you watched." },
      ],
    });
    const { t } = session;
    let screen = await t.waitForText(/chat.*│.*tool.*│.*jobs.*│.*files/);
    expect(screen).toContain("─ chat");
    expect(screen).not.toContain("─ tool output");
    expect(screen).toContain("─ input");
    t.type("list");
    t.press("Enter");
    await t.waitForText("Listed.");
    t.press("Alt+2");
    screen = await t.waitForText("─ tool output: bash echo small-screen");
    expect(screen).toMatch(/│ small-screen-output/);
    expect(screen).not.toContain("─ chat");
    t.type("/run echo from-a-job && sleep 30");
    t.press("Enter");
    // The job printed while its terminal was not shown: the jobs tab says so.
    await t.waitForText(/jobs 1↑•/);
    // Typing moved the focus to the input; Tab goes on to the chat, then the tool output.
    t.press("Tab");
    await t.waitForText("─ chat");
    t.press("Alt+3");
    screen = await t.waitForText("─ job 1: echo from-a-job");
    expect(screen).toMatch(/▶ 1 echo from-a-job/);
    // A reply that comes while another tab is shown marks the chat tab until the chat is shown.
    expect(screen.split("\n")[0]).toMatch(/^ chat │/);
    // The input takes the message; the jobs tab stays on screen.
    t.press("Alt+0");
    t.type("note this");
    t.press("Enter");
    screen = await t.waitForText(/^ chat • │/m);
    expect(screen).toContain("─ job 1: echo from-a-job");
    t.press("Alt+1");
    screen = await t.waitForText("Noted while you watched.");
    expect(screen.split("\n")[0]).toMatch(/^ chat │/);
    t.press("Alt+3");
    await t.waitForText("─ job 1: echo from-a-job");
    t.resize(30, 10);
    await t.waitForText("Terminal too small: 30x10");
    t.press("Ctrl+D");
    // The question does not fit the status line at this width: the notice shows it whole.
    await t.waitForText(/1 job running: quit and stop\s+it\? y\/n/);
    t.type("y");
    expect(await t.waitForExit()).toBe(0);
  }, 40_000);

  test("after a long error the status line keeps the model, the context meter, tokens and cost, and cuts the error short", async () => {
    for (const cols of [120, 160]) {
      const session = await startDashboard({ cols, rows: 40, replies: [{ kind: "error", status: 429, message: "rate limited: too many requests for this organization, slow down", headers: { "retry-after": "300" } }] });
      const { t } = session;
      t.type("hello");
      t.press("Enter");
      const screen = await t.waitForText(/✗ /);
      const status = screen.split("\n").at(-1)!;
      expect(status, `at ${cols} columns`).toMatch(/^ ● ready · +✗ .*… +· claude-sonnet-5-5 · \d+% of 1M · \d+ tok · \$0\.00 +F1 help $/);
      await session.done();
    }
  }, 60_000);

  test("at 40x12 the input's placeholder ends at a whole word, keeping the parts that fit", async () => {
    session = await startDashboard({ cols: 40, rows: 12 });
    const { t } = session;
    const screen = await t.waitForText("─ input");
    const input = screen.split("\n").find((row) => row.startsWith("│ › "))!;
    // "Ask pitwall to do something · / for commands · F1 for keys" does not fit: whole parts are left out, not a word cut.
    expect(input).toMatch(/^│ › Ask pitwall to do something +│$/);
  }, 40_000);
});

