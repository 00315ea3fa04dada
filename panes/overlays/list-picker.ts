// A modal list to choose one item from (the sessions offered by --resume, what to do with a session
// open elsewhere, the message to rewind to, the branch of /tree): Up/Down move, Enter picks, Esc
// declines. Each item is one pre-formatted row; an optional introduction above the items explains
// the choice. The overlay keys of keymap.json drive it (the key dispatcher calls pick and cancel).
import type { Widgets } from "blessed";
import type { Canvas } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, lineText, type StyledLine } from "../text/styled-text.js";
import { textWidth } from "../text/text-width.js";
import { selectedRow } from "../text/selection.js";
import { wrapLine } from "../text/wrap.js";

const DIM = attr({ fg: Color.grey });
/** Rows of items kept visible before the introduction gets any on a short screen. */
const MIN_ITEM_ROWS = 3;

/** What picking does: `pick` gets the chosen row's index; `cancel` runs when the person declines. */
export interface PickerChoice {
  pick(index: number): void;
  cancel(): void;
}

export class ListPicker extends PaneBox {
  private items: StyledLine[] = [];
  private intro: string[] = [];
  private footer = "";
  selected = 0;
  private scrollTop = 0;
  open = false;
  private choice: PickerChoice | undefined;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "pick" });
    this.setVisible(false);
  }

  /** `selected`: the row selected at first. */
  show(title: string, items: StyledLine[], footer: string, choice: PickerChoice, intro: string[] = [], selected = 0): void {
    this.choice = choice;
    this.title = title;
    this.items = items;
    this.intro = intro;
    this.footer = footer;
    this.selected = Math.max(0, Math.min(items.length - 1, selected));
    this.scrollTop = 0;
    this.open = true;
    this.raise();
  }

  /** New rows for the open list (what they show changed), the selection kept where it can be. */
  setItems(items: StyledLine[]): void {
    this.items = items;
    this.selected = Math.max(0, Math.min(items.length - 1, this.selected));
  }

  hide(): void {
    this.open = false;
    this.choice = undefined;
    this.setVisible(false);
  }

  /** Chooses the selected row. */
  pick(): void {
    const choice = this.choice;
    this.hide();
    choice?.pick(this.selected);
  }

  /** Declines: closes without choosing. */
  cancel(): void {
    const choice = this.choice;
    this.hide();
    choice?.cancel();
  }

  move(direction: number): void {
    this.selected = Math.max(0, Math.min(this.items.length - 1, this.selected + direction));
  }

  /** The columns and rows it needs at most `maxCols` wide: its widest row, the wrapped introduction, the items, the footer. */
  contentSize(maxCols: number): { cols: number; rows: number } {
    const widest = Math.max(
      textWidth(this.title) + 2,
      textWidth(this.footer),
      ...this.items.map((row) => textWidth(lineText(row)) + 2),
      ...this.intro.map((line) => textWidth(line)),
    );
    const cols = Math.max(20, Math.min(maxCols, widest));
    const intro = this.intro.flatMap((line) => wrapLine([{ text: line, attr: attr() }], cols)).length;
    return { cols, rows: (intro > 0 ? intro + 1 : 0) + this.items.length + 2 };
  }

  protected paintContent(canvas: Canvas): void {
    const introRows = this.introRows(canvas);
    const height = Math.max(1, canvas.height - 2 - introRows.length);
    if (this.selected < this.scrollTop) this.scrollTop = this.selected;
    if (this.selected >= this.scrollTop + height) this.scrollTop = this.selected - height + 1;
    const rows: StyledLine[] = this.items.slice(this.scrollTop, this.scrollTop + height).map((row, i) =>
      i + this.scrollTop === this.selected ? selectedRow([{ text: "▶ ", attr: attr() }, ...row], canvas.width) : [{ text: "  ", attr: attr() }, ...row],
    );
    while (rows.length < height) rows.push([]);
    rows.push([], [{ text: this.footer, attr: DIM }]);
    canvas.paintRows([...introRows, ...rows]);
  }

  /**
   * The introduction, wrapped, then a blank row. On a short screen the choices come first: the
   * introduction gets what is left after a few rows of items and the footer, cut with "…".
   */
  private introRows(canvas: Canvas): StyledLine[] {
    if (this.intro.length === 0) return [];
    const wrapped = this.intro.flatMap((line) => wrapLine([{ text: line, attr: attr() }], canvas.width));
    const room = Math.max(0, canvas.height - 2 - Math.max(1, Math.min(this.items.length, MIN_ITEM_ROWS)));
    if (wrapped.length + 1 <= room) return [...wrapped, []];
    if (room === 0) return [];
    const cut = wrapped.slice(0, room);
    const last = cut[room - 1]!.map((span) => ({ ...span }));
    const tail = last.at(-1);
    const full = last.reduce((n, span) => n + span.text.length, 0) >= canvas.width;
    if (tail) tail.text = `${full ? tail.text.slice(0, -1) : tail.text.trimEnd()}…`;
    cut[room - 1] = last;
    return cut;
  }
}
