// End to end: the layout at several sizes, resizing, the too-small notice, and wide characters.
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

/** Every row of the screen is exactly `cols` columns wide and its last column is a border (or the status line). */
function rightEdge(screen: string): string[] {
  return screen.split("\n").map((row) => [...row].at(-1) ?? "");
}

describe("layout", () => {
  test("resizes to 80x24 and back, and below that says the terminal is too small", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Résumé: 中文 and 🚀 emoji ✅ fine." }], cols: 120, rows: 40 });
    const { t } = session;
    t.type("hello");
    t.press("Enter");
    await t.waitForText("emoji ✅ fine.");
    t.resize(80, 24);
    let screen = await t.waitFor(() => (t.terminal.cols === 80 && t.screenText().split("\n")[23]?.includes("ready") ? t.screenText() : undefined), 10_000, "the 80x24 layout");
    expect(screen).toContain("─ chat");
    expect(screen).toContain("─ tool output");
    expect(screen).toContain("─ jobs");
    expect(screen).toContain("─ files");
    expect(screen).toContain("─ input");
    t.resize(70, 20);
    screen = await t.waitForText("Terminal too small: 70x20");
    expect(screen).toContain("at least 80x24");
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
  }, 40_000);
});
