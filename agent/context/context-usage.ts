// How many tokens the next request will carry: the provider's own count for the last request
// (input, cache reads and writes, and the reply it produced) plus an estimate for every message
// added since. Without a usable count (a server that reports none, or right after a compaction
// changed what is sent) the whole request is estimated: system prompt, tool definitions, messages.
// A reply older than the conversation's summary was counted before that compaction, so its count
// no longer says anything about the next request.
import type { AssistantMessage, Message } from "../messages.js";
import { estimateMessagesTokens, estimateMessageTokens, estimateTextTokens } from "./token-estimate.js";

export interface ToolDefinition {
  name: string;
  description: string;
  parameters: unknown;
}

export interface ContextInput {
  systemPrompt: string;
  tools: readonly ToolDefinition[];
  messages: readonly Message[];
}

export interface ContextMeasure {
  tokens: number;
  /** The part the provider counted (0 when nothing usable was reported). */
  counted: number;
  /** The part estimated. */
  estimated: number;
}

const toolTokensCache = new WeakMap<readonly ToolDefinition[], number>();

export function estimateToolTokens(tools: readonly ToolDefinition[]): number {
  let tokens = toolTokensCache.get(tools);
  if (tokens === undefined) {
    tokens = tools.reduce((sum, t) => sum + estimateTextTokens(JSON.stringify({ name: t.name, description: t.description, parameters: t.parameters })), 0);
    toolTokensCache.set(tools, tokens);
  }
  return tokens;
}

/** The tokens a provider reported for the whole context of the request that produced `message`. */
export function countedTokens(message: AssistantMessage): number {
  const u = message.usage;
  return u.input + u.cacheRead + u.cacheWrite + u.output;
}

/** `counts: false` ignores what providers reported (they counted messages that will not be sent again). */
export function measureContext(input: ContextInput, counts = true): ContextMeasure {
  const { messages } = input;
  const first = messages[0];
  const compactedAt = first?.role === "user" && first.origin === "summary" ? first.timestamp : -Infinity;
  for (let i = messages.length - 1; counts && i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== "assistant" || m.timestamp <= compactedAt || !usable(m)) continue;
    const counted = countedTokens(m);
    let estimated = 0;
    for (let j = i + 1; j < messages.length; j++) estimated += estimateMessageTokens(messages[j]!);
    return { tokens: counted + estimated, counted, estimated };
  }
  const estimated = estimateTextTokens(input.systemPrompt) + estimateToolTokens(input.tools) + estimateMessagesTokens(messages);
  return { tokens: estimated, counted: 0, estimated };
}

function usable(message: AssistantMessage): boolean {
  if (message.stopReason === "error" || message.stopReason === "aborted") return false;
  const u = message.usage;
  return u.input + u.cacheRead + u.cacheWrite > 0;
}

/** Where the tokens of a request go, estimated part by part, for /context. */
export interface ContextBreakdown {
  /** The system prompt without the context files. */
  instructions: number;
  contextFiles: Array<{ path: string; tokens: number }>;
  /** The list of skills in the system prompt (names, descriptions, paths). */
  skills: { count: number; tokens: number };
  tools: number;
  /** The summary of compacted turns (0 when nothing was compacted). */
  summary: number;
  /** Your messages, the model's replies and its tool calls. */
  messages: number;
  toolResults: number;
}

export function contextBreakdown(
  input: ContextInput,
  contextFiles: Array<{ path: string; tokens: number }>,
  skills: { count: number; tokens: number } = { count: 0, tokens: 0 },
): ContextBreakdown {
  const filesTokens = contextFiles.reduce((sum, f) => sum + f.tokens, 0);
  const breakdown: ContextBreakdown = {
    instructions: Math.max(0, estimateTextTokens(input.systemPrompt) - filesTokens - skills.tokens),
    contextFiles,
    skills,
    tools: estimateToolTokens(input.tools),
    summary: 0,
    messages: 0,
    toolResults: 0,
  };
  for (const m of input.messages) {
    const tokens = estimateMessageTokens(m);
    if (m.role === "toolResult") breakdown.toolResults += tokens;
    else if (m.role === "user" && m.origin === "summary") breakdown.summary += tokens;
    else breakdown.messages += tokens;
  }
  return breakdown;
}
