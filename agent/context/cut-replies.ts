// A reply that did not finish is marked as cut where it stops, in what the model is sent: the
// person stopped it (Esc, /stop, an interrupt), the request failed after part of it streamed, or it
// reached the output limit. Without the mark the model reads its partial text as a whole reply.
// The session file and the Agent keep the message as it streamed; only requests carry the mark.
import type { AssistantMessage, Message } from "../messages.js";

const WHY: Partial<Record<AssistantMessage["stopReason"], string>> = {
  aborted: "the person stopped this reply before it finished",
  error: "the request failed before this reply finished",
  length: "this reply reached the output limit",
};

/** The mark put after the text of a reply that stopped for `reason`. */
export function cutMark(reason: AssistantMessage["stopReason"]): string | undefined {
  const why = WHY[reason];
  return why === undefined ? undefined : `[cut off here: ${why}]`;
}

const marked = new WeakMap<AssistantMessage, AssistantMessage>();

/**
 * The message as the model is sent it: a cut reply whose last block is text gets the mark after
 * that text. One that ends in a tool call is left as it is: the call's result says it was
 * interrupted (providers/transcript.ts).
 */
export function markedIfCut<M extends Message>(message: M): M {
  if (message.role !== "assistant") return message;
  const assistant = message as AssistantMessage;
  const mark = cutMark(assistant.stopReason);
  const last = assistant.content[assistant.content.length - 1];
  if (mark === undefined || last?.type !== "text" || last.text.trim() === "") return message;
  const known = marked.get(assistant);
  if (known) return known as M;
  const copy: AssistantMessage = { ...assistant, content: [...assistant.content.slice(0, -1), { ...last, text: `${last.text}\n\n${mark}` }] };
  // Only finished messages reach the conversation, so the copy stays right for the message's life.
  marked.set(assistant, copy);
  return copy as M;
}
