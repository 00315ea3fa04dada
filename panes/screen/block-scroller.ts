// Scrolling over a pane's own store of blocks (chat entries, output lines), each wrapping to some
// rows. The position is kept as (block, row within block), so finding what to show walks only the
// blocks on screen: a 10 000-message conversation scrolls as fast as a short one, and a resize
// re-wraps only what is visible. Following the bottom pauses when the person scrolls up and
// resumes when they come back down (or press End).
import type { StyledLine } from "../text/styled-text.js";

export interface BlockSource {
  /** Absolute index of the first block still kept (blocks may be dropped from the front). */
  first(): number;
  /** One past the absolute index of the last block. */
  end(): number;
  /** The rows of a block at this width. Contract: cheap when called again for an unchanged block. */
  rows(index: number, width: number): readonly StyledLine[];
}

export interface ViewSlice {
  rows: StyledLine[];
  /** The block each row came from. */
  blocks: number[];
  /** Blocks after the last row shown (0 when the bottom is visible). */
  blocksBelow: number;
  /** Whether rows exist above the first one shown. */
  moreAbove: boolean;
}

export class BlockScroller {
  /** Sticking to the bottom: new content scrolls into view. */
  following = true;
  private block = 0;
  private row = 0;

  constructor(private readonly source: BlockSource) {}

  /** The rows to show in a viewport of this size. */
  view(width: number, height: number): ViewSlice {
    const first = this.source.first();
    const end = this.source.end();
    if (height <= 0 || end <= first) return { rows: [], blocks: [], blocksBelow: 0, moreAbove: false };
    if (!this.following) {
      this.clampAnchor(width);
      const slice = this.collectDown(this.block, this.row, width, height);
      if (slice.rows.length >= height && !(slice.lastBlock === end - 1 && slice.lastRowEnd)) {
        return { rows: slice.rows, blocks: slice.blocks, blocksBelow: end - 1 - slice.lastBlock, moreAbove: this.block > first || this.row > 0 };
      }
      // Reached the bottom: follow again.
      this.following = true;
    }
    return this.bottomView(width, height);
  }

  /** How many rows the content takes at a width, counted from the bottom and no further than `max`. */
  contentRows(width: number, max: number): number {
    const first = this.source.first();
    let total = 0;
    for (let b = this.source.end() - 1; b >= first && total < max; b--) total += this.source.rows(b, width).length;
    return Math.min(total, max);
  }

  /** Moves the view by `delta` rows (negative: up). */
  scrollBy(delta: number, width: number, height: number): void {
    if (delta === 0) return;
    if (this.following) {
      if (delta > 0) return;
      this.anchorAtBottom(width, height);
      this.following = false;
    }
    const first = this.source.first();
    const end = this.source.end();
    if (delta < 0) {
      let left = -delta;
      while (left > 0) {
        if (this.row >= left) {
          this.row -= left;
          left = 0;
        } else {
          left -= this.row;
          if (this.block <= first) {
            this.row = 0;
            break;
          }
          this.block--;
          this.row = this.source.rows(this.block, width).length;
        }
      }
      if (this.row === this.source.rows(this.block, width).length && this.block < end - 1) {
        this.block++;
        this.row = 0;
      }
      return;
    }
    let left = delta;
    while (left > 0 && this.block < end) {
      const count = this.source.rows(this.block, width).length;
      if (this.row + left < count) {
        this.row += left;
        left = 0;
      } else {
        left -= count - this.row;
        this.block++;
        this.row = 0;
      }
    }
    // Near the bottom: view() switches back to following when the last row is reached.
    if (this.block >= end) this.following = true;
  }

  /** The block at the top of a scrolled view (undefined while following the bottom). */
  get topBlock(): number | undefined {
    return this.following ? undefined : this.block;
  }

  toTop(): void {
    this.following = false;
    this.block = this.source.first();
    this.row = 0;
  }

  toBottom(): void {
    this.following = true;
  }

  /** Scrolls so the given block is on screen: aligned to the top when above, to the bottom when below. */
  reveal(index: number, width: number, height: number): void {
    const view = this.view(width, height);
    const total = this.source.rows(index, width).length;
    const shown = view.blocks.filter((b) => b === index).length;
    if (shown > 0 && shown >= Math.min(total, height)) return;
    const firstShown = view.blocks[0];
    this.following = false;
    this.block = index;
    if (firstShown === undefined || index <= firstShown) {
      this.row = 0;
      return;
    }
    this.row = Math.max(0, total - 1);
    this.scrollBy(-(height - 1), width, height);
  }

  private clampAnchor(width: number): void {
    const first = this.source.first();
    const end = this.source.end();
    if (this.block < first) {
      this.block = first;
      this.row = 0;
    }
    if (this.block >= end) {
      this.block = end - 1;
      this.row = 0;
    }
    const count = this.source.rows(this.block, width).length;
    if (this.row >= count) this.row = Math.max(0, count - 1);
  }

  private anchorAtBottom(width: number, height: number): void {
    const first = this.source.first();
    let block = this.source.end() - 1;
    let need = height;
    while (block >= first) {
      const count = this.source.rows(block, width).length;
      if (count >= need) {
        this.block = block;
        this.row = count - need;
        return;
      }
      need -= count;
      block--;
    }
    this.block = first;
    this.row = 0;
  }

  private bottomView(width: number, height: number): ViewSlice {
    const first = this.source.first();
    const collected: Array<{ rows: readonly StyledLine[]; block: number }> = [];
    let total = 0;
    for (let b = this.source.end() - 1; b >= first && total < height; b--) {
      const rows = this.source.rows(b, width);
      collected.push({ rows, block: b });
      total += rows.length;
    }
    const rows: StyledLine[] = [];
    const blocks: number[] = [];
    let skip = Math.max(0, total - height);
    for (let i = collected.length - 1; i >= 0; i--) {
      const c = collected[i]!;
      for (const r of c.rows) {
        if (skip > 0) {
          skip--;
          continue;
        }
        rows.push(r);
        blocks.push(c.block);
      }
    }
    const lowest = collected[collected.length - 1]?.block ?? first;
    return { rows, blocks, blocksBelow: 0, moreAbove: total > height || lowest > first };
  }

  private collectDown(block: number, row: number, width: number, height: number): { rows: StyledLine[]; blocks: number[]; lastBlock: number; lastRowEnd: boolean } {
    const end = this.source.end();
    const rows: StyledLine[] = [];
    const blocks: number[] = [];
    let b = block;
    let r = row;
    let lastBlock = block;
    let lastRowEnd = false;
    while (b < end && rows.length < height) {
      const blockRows = this.source.rows(b, width);
      while (r < blockRows.length && rows.length < height) {
        rows.push(blockRows[r]!);
        blocks.push(b);
        r++;
      }
      lastBlock = b;
      lastRowEnd = r >= blockRows.length;
      if (rows.length < height) {
        b++;
        r = 0;
      }
    }
    return { rows, blocks, lastBlock, lastRowEnd };
  }
}
