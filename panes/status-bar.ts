// The status line at the bottom: what the agent is doing (with a spinner and the turn's elapsed
// time), the model and thinking level, tokens and cost of the session, retries, jobs up, and the
// last error until it is dismissed. Items give way by priority when the terminal is narrow.
import type { Widgets } from "blessed";
import type { Canvas } from "./screen/canvas.js";
import { formatCost, formatDuration, formatTokens, spinnerFrame } from "./text/format.js";
import { PaneBox } from "./screen/pane-box.js";
import { attr, Color, type Span, type StyledLine } from "./text/styled-text.js";
import { sanitizeText } from "./text/terminal-text.js";
import { textWidth, truncateText } from "./text/text-width.js";

export interface StatusState {
  phase: "starting" | "idle" | "working";
  /** When the current turn started (epoch ms), while working. */
  turnStartedAt?: number;
  model: string;
  thinking: string;
  tokens: number;
  /** Of `tokens`, the ones read from the provider's prompt cache. */
  cachedTokens?: number;
  cost: number | null;
  jobsUp: number;
  /** How full the context window is: "41% of 200k", coloured as it nears the compaction threshold. */
  context?: { percent: number; window: number; compactAt: number };
  retry?: string;
  error?: string;
  /** A short-lived message ("press Ctrl+C again to quit"). */
  transient?: string;
  /** A question waiting for an answer ("2 jobs running: quit and stop them? y/n"); shown first. */
  question?: string;
  session?: string;
  /** Where the tools and jobs run when not on this machine (`dev@box:~/app`). */
  remote?: string;
  /** The link to the remote is down and pitwall is reconnecting. */
  remoteDown?: boolean;
  /** The current model's provider has no key or server: nothing can be sent. */
  unconfigured?: boolean;
  /** Set while part of the conversation could not be written to the session file. */
  sessionProblem?: string;
  helpKey: string;
}

const BAR = attr({ bg: Color.black, fg: Color.white });
const SEP = attr({ bg: Color.black, fg: Color.grey });
const WORKING = attr({ bg: Color.black, fg: Color.yellow, bold: true });
const READY = attr({ bg: Color.black, fg: Color.green });
const WARN = attr({ bg: Color.black, fg: Color.yellow });
const ERROR = attr({ bg: Color.red, fg: Color.white, bold: true });
const HINT = attr({ bg: Color.black, fg: Color.grey });
// Not bold: many terminals draw bold black as grey, unreadable on yellow.
const QUESTION = attr({ bg: Color.yellow, fg: Color.black });

interface Item {
  spans: Span[];
  priority: number;
}

/** Green while there is room, yellow past half of the compaction threshold, red from it on. */
function contextMeter(context: NonNullable<StatusState["context"]>): Span {
  const percent = Math.round(context.percent);
  const colour = context.percent >= context.compactAt ? Color.red : context.percent >= context.compactAt / 2 ? Color.yellow : Color.green;
  const window = formatTokens(context.window).replace(/\.0([kM])$/, "$1");
  return { text: `${percent}% of ${window}`, attr: attr({ bg: Color.black, fg: colour }) };
}

export class StatusBar extends PaneBox {
  state: StatusState = { phase: "starting", model: "", thinking: "off", tokens: 0, cost: null, jobsUp: 0, helpKey: "F1" };

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "status", border: false });
  }

  get animated(): boolean {
    return this.state.phase !== "idle";
  }

  items(now: number): Item[] {
    const s = this.state;
    const items: Item[] = [];
    if (s.question) items.push({ spans: [{ text: ` ${s.question} `, attr: QUESTION }], priority: 11 });
    if (s.phase === "starting") items.push({ spans: [{ text: `${spinnerFrame(now)} starting…`, attr: WORKING }], priority: 10 });
    else if (s.phase === "working") {
      const elapsed = s.turnStartedAt !== undefined ? ` ${formatDuration(now - s.turnStartedAt)}` : "";
      items.push({ spans: [{ text: `${spinnerFrame(now)} working${elapsed}`, attr: WORKING }], priority: 10 });
    } else if (s.unconfigured) items.push({ spans: [{ text: "○ no model configured", attr: WARN }], priority: 10 });
    else items.push({ spans: [{ text: "● ready", attr: READY }], priority: 10 });
    if (s.transient) items.push({ spans: [{ text: s.transient, attr: WARN }], priority: 9 });
    if (s.error) items.push({ spans: [{ text: ` ✗ ${sanitizeText(s.error).replace(/\s+/g, " ")} `, attr: ERROR }], priority: 8 });
    if (s.retry) items.push({ spans: [{ text: s.retry, attr: WARN }], priority: 8 });
    if (s.sessionProblem) items.push({ spans: [{ text: ` ✗ ${s.sessionProblem} `, attr: ERROR }], priority: 9 });
    if (s.model) {
      const thinking = s.thinking !== "off" ? ` · thinking ${s.thinking}` : "";
      items.push({ spans: [{ text: `${s.model}${thinking}`, attr: BAR }], priority: 7 });
    }
    if (s.context) items.push({ spans: [contextMeter(s.context)], priority: 6.5 });
    if (s.remote) items.push({ spans: [{ text: s.remoteDown ? `⇄ ${s.remote} reconnecting…` : `⇄ ${s.remote}`, attr: s.remoteDown ? WARN : BAR }], priority: s.remoteDown ? 8.5 : 7.5 });
    const cached = s.cachedTokens ? ` (${formatTokens(s.cachedTokens)} cached)` : "";
    items.push({ spans: [{ text: `${formatTokens(s.tokens)} tok${cached} · ${formatCost(s.cost)}`, attr: BAR }], priority: 6 });
    if (s.jobsUp > 0) items.push({ spans: [{ text: `${s.jobsUp} job${s.jobsUp === 1 ? "" : "s"} up`, attr: READY }], priority: 5 });
    if (s.session) items.push({ spans: [{ text: s.session, attr: HINT }], priority: 2 });
    return items;
  }

  /** The status line at a width: items joined by " · ", lowest priorities dropped first. */
  line(width: number, now: number): StyledLine {
    let items = this.items(now);
    const hint: Span = { text: `${this.state.helpKey} help `, attr: HINT };
    const widthOf = (list: Item[]): number => list.reduce((w, it) => w + textWidth(it.spans.map((s) => s.text).join("")) + 3, 1);
    let withHint = true;
    while (items.length > 1 && widthOf(items) + (withHint ? textWidth(hint.text) : 0) > width) {
      if (withHint) {
        withHint = false;
        continue;
      }
      const lowest = Math.min(...items.map((it) => it.priority));
      const index = items.map((it) => it.priority).lastIndexOf(lowest);
      items = items.filter((_, i) => i !== index);
    }
    const spans: Span[] = [{ text: " ", attr: BAR }];
    items.forEach((it, i) => {
      if (i > 0) spans.push({ text: " · ", attr: SEP });
      spans.push(...it.spans);
    });
    let used = textWidth(spans.map((s) => s.text).join(""));
    if (used > width) {
      // One item still too wide (a long error): cut it.
      const last = spans[spans.length - 1]!;
      last.text = truncateText(last.text, Math.max(0, width - (used - textWidth(last.text))));
      used = width;
    }
    if (withHint) {
      spans.push({ text: " ".repeat(Math.max(0, width - used - textWidth(hint.text))), attr: BAR });
      spans.push(hint);
    }
    return spans;
  }

  protected paintContent(canvas: Canvas): void {
    canvas.paintLine(0, this.line(canvas.width, Date.now()), 0, BAR);
  }
}
