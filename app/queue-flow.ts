// The queue seen from the input: Up on an empty input takes the last queued message back for
// editing, whichever its kind, and sent again it keeps that kind (the input's border says which);
// messages still queued when a run ended go back into the input, in order, to be sent as one prompt.
import type { QueuedKind } from "../agent/agent.js";
import type { DashboardCommon } from "./dashboard-common.js";

export class QueueFlow {
  /** The kind of the queued message taken back into the input (Up): sent again, it keeps it. */
  private editing: QueuedKind | undefined;

  constructor(private readonly common: Pick<DashboardCommon, "view" | "setup" | "flash">) {}

  /** Up on an empty input: the last queued message, of either kind, comes back for editing and keeps its kind. */
  takeBack(): boolean {
    const agent = this.common.setup()?.coding.agent;
    const item = agent?.dequeueLast();
    if (!item) return false;
    this.common.view.input.restore(item.text, item.images);
    this.setEditing(item.kind);
    return true;
  }

  /** The input was sent or cleared: returns the kind of the queued message it held, if it held one. */
  endEditing(): QueuedKind | undefined {
    const kind = this.editing;
    this.setEditing(undefined);
    return kind;
  }

  /**
   * Messages still queued when a run ended (Esc, or a failed request) go back into the input, in
   * the order they were queued and before what the person was typing: sent again they are one
   * prompt, never a surprise ahead of the next one.
   */
  restore(): void {
    const queued = this.common.setup()?.coding.agent.takeQueue() ?? [];
    if (queued.length === 0) return;
    const input = this.common.view.input;
    input.setText([...queued.map((m) => m.text), input.value].filter((t) => t.trim() !== "").join("\n\n"));
    this.setEditing(undefined);
    const steers = queued.filter((m) => m.kind === "steer").length;
    const kinds = [steers ? `${steers} steer${steers === 1 ? "" : "s"}` : "", queued.length - steers ? `${queued.length - steers} follow-up${queued.length - steers === 1 ? "" : "s"}` : ""].filter((k) => k).join(", ");
    this.common.flash(`${queued.length === 1 ? "the queued message is" : `${queued.length} queued messages are`} back in the input (${kinds}): Enter sends ${queued.length === 1 ? "it" : "them as one prompt"}`, 6_000);
  }

  /** Remembers (and shows on the input's border) the kind of the queued message being edited. */
  private setEditing(kind: QueuedKind | undefined): void {
    this.editing = kind;
    this.common.view.input.hint = kind === undefined ? "" : `editing a queued ${kind === "steer" ? "steer" : "follow-up"} · Enter queues it again`;
  }
}
