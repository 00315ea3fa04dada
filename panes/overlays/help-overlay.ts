// A scrollable overlay of text drawn above the panes: the key bindings in force and the commands
// (F1). Each section is a two-column table laid out for the overlay's width: the keys in a column
// as wide as the longest binding needs, within 30 % of the width (but never narrower than the
// longest single key); a longer list of keys wraps at its separators inside the column, and the
// description wraps inside its own column.
import type { Widgets } from "blessed";
import { BlockScroller } from "../screen/block-scroller.js";
import type { Canvas } from "../screen/canvas.js";
import { LineListSource, StaticLines } from "../screen/line-list-source.js";
import { ScrollingPane } from "../screen/scrolling-pane.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { fitText, textWidth, truncateText } from "../text/text-width.js";
import { wrapLine } from "../text/wrap.js";

export interface HelpSection {
  title: string;
  rows: Array<{ keys: string; description: string }>;
  /** Text under the title, before the rows (wrapped to the width). */
  note?: string;
}

const HEAD = attr({ fg: Color.magenta, bold: true });
const KEYS = attr({ fg: Color.cyan });
const NOTE = attr({ fg: Color.grey });
/** Where a list of keys may break: "Ctrl+] / F12". */
export const KEY_SEPARATOR = " / ";
const INDENT = 2;
const GAP = 2;

/** A list of keys cut into lines of at most `width` columns, at its separators. */
function keyLines(keys: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const key of keys.split(KEY_SEPARATOR)) {
    const joined = line ? `${line}${KEY_SEPARATOR}${key}` : key;
    if (line && textWidth(joined) > width) {
      lines.push(`${line}${KEY_SEPARATOR.trimEnd()}`);
      line = key;
    } else line = joined;
  }
  lines.push(line);
  return lines.map((l) => truncateText(l, width));
}

/** The sections as rows of at most `width` columns. */
export function helpLines(sections: HelpSection[], width: number): StyledLine[] {
  const rows = sections.flatMap((s) => s.rows);
  const widest = Math.max(8, ...rows.map((r) => textWidth(r.keys)));
  const widestKey = Math.max(8, ...rows.flatMap((r) => r.keys.split(KEY_SEPARATOR).map((k) => textWidth(k) + 2)));
  const room = width - INDENT - GAP;
  const keyWidth = Math.min(widest, Math.max(widestKey, Math.floor(room * 0.3)), Math.floor(room * 0.5));
  const descriptionWidth = Math.max(10, width - INDENT - keyWidth - GAP);
  const lines: StyledLine[] = [];
  for (const section of sections) {
    if (lines.length > 0) lines.push([]);
    lines.push([{ text: section.title, attr: HEAD }]);
    if (section.note) lines.push(...wrapLine([{ text: section.note, attr: NOTE }], width));
    for (const row of section.rows) {
      const keys = keyLines(row.keys, keyWidth);
      const description = wrapLine([{ text: row.description, attr: attr() }], descriptionWidth);
      for (let i = 0; i < Math.max(keys.length, description.length); i++) {
        lines.push([{ text: `${" ".repeat(INDENT)}${fitText(keys[i] ?? "", keyWidth)}${" ".repeat(GAP)}`, attr: KEYS }, ...(description[i] ?? [])]);
      }
    }
  }
  return lines;
}

export class HelpOverlay extends ScrollingPane {
  private readonly source = new LineListSource(new StaticLines([]), 4);
  protected readonly scroller = new BlockScroller(this.source);
  private sections: HelpSection[] = [];
  private laidOutWidth = -1;
  open = false;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "help" });
    this.setVisible(false);
  }

  show(title: string, sections: HelpSection[]): void {
    this.title = title;
    this.sections = sections;
    this.laidOutWidth = -1;
    this.scroller.toTop();
    this.open = true;
    this.raise();
  }

  hide(): void {
    this.open = false;
    this.setVisible(false);
  }

  /** The columns and rows its text takes at most `maxCols` wide: the table fills the width it gets. */
  contentSize(maxCols: number): { cols: number; rows: number } {
    return { cols: maxCols, rows: helpLines(this.sections, maxCols).length };
  }

  protected override prepareScroll(width: number): void {
    this.layOut(width);
  }

  private layOut(width: number): void {
    if (width === this.laidOutWidth) return;
    this.laidOutWidth = width;
    this.source.setList(new StaticLines(helpLines(this.sections, width)));
  }

  protected paintContent(canvas: Canvas): void {
    this.layOut(canvas.width);
    const view = this.scroller.view(canvas.width, canvas.height);
    this.titleRight = view.blocksBelow > 0 || view.moreAbove ? "↑↓ PgUp PgDn · Esc close" : "Esc close";
    canvas.paintRows(view.rows);
  }
}
