// A pane whose content scrolls through a BlockScroller: the keys' scrolling verbs (a row, a page,
// top, bottom) in one place for every such pane.
import type { BlockScroller } from "./block-scroller.js";
import { PaneBox } from "./pane-box.js";

export abstract class ScrollingPane extends PaneBox {
  protected abstract readonly scroller: BlockScroller;

  /** Called before a scroll with the inner width, for panes that lay their content out lazily. */
  protected prepareScroll(_width: number): void {}

  scrollBy(rows: number): void {
    const { width, height } = this.inner;
    this.prepareScroll(width);
    this.scroller.scrollBy(rows, width, height);
  }

  page(direction: 1 | -1): void {
    this.scrollBy(direction * Math.max(1, this.inner.height - 2));
  }

  toTop(): void {
    this.scroller.toTop();
  }

  toBottom(): void {
    this.scroller.toBottom();
  }
}
