// The multi-line input: a text buffer drawn with a prompt, wrapped by character, scrolled to keep
// the cursor in view, growing up to a few rows. Large pastes become a placeholder that is expanded
// on submit, so pasting a log of thousands of lines never slows typing.
import type { Widgets } from "blessed";
import type { Canvas } from "../screen/canvas.js";
import type { CursorPlacement } from "../screen/render-scheduler.js";
import { InputHistory } from "./input-history.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { graphemes, graphemeWidth, isPrintableAscii } from "../text/text-width.js";
import { TextBuffer } from "./text-buffer.js";

const PROMPT = attr({ fg: Color.cyan, bold: true });
const PLACEHOLDER = attr({ fg: Color.grey });
const PASTE_LINES = 10;
const PASTE_CHARS = 2000;

interface VisualRow {
  line: number;
  start: number;
  end: number;
}

/** Splits a line into rows of at most `width` columns, by grapheme. */
export function charWrap(text: string, width: number): Array<{ start: number; end: number }> {
  const w = Math.max(1, width);
  if (text === "") return [{ start: 0, end: 0 }];
  if (isPrintableAscii(text)) {
    const rows = [];
    for (let i = 0; i < text.length; i += w) rows.push({ start: i, end: Math.min(text.length, i + w) });
    return rows;
  }
  const rows: Array<{ start: number; end: number }> = [];
  let start = 0;
  let index = 0;
  let used = 0;
  for (const g of graphemes(text)) {
    const gw = graphemeWidth(g);
    if (used + gw > w && index > start) {
      rows.push({ start, end: index });
      start = index;
      used = 0;
    }
    used += gw;
    index += g.length;
  }
  rows.push({ start, end: text.length });
  return rows;
}

export class InputPane extends PaneBox {
  readonly buffer = new TextBuffer();
  readonly history = new InputHistory();
  private readonly pastes = new Map<string, string>();
  private pasteCount = 0;
  placeholder = "";
  hint = "";
  private cursor: CursorPlacement | null = null;
  private scrollTop = 0;
  maxRows = 8;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "input" });
  }

  /** Inserts pasted text; a large paste becomes a placeholder until submit. */
  paste(text: string): void {
    const clean = text.replace(/\r\n?/g, "\n");
    const lines = clean.split("\n").length;
    if (lines > PASTE_LINES || clean.length > PASTE_CHARS) {
      const marker = `[Pasted text #${++this.pasteCount} +${lines} lines]`;
      this.pastes.set(marker, clean);
      this.buffer.insert(marker);
    } else {
      this.buffer.insert(clean);
    }
  }

  /** The text to send, placeholders expanded. */
  get value(): string {
    let text = this.buffer.text;
    for (const [marker, pasted] of this.pastes) text = text.split(marker).join(pasted);
    return text;
  }

  setText(text: string): void {
    this.buffer.text = text;
  }

  /** Clears the editor (and forgets pastes). */
  reset(): void {
    this.buffer.clear();
    this.pastes.clear();
    this.history.reset();
  }

  private visualRows(width: number): VisualRow[] {
    const rows: VisualRow[] = [];
    this.buffer.lines.forEach((l, line) => {
      for (const r of charWrap(l, width)) rows.push({ line, ...r });
    });
    return rows;
  }

  /** Rows of text the input wants (1..maxRows) at a given inner width. */
  desiredRows(innerWidth: number): number {
    return Math.max(1, Math.min(this.maxRows, this.visualRows(Math.max(1, innerWidth - 3)).length));
  }

  /** Where the terminal cursor belongs, when the input has focus. */
  cursorPlacement(): CursorPlacement | null {
    return this.focused && this.visible ? this.cursor : null;
  }

  protected paintContent(canvas: Canvas): void {
    // One column is kept free so the cursor after a full row stays inside the pane.
    const width = Math.max(1, canvas.width - 3);
    const rows = this.visualRows(width);
    const b = this.buffer;
    // The cursor's visual row: the last row of its line that starts at or before it.
    let cursorRow = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (r.line === b.row && r.start <= b.col) cursorRow = i;
    }
    if (cursorRow < this.scrollTop) this.scrollTop = cursorRow;
    if (cursorRow >= this.scrollTop + canvas.height) this.scrollTop = cursorRow - canvas.height + 1;
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, Math.max(0, rows.length - canvas.height)));

    const out: StyledLine[] = [];
    for (let i = this.scrollTop; i < Math.min(rows.length, this.scrollTop + canvas.height); i++) {
      const r = rows[i]!;
      const text = sanitizeText(b.lines[r.line]!.slice(r.start, r.end), 1);
      const prompt = i === 0 ? "› " : "  ";
      out.push([{ text: prompt, attr: PROMPT }, { text, attr: attr() }]);
    }
    if (b.isEmpty && this.placeholder) out[0] = [{ text: "› ", attr: PROMPT }, { text: this.placeholder, attr: PLACEHOLDER }];
    canvas.paintRows(out);
    const r = rows[cursorRow]!;
    let x = 0;
    for (const g of graphemes(b.lines[r.line]!.slice(r.start, b.col))) x += graphemeWidth(g);
    this.cursor = { x: canvas.rect.left + 2 + Math.min(x, width), y: canvas.rect.top + cursorRow - this.scrollTop };
    this.titleRight = this.hint;
  }
}
