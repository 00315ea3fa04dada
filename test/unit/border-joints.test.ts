// Neighbouring panes' borders meet in the right joints, and nothing but line cells is touched.
import { describe, expect, it } from "vitest";
import type { CellRow } from "../../panes/screen/blessed-internals.js";
import { joinBorders } from "../../panes/screen/border-joints.js";
import type { Rect } from "../../panes/screen/canvas.js";

/** A grid with each rect's border drawn as blessed draws a box: corners and plain lines. */
function draw(width: number, height: number, rects: Rect[]): CellRow[] {
  const rows: CellRow[] = Array.from({ length: height }, () => Array.from({ length: width }, () => [0, " "] as CellRow[number]));
  for (const r of rects) {
    const right = r.left + r.width - 1;
    const bottom = r.top + r.height - 1;
    for (let x = r.left; x <= right; x++) for (const y of [r.top, bottom]) rows[y]![x]![1] = "─";
    for (let y = r.top; y <= bottom; y++) for (const x of [r.left, right]) rows[y]![x]![1] = "│";
    rows[r.top]![r.left]![1] = "┌";
    rows[r.top]![right]![1] = "┐";
    rows[bottom]![r.left]![1] = "└";
    rows[bottom]![right]![1] = "┘";
  }
  return rows;
}

const text = (rows: CellRow[]): string[] => rows.map((row) => row.map((cell) => cell[1]).join(""));

describe("joinBorders", () => {
  it("joins two columns over a full-width pane", () => {
    const rects = [
      { left: 0, top: 0, width: 6, height: 3 },
      { left: 5, top: 0, width: 5, height: 3 },
      { left: 0, top: 2, width: 10, height: 3 },
    ];
    const rows = draw(10, 5, rects);
    rows[0]![2]![1] = "x"; // a title letter on the border stays
    joinBorders(rows, rects);
    expect(text(rows)).toEqual(["┌─x──┬───┐", "│    │   │", "├────┴───┤", "│        │", "└────────┘"]);
  });

  it("makes a cross where four panes meet", () => {
    const rects = [
      { left: 0, top: 0, width: 3, height: 3 },
      { left: 2, top: 0, width: 3, height: 3 },
      { left: 0, top: 2, width: 3, height: 3 },
      { left: 2, top: 2, width: 3, height: 3 },
    ];
    const rows = draw(5, 5, rects);
    joinBorders(rows, rects);
    expect(text(rows)).toEqual(["┌─┬─┐", "│ │ │", "├─┼─┤", "│ │ │", "└─┴─┘"]);
  });
});
