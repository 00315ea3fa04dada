// The completion menu: a small box just above the input, over the panes (no row of the layout
// moves), listing the candidates Tab found (commands, prompt templates, job and model ids) with
// what each does where it says, the current one on the selection's grey. At most MAX_ROWS rows,
// scrolling with the selection, "+N more" for the rest. It only shows: the app decides what keys
// do (app/keys/slash-completion.ts) and tells it the candidates and which one is current.
import type { Widgets } from "blessed";
import type { Canvas, Rect } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { selectedRow } from "../text/selection.js";
import { sanitizeText } from "../text/terminal-text.js";
import { textWidth } from "../text/text-width.js";

/** Candidates shown at once. */
export const MAX_ROWS = 8;
/** The box's widest (border included): descriptions past it end with "…". */
const MAX_WIDTH = 76;
/** A candidate's name column is at most this wide, so a long id leaves room for descriptions. */
const MAX_NAME_COLS = 28;

const NAME = attr({ fg: Color.cyan });
const DESCRIPTION = attr({ fg: Color.grey });

export interface CompletionItem {
  /** What goes into the input (`/review`, a job id). */
  name: string;
  /** What it does, when known (a template's first line, a command's description). */
  description?: string;
}

export class CompletionMenu extends PaneBox {
  private items: CompletionItem[] = [];
  selected = 0;
  private scrollTop = 0;
  open = false;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "Tab next · Enter pick · Esc close" });
    this.setVisible(false);
  }

  show(items: CompletionItem[], selected = 0): void {
    // A template's first line is the person's file: no escape reaches the terminal.
    this.items = items.map((item) => ({ name: sanitizeText(item.name, 1), description: item.description === undefined ? undefined : sanitizeText(item.description, 1) }));
    this.scrollTop = 0;
    this.select(selected);
    this.open = true;
    this.setVisible(true);
    this.box.setFront();
  }

  hide(): void {
    this.open = false;
    this.setVisible(false);
  }

  /** Makes `index` current, scrolling it into view. */
  select(index: number): void {
    this.selected = Math.max(0, Math.min(this.items.length - 1, index));
    const rows = this.itemRows;
    if (this.selected < this.scrollTop) this.scrollTop = this.selected;
    if (this.selected >= this.scrollTop + rows) this.scrollTop = this.selected - rows + 1;
  }

  /** Candidate rows shown: up to MAX_ROWS, fewer when the screen leaves less room (see place). */
  private itemRows = MAX_ROWS;

  /** Its rectangle: just above `input` (its bottom border on the row above the input's top), left-aligned with it, within `area`'s rows. */
  place(input: Rect, area: Rect): Rect {
    const more = this.items.length > MAX_ROWS ? 1 : 0;
    const room = Math.max(0, input.top - area.top);
    this.itemRows = Math.max(1, Math.min(this.items.length, MAX_ROWS, room - 2 - more));
    this.select(this.selected);
    const nameCols = this.nameCols;
    const widest = Math.max(
      textWidth(this.title) + 4,
      ...this.items.map((item) => Math.min(nameCols, textWidth(item.name)) + (item.description ? 2 + textWidth(item.description) : 0)),
      more ? textWidth(this.moreText) : 0,
    );
    const width = Math.min(input.width, MAX_WIDTH, widest + 4);
    const height = Math.min(room, this.itemRows + more + 2);
    return { left: input.left, top: input.top - height, width, height };
  }

  private get nameCols(): number {
    return Math.min(MAX_NAME_COLS, Math.max(0, ...this.items.map((item) => textWidth(item.name))));
  }

  private get moreText(): string {
    return `+${this.items.length - this.itemRows} more`;
  }

  protected paintContent(canvas: Canvas): void {
    const nameCols = this.nameCols;
    const shown = this.items.slice(this.scrollTop, this.scrollTop + this.itemRows);
    const rows: StyledLine[] = shown.map((item, i) => {
      const pad = Math.max(0, nameCols - textWidth(item.name));
      const row: StyledLine = [{ text: item.name + " ".repeat(pad), attr: NAME }];
      if (item.description) row.push({ text: `  ${item.description}`, attr: DESCRIPTION });
      return i + this.scrollTop === this.selected ? selectedRow(row, canvas.width) : row;
    });
    if (this.items.length > this.itemRows) rows.push([{ text: this.moreText, attr: DESCRIPTION }]);
    canvas.paintRows(rows.slice(0, canvas.height));
  }
}
