// Which message of the session a chat entry came from, enough to find it again when older messages
// are read back from the session file (the chat keeps only recent ones in memory). The file holds
// the message as it was saved (secrets redacted), so what names it is what saving leaves alone:
// its time, its role, and its call id or kind.
import type { Message } from "../../agent/messages.js";

export interface MessageRef {
  timestamp: number;
  role: Message["role"];
  key: string;
}

export function messageRef(message: Message): MessageRef {
  return { timestamp: message.timestamp, role: message.role, key: keyOf(message) };
}

export function isMessage(ref: MessageRef, message: Message): boolean {
  return message.timestamp === ref.timestamp && message.role === ref.role && keyOf(message) === ref.key;
}

function keyOf(message: Message): string {
  if (message.role === "toolResult") return message.toolCallId;
  if (message.role === "user") return message.origin ?? "prompt";
  return `${message.content.length}:${message.stopReason}`;
}
