// A synchronous, ordered publish/subscribe bus. One bus per session carries every PitwallEvent
// (agent/events.ts): the agent and the job registry publish into it; panes, the session writer,
// print mode and JSON mode subscribe. It lives in tools/, the lowest layer, so the job registry
// publishes its own events through one too.

export type Listener<E> = (event: E) => void;

export class EventBus<E> {
  private listeners: Listener<E>[] = [];

  /** Contract: listeners must not throw; one that does is reported on stderr and the others still run. */
  subscribe(listener: Listener<E>): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  emit(event: E): void {
    // Iterate a snapshot: a listener may unsubscribe itself while we deliver.
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        process.stderr.write(`pitwall: an event listener failed on ${describe(event)}: ${String(error)}\n`);
      }
    }
  }
}

function describe(event: unknown): string {
  return typeof event === "object" && event !== null && "type" in event ? String(event.type) : "an event";
}
