// A one-line question drawn over the panes (the command of a new job): an editable line with the
// usual cursor keys, a hint saying what Enter and Esc do. The app decides what the answer means.
import type { Widgets } from "blessed";
import type { Canvas } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import type { CursorPlacement } from "../screen/render-scheduler.js";
import { attr, Color } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { TextBuffer } from "../input/text-buffer.js";
import { graphemes, graphemeWidth, textWidth } from "../text/text-width.js";

const PROMPT = attr({ fg: Color.cyan, bold: true });
const HINT = attr({ fg: Color.grey });

export class PromptOverlay extends PaneBox {
  readonly buffer = new TextBuffer();
  open = false;
  private hint = "";
  private cursor: CursorPlacement | null = null;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "prompt" });
    this.setVisible(false);
  }

  show(title: string, hint: string, text = ""): void {
    this.title = title;
    this.hint = hint;
    this.buffer.text = text;
    this.buffer.end();
    this.open = true;
    this.raise();
  }

  hide(): void {
    this.open = false;
    this.setVisible(false);
  }

  /** Its line and hint, at least wide enough for a command (60 columns), at most `maxCols`. */
  contentSize(maxCols: number): { cols: number; rows: number } {
    return { cols: Math.min(maxCols, Math.max(60, textWidth(this.hint), textWidth(this.title) + 2)), rows: 2 };
  }

  /** The answer typed so far (one line: pasted line breaks become "; "). */
  get value(): string {
    return this.buffer.lines.join("; ");
  }

  /** Inserts typed or pasted text on the one line. */
  insert(text: string): void {
    this.buffer.insert(text.replace(/\r\n?|\n/g, "; "));
  }

  cursorPlacement(): CursorPlacement | null {
    return this.open && this.visible ? this.cursor : null;
  }

  protected paintContent(canvas: Canvas): void {
    const line = sanitizeText(this.buffer.currentLine, 1);
    const before = sanitizeText(this.buffer.currentLine.slice(0, this.buffer.col), 1);
    const room = Math.max(1, canvas.width - 3);
    // Scroll the line so the cursor stays in view.
    let skip = 0;
    const beforeWidth = textWidth(before);
    if (beforeWidth > room) {
      let cut = 0;
      for (const g of graphemes(before)) {
        if (beforeWidth - cut <= room) break;
        cut += graphemeWidth(g);
        skip += g.length;
      }
    }
    canvas.paintLine(0, [{ text: "› ", attr: PROMPT }, { text: line.slice(skip), attr: attr() }]);
    if (canvas.height > 1) canvas.paintLine(1, [{ text: this.hint, attr: HINT }]);
    for (let y = 2; y < canvas.height; y++) canvas.paintLine(y, []);
    this.cursor = { x: canvas.rect.left + 2 + textWidth(before.slice(skip)), y: canvas.rect.top };
  }
}
