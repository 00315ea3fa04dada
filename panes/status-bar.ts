// The status line at the bottom: what the agent is doing (with a spinner and the turn's elapsed
// time), the model and thinking level, tokens and cost of the session, retries, jobs up, commands
// running unfenced, and the last error until it is dismissed. When the line is too long, a long
// error is cut short first (the full text is in the chat), then the help hint goes, then items by
// priority.
import type { Widgets } from "blessed";
import type { Canvas } from "./screen/canvas.js";
import { formatCost, formatDuration, formatRetry, formatTokens, spinnerFrame, type RetryWait } from "./text/format.js";
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
  /** A failed request waiting to be tried again: counted down on every frame. */
  retry?: RetryWait;
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
  /** Set when commands cannot be fenced here: "unfenced" (they run as you) or "no sandbox: commands refused". */
  sandbox?: string;
  helpKey: string;
  /** The agent in the chat, when the dashboard has more than one. */
  agent?: string;
  /** The agents whose run ended while the person looked at another one. */
  agentsWaiting?: string[];
}

// On the bar's own faint grey (screen/palette.ts), in the terminal's text colour: never a black
// stripe on a light terminal.
const BAR = attr({ bg: Color.bar });
const SEP = attr({ bg: Color.bar, fg: Color.grey });
const WORKING = attr({ bg: Color.bar, fg: Color.yellow, bold: true });
const READY = attr({ bg: Color.bar, fg: Color.green });
const WARN = attr({ bg: Color.bar, fg: Color.yellow });
const ERROR = attr({ bg: Color.red, fg: Color.white, bold: true });
const HINT = attr({ bg: Color.bar, fg: Color.grey });
// Not bold: many terminals draw bold black as grey, unreadable on yellow.
const QUESTION = attr({ bg: Color.yellow, fg: Color.black });

interface Item {
  spans: Span[];
  priority: number;
  /** The item may be cut to this many columns (with "…") before anything is dropped for room. */
  minWidth?: number;
}

/** An error is cut to no less than this on a line that has no room for all of it. */
const ERROR_MIN_WIDTH = 24;

/** Green while there is room, yellow past half of the compaction threshold, red from it on. */
function contextMeter(context: NonNullable<StatusState["context"]>): Span {
  const percent = Math.round(context.percent);
  const colour = context.percent >= context.compactAt ? Color.red : context.percent >= context.compactAt / 2 ? Color.yellow : Color.green;
  const window = formatTokens(context.window).replace(/\.0([kM])$/, "$1");
  return { text: `${percent}% of ${window}`, attr: attr({ bg: Color.bar, fg: colour }) };
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
    // One prompt at a time: a question replaces a passing hint (the Ctrl+C that led to it).
    if (s.transient && !s.question) items.push({ spans: [{ text: s.transient, attr: WARN }], priority: 9 });
    if (s.error) items.push({ spans: [{ text: ` ✗ ${sanitizeText(s.error).replace(/\s+/g, " ")} `, attr: ERROR }], priority: 8, minWidth: ERROR_MIN_WIDTH });
    if (s.retry) items.push({ spans: [{ text: formatRetry(s.retry, now), attr: WARN }], priority: 8 });
    if (s.sessionProblem) items.push({ spans: [{ text: ` ✗ ${s.sessionProblem} `, attr: ERROR }], priority: 9 });
    if (s.sandbox) items.push({ spans: [{ text: `⚠ ${s.sandbox}`, attr: WARN }], priority: 7.5 });
    const waiting = s.agentsWaiting ?? [];
    if (waiting.length > 0) items.push({ spans: [{ text: `⚑ ${waiting.length} waiting for you: ${waiting.join(", ")}`, attr: QUESTION }], priority: 9.5 });
    if (s.agent) items.push({ spans: [{ text: `agent ${s.agent}`, attr: BAR }], priority: 7.5 });
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
    // A long error gives up its tail first: the model, the meter, tokens and cost stay.
    for (const item of items) {
      const over = widthOf(items) + textWidth(hint.text) - width;
      if (over <= 0 || item.minWidth === undefined) continue;
      const span = item.spans[item.spans.length - 1]!;
      const own = textWidth(span.text);
      if (own > item.minWidth) span.text = `${truncateText(span.text.trimEnd(), Math.max(item.minWidth, own - over) - 1)} `;
    }
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
