// Token estimates for what has not been counted by a provider yet: about four characters a token
// for English and code, which errs on the high side for prose and a little low for dense JSON.
// Each message's estimate is cached, so measuring a long conversation again costs almost nothing.
import type { Message } from "../messages.js";
import { sentForm } from "./sent-arguments.js";

export const CHARS_PER_TOKEN = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** What each message adds on the wire besides its text: role markers, ids, the tool name. */
const MESSAGE_OVERHEAD_TOKENS = 4;
/** An image as the providers count it, roughly (a 1,000 × 1,000 picture is about 1,300 tokens). */
const IMAGE_CHARS = 1_200 * CHARS_PER_TOKEN;

const cache = new WeakMap<Message, number>();

/** Characters of a message as the model reads it (text, thinking, tool calls with their arguments). */
export function messageChars(message: Message): number {
  if (message.role === "user") return message.content.length + (message.images?.length ?? 0) * IMAGE_CHARS;
  if (message.role === "toolResult") return message.content.length + message.toolName.length + (message.images?.length ?? 0) * IMAGE_CHARS;
  let chars = 0;
  // A tool call's huge arguments are sent shortened (sent-arguments.ts): count what is sent.
  for (const block of sentForm(message).content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.thinking.length;
    else chars += block.name.length + (block.invalidArguments ?? JSON.stringify(block.arguments)).length;
  }
  return chars;
}

export function estimateMessageTokens(message: Message): number {
  let tokens = cache.get(message);
  if (tokens === undefined) {
    // Only finished messages reach the conversation, so a message never changes once measured.
    tokens = Math.ceil(messageChars(message) / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS;
    cache.set(message, tokens);
  }
  return tokens;
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let sum = 0;
  for (const m of messages) sum += estimateMessageTokens(m);
  return sum;
}
