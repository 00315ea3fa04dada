// The Agent's queue: the messages waiting for a run (the person's steers and follow-ups, and the
// messages of watch triggers), in the order they were queued. Every change is published (the Agent
// sends it as `queue_update`), so the front ends show the queue as it is. While a trigger's message
// waits, that trigger's later firings merge into it (tools/jobs/watch/merged-firings.ts), so the
// queue does not grow while nobody reads it. The person may take back their own messages to edit
// them; a trigger's stay queued.
import { type FiringMessage, MergedFirings } from "../tools/jobs/index.js";
import type { QueueState } from "./events.js";
import type { ImageContent, TriggeredBy, UserMessage, UserOrigin } from "./messages.js";

export type QueuedKind = "steer" | "follow_up";

/** A message waiting in the queue, with its kind and the images attached to it. */
export interface QueuedMessage {
  kind: QueuedKind;
  text: string;
  images?: ImageContent[];
  /** Queued by a watch trigger rather than by the person. */
  trigger?: TriggeredBy;
  /** The trigger's firings this message stands for (later ones merge in until it is delivered). */
  firings?: MergedFirings;
  /** When it was queued (a trigger's: when it first fired), ms since the epoch: notices are put in time order with it. */
  at: number;
}

export class MessageQueue {
  private items: QueuedMessage[] = [];

  /** `publish` gets the queue after every change. Contract: must not throw. */
  constructor(private readonly publish: (state: QueueState) => void) {}

  /** The texts waiting, steers and follow-ups apart, each in the order queued. */
  get state(): QueueState {
    return { steering: this.items.filter((m) => m.kind === "steer").map((m) => m.text), followUp: this.items.filter((m) => m.kind === "follow_up").map((m) => m.text) };
  }

  /** The steer queued first, if any (whose it is says why a wait ends early). */
  get firstSteer(): QueuedMessage | undefined {
    return this.items.find((m) => m.kind === "steer");
  }

  includes(item: QueuedMessage): boolean {
    return this.items.includes(item);
  }

  add(item: QueuedMessage): void {
    this.items.push(item);
    this.changed();
  }

  /** A firing of `trigger` whose earlier message of `kind` still waits merges into it: true then. */
  mergeFiring(kind: QueuedKind, firing: FiringMessage, trigger: TriggeredBy): boolean {
    const waiting = this.items.find((m) => m.kind === kind && m.firings && m.trigger?.jobId === trigger.jobId && m.trigger.triggerId === trigger.triggerId);
    if (!waiting?.firings) return false;
    waiting.firings.add(firing);
    waiting.text = waiting.firings.text;
    this.changed();
    return true;
  }

  /** Takes every message of `kind` out, as the user messages a run delivers ([] when none waits). */
  take(kind: QueuedKind): UserMessage[] {
    const taken = this.items.filter((m) => m.kind === kind);
    if (taken.length === 0) return [];
    this.items = this.items.filter((m) => m.kind !== kind);
    this.changed();
    return taken.map((m) => userMessage(m, m.trigger ? "trigger" : kind));
  }

  /** Takes the person's most recently queued message back, whichever its kind; a trigger's stays. */
  takeLastOfPerson(): QueuedMessage | undefined {
    let index = this.items.length - 1;
    while (index >= 0 && this.items[index]!.trigger) index--;
    if (index < 0) return undefined;
    const [last] = this.items.splice(index, 1);
    this.changed();
    return last;
  }

  /** Takes the person's messages out, in the order queued; the triggers' stay. */
  takeAllOfPerson(): QueuedMessage[] {
    const taken = this.items.filter((m) => !m.trigger);
    this.items = this.items.filter((m) => m.trigger);
    if (taken.length > 0) this.changed();
    return taken;
  }

  private changed(): void {
    this.publish(this.state);
  }
}

/** The person's message as it is queued: images only when there are some. */
export function queued(kind: QueuedKind, text: string, images: ImageContent[] | undefined): QueuedMessage {
  const at = Date.now();
  return images?.length ? { kind, text, images, at } : { kind, text, at };
}

/** A trigger's message as it is queued: later firings of the trigger merge into it while it waits. */
export function triggerMessage(kind: QueuedKind, firing: FiringMessage, trigger: TriggeredBy): QueuedMessage {
  return { kind, text: firing.text, trigger, firings: new MergedFirings(firing, trigger.jobId, trigger.triggerId), at: firing.at };
}

/** A user message for the conversation, from the person's text (and images) or a trigger's message; its time is when it was queued. */
export function userMessage(item: { text: string; images?: ImageContent[]; trigger?: TriggeredBy; at?: number }, origin: UserOrigin): UserMessage {
  return {
    role: "user",
    content: item.text,
    origin,
    ...(item.images?.length ? { images: item.images } : {}),
    ...(item.trigger ? { trigger: item.trigger } : {}),
    timestamp: item.at ?? Date.now(),
  };
}

/**
 * A wake trigger's message that a run took at a tool boundary or with the person's message (the
 * agent was busy, or the wake was held): it steered that run and woke nothing, and says so.
 */
export function deliveredAsSteer(message: UserMessage): UserMessage {
  return message.trigger?.action === "wake" ? { ...message, trigger: { ...message.trigger, action: "steer" } } : message;
}
