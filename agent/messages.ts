// The conversation's message types: what the agent keeps, what sessions store, and what providers
// translate to their wire formats. Plain data only, so every message serialises as JSON.
import type { ImageContent } from "../tools/images/image-content.js";

export type { ImageContent, ImageMimeType } from "../tools/images/image-content.js";
import type { CommandEnd } from "../tools/command-end.js";
import type { FileTouch } from "../tools/file-touch.js";

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high";
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high"];

export interface TextContent {
  type: "text";
  text: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  /** Anthropic's signature, sent back unchanged so the provider accepts the history. */
  signature?: string;
  /** Anthropic's redacted thinking: opaque data in `signature`, nothing readable. */
  redacted?: boolean;
  /** The OpenAI Responses reasoning item this summary came from, sent back next turn. */
  reasoningItem?: ReasoningItem;
}

/**
 * An OpenAI Responses reasoning item as the API returned it with `store: false`: its summary and
 * the encrypted reasoning the next request carries so the model goes on from where it was. Its id
 * is not kept: nothing is stored server-side, and items sent back without ids are never paired.
 */
export interface ReasoningItem {
  summary: string[];
  encryptedContent: string;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  /** Parsed as the call streams; complete once the message ends. */
  arguments: Record<string, unknown>;
  /** The raw text when the model sent arguments that are not a JSON object (the call then fails). */
  invalidArguments?: string;
}

export type AssistantContent = TextContent | ThinkingContent | ToolCall;

/**
 * Who put a user message into the conversation. "summary": a compaction's summary of earlier turns.
 * "trigger": a job's watch trigger fired (tools/jobs/watch/), with the lines it matched.
 */
export type UserOrigin = "prompt" | "steer" | "follow_up" | "notice" | "summary" | "trigger";

/**
 * Which watch trigger sent a message, and how it was delivered (a `notify` trigger sends a notice
 * instead): a wake trigger's message that reached a run already going says "steer".
 */
export interface TriggeredBy {
  jobId: string;
  triggerId: number;
  pattern: string;
  ignoreCase: boolean;
  action: "steer" | "follow-up" | "wake";
  setBy: "agent" | "person";
}

export interface UserMessage {
  role: "user";
  content: string;
  /** Absent means "prompt". A notice is pitwall telling the model what changed (a job exited, …). */
  origin?: UserOrigin;
  /** Images the person attached; they go to the model before the text. */
  images?: ImageContent[];
  /** Set when origin is "trigger". */
  trigger?: TriggeredBy;
  timestamp: number;
}

export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  /** Dollars; null when the model is not in the price table (a local server's model). */
  cost: Cost | null;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface AssistantMessage {
  role: "assistant";
  content: AssistantContent[];
  provider: string;
  model: string;
  usage: Usage;
  stopReason: StopReason;
  /** Set when stopReason is "error": a message a person can act on. */
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  /** What the model reads. */
  content: string;
  /** What the UI shows; never sent to the model. */
  details?: unknown;
  /** Images the tool returned (read on a PNG), sent after `content`. */
  images?: ImageContent[];
  /** The file the call read, wrote or edited (tools/file-touch.ts); never sent to the model. */
  file?: FileTouch;
  /** How the command the call ran ended (tools/command-end.ts); never sent to the model. */
  command?: CommandEnd;
  /** The job the call's command runs on as; never sent to the model. */
  runningJob?: string;
  isError: boolean;
  timestamp: number;
}

export type Message = UserMessage | AssistantMessage | ToolResultMessage;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: null };
}

export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((c): c is ToolCall => c.type === "toolCall");
}

export function textOf(message: AssistantMessage): string {
  return message.content
    .filter((c): c is TextContent => c.type === "text")
    .map((c) => c.text)
    .join("");
}
