// Dims what an open overlay covers: every cell of the rows given gets the dim attribute (SGR 2),
// colours kept, so the overlay stands out and the panes behind still show what they are. The
// panes paint their cells again on the next frame, which clears it when the overlay closes.
import type { CellRow } from "./blessed-internals.js";
import { Flag } from "../text/styled-text.js";

const DIM = Flag.dim << 18;

/** Dims rows `from` up to (not including) `to`. */
export function dimRows(lines: CellRow[], from: number, to: number): void {
  for (let y = Math.max(0, from); y < Math.min(to, lines.length); y++) {
    const row = lines[y]!;
    for (const cell of row) {
      if ((cell[0] & DIM) === 0) {
        cell[0] |= DIM;
        row.dirty = true;
      }
    }
  }
}
