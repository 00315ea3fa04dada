// What both wire formats need from a FakeReply before they differ: the text cut into deltas, each
// tool call's arguments as the exact JSON text to send, the stop reason, and fresh ids.

import { randomBytes } from "node:crypto";
import type { FakeReply, FakeToolCall } from "./script.js";

export const DEFAULT_CHUNK_SIZE = 5;

/** Cuts text into pieces of `size` characters, never between the two halves of a surrogate pair. */
export function splitText(text: string, size: number): string[] {
  const step = Number.isInteger(size) && size > 0 ? size : DEFAULT_CHUNK_SIZE;
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + step);
    // A high surrogate at the cut takes its low half along.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

export function chunkSizeOf(reply: FakeReply): number {
  return reply.chunkSize ?? DEFAULT_CHUNK_SIZE;
}

/** The arguments as sent on the wire: objects as JSON, strings verbatim (possibly invalid JSON). */
export function argumentsJson(call: FakeToolCall): string {
  return typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
}

export function stopReasonOf(reply: FakeReply): "stop" | "length" | "toolUse" {
  if (reply.stopReason !== undefined) return reply.stopReason;
  return reply.toolCalls !== undefined && reply.toolCalls.length > 0 ? "toolUse" : "stop";
}

export function randomId(prefix: string, bytes = 12): string {
  return prefix + randomBytes(bytes).toString("hex");
}

export function nonEmpty(text: string | undefined): text is string {
  return text !== undefined && text.length > 0;
}

/** A non-streaming reply (an API error body), ready to write. */
export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}
