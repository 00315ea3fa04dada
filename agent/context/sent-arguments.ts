// What the model is sent of the tool calls it made earlier. A call has already run, so a huge
// argument (a 10 MB file's content given to write) does not need to travel with every later request:
// a string argument past the cap is sent as its head and tail, saying how much was left out. The
// session file and the Agent keep every call whole; only the request sees the shortened copy.
import type { AssistantMessage, Message, ToolCall } from "../messages.js";
import { markedIfCut } from "./cut-replies.js";

/** A string argument longer than this is shortened in what is sent. */
export const MAX_SENT_ARGUMENT_CHARS = 8_000;
const HEAD_CHARS = 4_000;
const TAIL_CHARS = 1_000;

const shortened = new WeakMap<AssistantMessage, AssistantMessage>();

function shortenString(text: string): string {
  if (text.length <= MAX_SENT_ARGUMENT_CHARS) return text;
  const left = text.length - HEAD_CHARS - TAIL_CHARS;
  return `${text.slice(0, HEAD_CHARS)}… [pitwall: ${left} characters left out of what is sent again; the call ran with all of them] …${text.slice(-TAIL_CHARS)}`;
}

function shortenValue(value: unknown): unknown {
  if (typeof value === "string") return shortenString(value);
  if (Array.isArray(value)) return value.map(shortenValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, shortenValue(v)]));
  }
  return value;
}

function hasLongString(value: unknown): boolean {
  if (typeof value === "string") return value.length > MAX_SENT_ARGUMENT_CHARS;
  if (Array.isArray(value)) return value.some(hasLongString);
  if (value !== null && typeof value === "object") return Object.values(value as Record<string, unknown>).some(hasLongString);
  return false;
}

function callNeedsShortening(call: ToolCall): boolean {
  return (call.invalidArguments?.length ?? 0) > MAX_SENT_ARGUMENT_CHARS || hasLongString(call.arguments);
}

/** The message as the model is sent it again: itself when no argument is past the cap. */
export function sentForm<M extends Message>(message: M): M {
  if (message.role !== "assistant") return message;
  const assistant = message as AssistantMessage;
  const known = shortened.get(assistant);
  if (known) return known as M;
  if (!assistant.content.some((block) => block.type === "toolCall" && callNeedsShortening(block))) return message;
  const copy: AssistantMessage = {
    ...assistant,
    content: assistant.content.map((block) =>
      block.type === "toolCall" && callNeedsShortening(block)
        ? {
            ...block,
            arguments: shortenValue(block.arguments) as Record<string, unknown>,
            ...(block.invalidArguments !== undefined ? { invalidArguments: shortenString(block.invalidArguments) } : {}),
          }
        : block,
    ),
  };
  // Only finished messages reach the conversation, so the copy stays right for the message's life.
  shortened.set(assistant, copy);
  return copy as M;
}

/** The conversation as a request carries it: long arguments shortened, cut replies marked (cut-replies.ts). */
export function sentConversation(messages: readonly Message[]): Message[] {
  return messages.map((message) => sentForm(markedIfCut(message)));
}
