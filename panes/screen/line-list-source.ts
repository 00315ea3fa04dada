// Adapts a list of styled lines (a tool's output log, a help text) to the scroller: each line is
// one block, wrapped to the pane's width on demand. Wrapped rows of finished lines are cached, so
// scrolling a long output wraps each line once.
import type { BlockSource } from "./block-scroller.js";
import type { StyledLine } from "../text/styled-text.js";
import { wrapLine } from "../text/wrap.js";

export interface LineList {
  /** Lines dropped from the front (absolute index of the first line kept). */
  readonly dropped: number;
  readonly lineCount: number;
  line(i: number): StyledLine | undefined;
}

export class StaticLines implements LineList {
  readonly dropped = 0;
  constructor(readonly lines: StyledLine[]) {}
  get lineCount(): number {
    return this.lines.length;
  }
  line(i: number): StyledLine | undefined {
    return this.lines[i];
  }
}

export class LineListSource implements BlockSource {
  private cache = new Map<number, readonly StyledLine[]>();
  private cacheWidth = -1;

  constructor(
    private list: LineList,
    /** Continuation rows are indented this much (0 for program output). */
    private readonly indent = 0,
  ) {}

  setList(list: LineList): void {
    if (list === this.list) return;
    this.list = list;
    this.cache.clear();
  }

  first(): number {
    return this.list.dropped;
  }

  end(): number {
    return this.list.dropped + this.list.lineCount;
  }

  rows(index: number, width: number): readonly StyledLine[] {
    const i = index - this.list.dropped;
    const line = this.list.line(i);
    if (!line) return [];
    // The last line may still grow: never cached.
    const last = i === this.list.lineCount - 1;
    if (width !== this.cacheWidth) {
      this.cache.clear();
      this.cacheWidth = width;
    }
    if (!last) {
      const hit = this.cache.get(index);
      if (hit) return hit;
    }
    const rows = line.length === 0 ? [[]] : wrapLine(line, width, { indent: this.indent });
    if (!last) {
      if (this.cache.size > 5000) this.cache.clear();
      this.cache.set(index, rows);
    }
    return rows;
  }
}
