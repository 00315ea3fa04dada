// The queued messages, shown in the input's top border while the agent works: steering messages
// (delivered after the tool batch in flight) and follow-ups (delivered when it would stop), as
// "↳ steer: text", each cut to share the border; those that do not fit are counted ("+2 more").
// Drawn in the border, a message queued or delivered moves no row of the screen.
import type { QueueState } from "../../agent/events.js";
import { firingsForPerson } from "../../tools/jobs/index.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { textWidth, truncateText } from "../text/text-width.js";

const STEER = attr({ fg: Color.yellow, bold: true });
const FOLLOW = attr({ fg: Color.brightBlue, bold: true });
const TEXT = attr();
const DIM = attr({ fg: Color.grey });
const SEPARATOR = " · ";
/** Each message shown keeps at least this many columns of its text. */
const MIN_TEXT_COLS = 8;

interface Item {
  head: string;
  text: string;
  attr: number;
}

/** Widths for texts sharing `room` columns: short ones whole, the rest an even share of what is left. */
function share(lengths: number[], room: number): number[] {
  const order = lengths.map((length, i) => ({ length, i })).sort((a, b) => a.length - b.length);
  const widths = new Array<number>(lengths.length).fill(0);
  let left = room;
  order.forEach(({ length, i }, k) => {
    const even = Math.floor(left / (order.length - k));
    widths[i] = Math.min(length, even);
    left -= widths[i]!;
  });
  return widths;
}

export class QueueView {
  private queue: QueueState = { steering: [], followUp: [] };

  set(queue: QueueState): void {
    this.queue = { steering: [...queue.steering], followUp: [...queue.followUp] };
  }

  get count(): number {
    return this.queue.steering.length + this.queue.followUp.length;
  }

  /** The queue as the input's border shows it, within `width` columns; undefined when nothing is queued. */
  titleLine(width: number): StyledLine | undefined {
    const items: Item[] = [
      ...this.queue.steering.map((text) => ({ head: "↳ steer: ", text, attr: STEER })),
      ...this.queue.followUp.map((text) => ({ head: "↳ follow-up: ", text, attr: FOLLOW })),
      // A trigger's message is written for the model ("set by you" is the agent): the person reads whose it is.
    ].map((item) => ({ ...item, text: sanitizeText(firingsForPerson(item.text)).replace(/\s+/g, " ").trim() }));
    if (items.length === 0) return undefined;
    for (let shown = items.length; shown >= 1; shown--) {
      const more = shown < items.length ? `${SEPARATOR}+${items.length - shown} more` : "";
      const heads = items.slice(0, shown).reduce((w, item) => w + textWidth(item.head), 0);
      const room = width - textWidth(more) - heads - textWidth(SEPARATOR) * (shown - 1);
      if (shown > 1 && room < shown * MIN_TEXT_COLS) continue;
      const widths = share(items.slice(0, shown).map((item) => textWidth(item.text)), Math.max(0, room));
      const line: StyledLine = [];
      items.slice(0, shown).forEach((item, i) => {
        if (i > 0) line.push({ text: SEPARATOR, attr: DIM });
        line.push({ text: item.head, attr: item.attr }, { text: truncateText(item.text, widths[i]!), attr: TEXT });
      });
      if (more) line.push({ text: more, attr: DIM });
      return line;
    }
    return undefined;
  }
}
