// The queued messages, shown just above the input while the agent works: steering messages
// (delivered after the tool batch in flight) and follow-ups (delivered when it would stop).
import type { Widgets } from "blessed";
import type { QueueState } from "../../agent/events.js";
import { firingsForPerson } from "../../tools/jobs/index.js";
import type { Canvas } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { truncateText } from "../text/text-width.js";

const STEER = attr({ fg: Color.yellow });
const FOLLOW = attr({ fg: Color.brightBlue });
const DIM = attr({ fg: Color.grey });
const MAX_ROWS = 4;

export class QueueView extends PaneBox {
  private queue: QueueState = { steering: [], followUp: [] };

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "queue", border: false });
  }

  set(queue: QueueState): void {
    this.queue = { steering: [...queue.steering], followUp: [...queue.followUp] };
  }

  get count(): number {
    return this.queue.steering.length + this.queue.followUp.length;
  }

  /** Rows this view needs (0 when nothing is queued). */
  get desiredRows(): number {
    return this.count === 0 ? 0 : Math.min(MAX_ROWS, this.count);
  }

  protected paintContent(canvas: Canvas): void {
    const items: Array<{ label: string; text: string; attr: number }> = [
      ...this.queue.steering.map((text) => ({ label: "steer", text, attr: STEER })),
      ...this.queue.followUp.map((text) => ({ label: "follow-up", text, attr: FOLLOW })),
    ];
    const shown = items.length > canvas.height ? items.slice(0, canvas.height - 1) : items;
    const rows: StyledLine[] = shown.map((item) => {
      const head = ` ↳ ${item.label}: `;
      // A trigger's message is written for the model ("set by you" is the agent): the person reads whose it is.
      const text = sanitizeText(firingsForPerson(item.text)).replace(/\s+/g, " ");
      return [
        { text: head, attr: item.attr },
        { text: truncateText(text, Math.max(0, canvas.width - head.length)), attr: attr() },
      ];
    });
    if (shown.length < items.length) rows.push([{ text: ` ↳ +${items.length - shown.length} more`, attr: DIM }]);
    canvas.paintRows(rows);
  }
}
