// Paints styled text straight into blessed's cell grid inside a clipping rectangle. Panes draw only
// the rows they show, so a pane's cost per frame does not grow with its history. A wide grapheme
// takes two cells: the grapheme, then '' (the frame writer knows the pair belongs together).
import type { Cell, CellRow } from "./blessed-internals.js";
import { PLAIN, type StyledLine } from "../text/styled-text.js";
import { displayGrapheme, graphemes, graphemeWidth, isPrintableAscii } from "../text/text-width.js";
import { truncateLine, wrapLine } from "../text/wrap.js";

/** Whether the part of a line from `at` on holds text: more than spaces and a rule drawn to the edge. */
function hasText(content: StyledLine, at: { span: number; offset: number }): boolean {
  for (let s = at.span; s < content.length; s++) {
    const text = s === at.span ? content[s]!.text.slice(at.offset) : content[s]!.text;
    if (/[^\s─]/.test(text)) return true;
  }
  return false;
}

export interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}

export class Canvas {
  constructor(
    private readonly lines: CellRow[],
    readonly rect: Rect,
  ) {}

  get width(): number {
    return this.rect.width;
  }
  get height(): number {
    return this.rect.height;
  }

  /** A canvas for a part of this one (coordinates relative to this canvas), clipped to it. */
  sub(x: number, y: number, width: number, height: number): Canvas {
    const left = this.rect.left + Math.max(0, x);
    const top = this.rect.top + Math.max(0, y);
    return new Canvas(this.lines, {
      left,
      top,
      width: Math.max(0, Math.min(width, this.rect.left + this.rect.width - left)),
      height: Math.max(0, Math.min(height, this.rect.top + this.rect.height - top)),
    });
  }

  private set(row: CellRow, x: number, a: number, ch: string, extras?: string): void {
    const cell: Cell | undefined = row[x];
    if (!cell) return;
    if (cell[0] !== a || cell[1] !== ch || (extras !== undefined && cell[2] !== extras)) {
      cell[0] = a;
      cell[1] = ch;
      if (extras !== undefined) cell[2] = extras;
      row.dirty = true;
    }
  }

  /**
   * Sets one cell (coordinates relative to the canvas), clipped. `ch` is a single grapheme, or ''
   * for the right half of a wide one: the caller keeps the pair together. `extras` goes with an
   * attribute that has Flag.extras (cell-extras.ts).
   */
  cell(x: number, y: number, a: number, ch: string, extras?: string): void {
    if (x < 0 || y < 0 || x >= this.rect.width || y >= this.rect.height) return;
    const row = this.lines[this.rect.top + y];
    if (row) this.set(row, this.rect.left + x, a, ch, extras);
  }

  /**
   * Paints a line at row `y` from column `x`, clipped to the canvas; the rest of the row from the
   * end of the text is filled with spaces in `fill` (unless fill is null). A line cut by the edge
   * ends with "…" when what was cut holds more than spaces. Returns the columns used.
   */
  paintLine(y: number, content: StyledLine, x = 0, fill: number | null = PLAIN): number {
    if (y < 0 || y >= this.rect.height) return 0;
    const row = this.lines[this.rect.top + y];
    if (!row) return 0;
    const end = this.rect.left + this.rect.width;
    let col = this.rect.left + Math.max(0, x);
    let cutAt: { span: number; offset: number } | undefined;
    spans: for (let s = 0; s < content.length; s++) {
      const sp = content[s]!;
      if (col >= end) {
        cutAt = { span: s, offset: 0 };
        break;
      }
      if (isPrintableAscii(sp.text)) {
        const n = Math.min(sp.text.length, end - col);
        for (let i = 0; i < n; i++) this.set(row, col + i, sp.attr, sp.text[i]!);
        col += n;
        if (n < sp.text.length) cutAt = { span: s, offset: n };
        if (cutAt) break;
        continue;
      }
      let offset = 0;
      for (const g of graphemes(sp.text)) {
        const w = graphemeWidth(g);
        if (w === 0) {
          offset += g.length;
          continue;
        }
        if (col + w > end) {
          // A wide character that does not fit is shown as a space, never cut in half.
          while (col < end) this.set(row, col++, sp.attr, " ");
          cutAt = { span: s, offset };
          break spans;
        }
        this.set(row, col, sp.attr, displayGrapheme(g));
        if (w === 2) this.set(row, col + 1, sp.attr, "");
        col += w;
        offset += g.length;
      }
    }
    if (cutAt && col > this.rect.left && hasText(content, cutAt)) {
      const last = end - 1;
      const cell = row[last];
      // The right half of a wide character: the mark replaces the whole character.
      if (cell && cell[1] === "" && last > this.rect.left) this.set(row, last - 1, cell[0], " ");
      if (cell) this.set(row, last, cell[0], "…");
    }
    const used = col - this.rect.left;
    if (fill !== null) while (col < end) this.set(row, col++, fill, " ");
    return used;
  }

  /** Paints rows top-down from `y`; rows past the content are cleared with `fill`. */
  paintRows(rows: readonly StyledLine[], y = 0, fill: number = PLAIN): void {
    for (let i = y; i < this.rect.height; i++) {
      const r = rows[i - y];
      if (r) this.paintLine(i, r, 0, fill);
      else this.paintLine(i, [], 0, fill);
    }
  }

  /**
   * Paints a message word-wrapped to the canvas (an empty pane's hint): the first of `text`'s
   * wordings that fits the canvas whole, else the last one, its last row ending with "…".
   */
  paintMessage(text: string | readonly string[], a: number): void {
    const wordings = typeof text === "string" ? [text] : text;
    for (const wording of wordings) {
      const rows = wrapLine([{ text: wording, attr: a }], this.width);
      if (rows.length <= this.height || wording === wordings[wordings.length - 1]) {
        if (rows.length > this.height && this.height > 0) rows[this.height - 1] = truncateLine([...rows[this.height - 1]!, { text: " …", attr: a }], this.width);
        this.paintRows(rows.slice(0, this.height));
        return;
      }
    }
  }

  fill(a: number = PLAIN, ch = " "): void {
    for (let y = 0; y < this.rect.height; y++) {
      const row = this.lines[this.rect.top + y];
      if (!row) continue;
      for (let x = 0; x < this.rect.width; x++) this.set(row, this.rect.left + x, a, ch);
    }
  }
}
