// Shown instead of the panes when the terminal is smaller than even the one-pane layout needs: what
// size it is, what it needs, and that Ctrl+D still quits.
import type { Widgets } from "blessed";
import type { Canvas } from "../screen/canvas.js";
import { MIN_COLS, MIN_ROWS } from "../layout.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { textWidth } from "../text/text-width.js";
import { wrapLine } from "../text/wrap.js";

export class TooSmallNotice extends PaneBox {
  /** A question waiting for its answer (quitting while jobs run), shown whole under the notice. */
  question: string | undefined;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "", border: false });
    this.setVisible(false);
  }

  protected paintContent(canvas: Canvas): void {
    const message = `Terminal too small: ${String(this.screen.width)}x${String(this.screen.height)}. pitwall needs at least ${MIN_COLS}x${MIN_ROWS}: enlarge the window (Ctrl+D quits).`;
    const width = Math.max(10, canvas.width - 2);
    const rows: StyledLine[] = wrapLine([{ text: message, attr: attr({ fg: Color.yellow, bold: true }) }], width);
    if (this.question) rows.push([], ...wrapLine([{ text: this.question, attr: attr({ bold: true }) }], width));
    const top = Math.max(0, Math.floor((canvas.height - rows.length) / 2));
    canvas.fill();
    rows.forEach((r, i) => {
      const w = textWidth(r.map((s) => s.text).join(""));
      canvas.paintLine(top + i, r, Math.max(0, Math.floor((canvas.width - w) / 2)), null);
    });
  }
}
