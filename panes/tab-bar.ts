// The tab bar of the small-terminal layout (below 80x24, or below 120 columns with jobs): one tab per
// pane, the shown one in the selection colour, each with what would make a person switch to it (a
// reply not seen yet, a tool running, jobs up or with unseen output, files touched) and the key that
// shows it.
import type { Widgets } from "blessed";
import type { Canvas } from "./screen/canvas.js";
import type { MainPane } from "./layout.js";
import { PaneBox } from "./screen/pane-box.js";
import { selectedRow } from "./text/selection.js";
import { attr, Color, type Span, type StyledLine } from "./text/styled-text.js";
import { textWidth } from "./text/text-width.js";

export interface TabState {
  /** A short mark after the tab's name ("•", "⠋", "2↑•", "3"), or "". */
  mark: string;
  /** The key that shows the tab ("Alt+1"), if bound. */
  key?: string;
}

const NAMES: Record<MainPane, string> = { chat: "chat", toolOutput: "tool", jobs: "jobs", files: "files" };
const TAB = attr();
const MARK = attr({ fg: Color.yellow });
const KEY = attr({ fg: Color.grey });
const SEP = attr({ fg: Color.grey });

export class TabBar extends PaneBox {
  /** The tab shown. */
  active: MainPane = "chat";
  /** Each tab's mark and key, asked for on every frame. */
  state: (tab: MainPane) => TabState = () => ({ mark: "" });
  /** Where each tab was drawn (columns), for the mouse. */
  private spans: Array<{ tab: MainPane; from: number; to: number }> = [];

  constructor(
    screen: Widgets.Screen,
    private readonly tabs: readonly MainPane[],
  ) {
    super(screen, { title: "tabs", border: false });
  }

  /** The tab under a screen column, if any. */
  tabAt(x: number): MainPane | undefined {
    const left = this.inner.left;
    return this.spans.find((s) => x - left >= s.from && x - left < s.to)?.tab;
  }

  /** The bar at a width: keys shown when everything fits with them, else names and marks only. */
  line(width: number): StyledLine {
    for (const withKeys of [true, false]) {
      const row: StyledLine = [];
      const spans: typeof this.spans = [];
      let used = 0;
      this.tabs.forEach((tab, i) => {
        if (i > 0) {
          row.push({ text: "│", attr: SEP });
          used += 1;
        }
        const { mark, key } = this.state(tab);
        const parts: Span[] = [{ text: ` ${NAMES[tab]}`, attr: TAB }];
        if (mark) parts.push({ text: ` ${mark}`, attr: MARK });
        if (withKeys && key) parts.push({ text: ` ${key}`, attr: KEY });
        parts.push({ text: " ", attr: TAB });
        const w = textWidth(parts.map((p) => p.text).join(""));
        spans.push({ tab, from: used, to: used + w });
        row.push(...(tab === this.active ? selectedRow(parts) : parts));
        used += w;
      });
      if (used <= width || !withKeys) {
        this.spans = spans;
        return row;
      }
    }
    return [];
  }

  protected paintContent(canvas: Canvas): void {
    canvas.paintLine(0, this.line(canvas.width));
  }
}
