// A scrollable overlay of text drawn above the panes: the key bindings in force (F1), the system
// prompt report (/context). The caller builds the lines; the overlay scrolls and closes.
import type { Widgets } from "blessed";
import { BlockScroller } from "../screen/block-scroller.js";
import type { Canvas } from "../screen/canvas.js";
import { LineListSource, StaticLines } from "../screen/line-list-source.js";
import { ScrollingPane } from "../screen/scrolling-pane.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { fitText } from "../text/text-width.js";

export interface HelpSection {
  title: string;
  rows: Array<{ keys: string; description: string }>;
}

const HEAD = attr({ fg: Color.magenta, bold: true });
const KEYS = attr({ fg: Color.cyan });

/** Sections of "keys — description" rows as lines, keys in a column. */
export function helpLines(sections: HelpSection[], intro: StyledLine[] = []): StyledLine[] {
  const keyWidth = Math.min(28, Math.max(8, ...sections.flatMap((s) => s.rows.map((r) => r.keys.length))));
  const lines: StyledLine[] = [...intro];
  for (const section of sections) {
    if (lines.length > 0) lines.push([]);
    lines.push([{ text: section.title, attr: HEAD }]);
    for (const row of section.rows) {
      lines.push([{ text: `  ${fitText(row.keys, keyWidth)}  `, attr: KEYS }, { text: row.description, attr: attr() }]);
    }
  }
  return lines;
}

export class HelpOverlay extends ScrollingPane {
  private readonly source = new LineListSource(new StaticLines([]), 4);
  protected readonly scroller = new BlockScroller(this.source);
  open = false;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "help" });
    this.setVisible(false);
  }

  show(title: string, lines: StyledLine[]): void {
    this.title = title;
    this.source.setList(new StaticLines(lines));
    this.scroller.toTop();
    this.open = true;
    this.raise();
  }

  hide(): void {
    this.open = false;
    this.setVisible(false);
  }

  protected paintContent(canvas: Canvas): void {
    const view = this.scroller.view(canvas.width, canvas.height);
    this.titleRight = view.blocksBelow > 0 || view.moreAbove ? "↑↓ PgUp PgDn · Esc close" : "Esc close";
    canvas.paintRows(view.rows);
  }
}
