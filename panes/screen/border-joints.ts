// Joins the borders of neighbouring panes (├ ┬ ┼ ┴ ┤) from the layout itself, instead of blessed's
// dockBorders, which also "docks" an overlay's border into the panes under it. Runs after the
// panes and before the overlays are drawn; only cells that still hold a line-drawing character
// are touched, so titles on borders stay.
import type { CellRow } from "./blessed-internals.js";
import type { Rect } from "./canvas.js";

/** The joint for the lines that meet at a cell, by bits: up 8, down 4, left 2, right 1. */
const GLYPHS: ReadonlyArray<string | undefined> = [
  undefined, "─", "─", "─", "│", "┌", "┐", "┬", "│", "└", "┘", "┴", "│", "├", "┤", "┼",
];
const LINE_CHARS = new Set(["─", "│", "┌", "┐", "└", "┘", "├", "┤", "┬", "┴", "┼"]);

export function joinBorders(lines: CellRow[], rects: Rect[]): void {
  const horizontal = new Set<number>();
  const vertical = new Set<number>();
  const key = (x: number, y: number): number => y * 65536 + x;
  for (const r of rects) {
    if (r.width < 2 || r.height < 2) continue;
    const right = r.left + r.width - 1;
    const bottom = r.top + r.height - 1;
    for (let x = r.left; x < right; x++) {
      horizontal.add(key(x, r.top));
      horizontal.add(key(x, bottom));
    }
    for (let y = r.top; y < bottom; y++) {
      vertical.add(key(r.left, y));
      vertical.add(key(right, y));
    }
  }
  const fix = (x: number, y: number): void => {
    const cell = lines[y]?.[x];
    if (!cell || !LINE_CHARS.has(cell[1])) return;
    // Runs for every border cell of every frame: a number, not a string key.
    const bits = (vertical.has(key(x, y - 1)) ? 8 : 0) | (vertical.has(key(x, y)) ? 4 : 0) | (horizontal.has(key(x - 1, y)) ? 2 : 0) | (horizontal.has(key(x, y)) ? 1 : 0);
    const glyph = GLYPHS[bits];
    if (glyph && glyph !== cell[1]) {
      cell[1] = glyph;
      lines[y]!.dirty = true;
    }
  };
  for (const r of rects) {
    if (r.width < 2 || r.height < 2) continue;
    const right = r.left + r.width - 1;
    const bottom = r.top + r.height - 1;
    for (let x = r.left; x <= right; x++) {
      fix(x, r.top);
      fix(x, bottom);
    }
    for (let y = r.top + 1; y < bottom; y++) {
      fix(r.left, y);
      fix(right, y);
    }
  }
}
