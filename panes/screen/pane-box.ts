// The frame every pane lives in: a blessed box that draws the border (docked to its neighbours),
// with the title painted on the top border by pitwall (measured, never parsed as tags) and the
// content painted by the pane into the inner rectangle on each render.
import type { Widgets } from "blessed";
import { screenInternals } from "./blessed-internals.js";
import { blessedBox } from "./blessed-parts.js";
import { Canvas, type Rect } from "./canvas.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { textWidth, truncateText } from "../text/text-width.js";
import { truncateLine } from "../text/wrap.js";

export const BORDER = attr({ fg: Color.grey });
// Only the focused pane's title is bold: without colours (NO_COLOR) that is what shows the focus.
const TITLE = attr();
const TITLE_FOCUSED = attr({ fg: Color.cyan, bold: true });

export interface PaneBoxOptions {
  title: string;
  /** Draw a border (default true). */
  border?: boolean;
  /** One column of space inside the border on each side (default true). */
  padding?: boolean;
}

export abstract class PaneBox {
  readonly box: Widgets.BoxElement;
  focused = false;
  protected title: string;
  /** A styled title shown instead of `title` (the queue in the input's border). */
  protected titleLine: StyledLine | undefined;
  /** Extra text at the right end of the top border (a count, "following"). */
  protected titleRight = "";
  /** Its colours when it is a warning rather than a count (the border's otherwise). */
  protected titleRightAttr: number | undefined;
  private readonly bordered: boolean;
  private readonly padded: boolean;
  /** A border colour (a `Color`) that overrides the focus colours (the jobs pane while attached). */
  private accent: number | undefined;
  private rect: Rect = { left: 0, top: 0, width: 0, height: 0 };

  constructor(
    protected readonly screen: Widgets.Screen,
    options: PaneBoxOptions,
  ) {
    this.title = options.title;
    this.bordered = options.border !== false;
    this.padded = this.bordered && options.padding !== false;
    this.box = blessedBox({
      parent: screen,
      left: 0,
      top: 0,
      width: 1,
      height: 1,
      tags: false,
      border: this.bordered ? { type: "line" } : undefined,
      style: { border: { fg: Color.grey } },
    });
    this.box.on("render", () => this.paint());
  }

  setRect(rect: Rect): void {
    this.rect = rect;
    this.box.left = rect.left;
    this.box.top = rect.top;
    this.box.width = Math.max(1, rect.width);
    this.box.height = Math.max(1, rect.height);
  }

  /** Shows the pane in front of every other, focused: an overlay opening. */
  protected raise(): void {
    this.setVisible(true);
    this.setFocused(true);
    this.box.setFront();
  }

  setVisible(visible: boolean): void {
    if (visible) this.box.show();
    else this.box.hide();
  }

  get visible(): boolean {
    return this.box.visible;
  }

  setFocused(focused: boolean): void {
    this.focused = focused;
    this.applyBorderColor();
  }

  /** Draws the border (and title) in `color` (a `Color`) until called with undefined. */
  setAccent(color: number | undefined): void {
    this.accent = color;
    this.applyBorderColor();
  }

  private applyBorderColor(): void {
    // blessed takes a colour number as it is: pitwall's own colours reach the frame writer.
    const style = this.box.style as { border?: { fg?: number } };
    if (style.border) style.border.fg = this.accent ?? (this.focused ? Color.cyan : Color.grey);
  }

  /** The content area: inside the border, with one column of space on each side. */
  get inner(): Rect {
    return this.innerOf(this.rect);
  }

  /** The content area this pane would have at `rect`. */
  innerOf(rect: Rect): Rect {
    const b = this.bordered ? 1 : 0;
    const pad = this.padded ? 1 : 0;
    return {
      left: rect.left + b + pad,
      top: rect.top + b,
      width: Math.max(0, rect.width - 2 * (b + pad)),
      height: Math.max(0, rect.height - 2 * b),
    };
  }

  /** Whether a screen cell lies in this pane. */
  contains(x: number, y: number): boolean {
    const r = this.rect;
    return this.visible && x >= r.left && x < r.left + r.width && y >= r.top && y < r.top + r.height;
  }

  protected abstract paintContent(canvas: Canvas): void;

  private paint(): void {
    const lines = screenInternals(this.screen).lines;
    // Content first: painting it may change what the title says (a scroll position).
    const inner = this.inner;
    if (inner.width > 0 && inner.height > 0) this.paintContent(new Canvas(lines, inner));
    if (this.bordered && this.rect.width > 4) {
      const top = new Canvas(lines, { left: this.rect.left + 1, top: this.rect.top, width: this.rect.width - 2, height: 1 });
      const right = this.titleRight ? ` ${this.titleRight} ` : "";
      const room = Math.max(0, this.rect.width - 4 - textWidth(right));
      const titleAttr = this.accent !== undefined ? attr({ fg: this.accent, bold: true }) : this.focused ? TITLE_FOCUSED : TITLE;
      const title: StyledLine = this.titleLine
        ? [{ text: " ", attr: titleAttr }, ...truncateLine(this.titleLine, Math.max(0, room - 2)), { text: " ", attr: titleAttr }]
        : [{ text: ` ${truncateText(this.title, Math.max(0, room - 2))} `, attr: titleAttr }];
      top.paintLine(0, title, 1, null);
      if (right && room > 4) top.paintLine(0, [{ text: right, attr: this.titleRightAttr ?? BORDER }], this.rect.width - 3 - textWidth(right), null);
    }
  }
}
