// What a provider is to the agent loop: one call that streams an assistant message as deltas and
// ends with the complete message. Wire formats, SDKs and quirks stay behind this interface.
import type { TSchema } from "@sinclair/typebox";
import type { AssistantDelta } from "../events.js";
import type { EventStream } from "../event-stream.js";
import type { AssistantMessage, Message, ThinkingLevel } from "../messages.js";
import type { ModelInfo, OpenAIApi, ProviderName } from "../models.js";
import type { StreamTimeouts } from "./stall-guard.js";
import type { ProxySettings } from "./proxy.js";

export interface ToolSpec {
  name: string;
  description: string;
  parameters: TSchema;
}

export interface ProviderRequest {
  model: ModelInfo;
  systemPrompt: string;
  messages: Message[];
  tools: ToolSpec[];
  thinkingLevel: ThinkingLevel;
  /** Caps the reply below what the model and thinking level would allow (a compaction's summary). */
  maxOutputTokens?: number;
}

/**
 * Deltas, then the final message as the result. `partial` is the message as streamed so far (what
 * an abort keeps). Contract: a failure rejects with a ProviderError; an abort ends the stream with
 * the partial message marked "aborted".
 */
export interface AssistantStream extends EventStream<AssistantDelta, AssistantMessage> {
  readonly partial: AssistantMessage;
}

export interface Provider {
  readonly name: ProviderName;
  stream(request: ProviderRequest, signal: AbortSignal): AssistantStream;
}

export interface ProviderConnection {
  apiKey?: string;
  baseUrl?: string;
  /** When a silent server fails the attempt (DEFAULT_STREAM_TIMEOUTS when absent). */
  timeouts?: StreamTimeouts;
  /** OpenAI only: `--api`, forcing Chat Completions or Responses whatever the model. */
  api?: OpenAIApi;
  /** HTTPS_PROXY / HTTP_PROXY / NO_PROXY, when the environment sets a proxy. */
  proxy?: ProxySettings;
}

export type ProviderErrorKind =
  /** HTTP status from the server (429, 5xx, 401, …). */
  | "http"
  /** The connection failed or dropped mid-stream. */
  | "connection"
  /** The server sent an error event inside the stream (e.g. overloaded). */
  | "stream"
  /** Nothing was sent: pitwall is not configured for this provider (no key, …). */
  | "config"
  /** The request was longer than the model's context window: compacting the conversation helps. */
  | "overflow";

export class ProviderError extends Error {
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly options: { status?: number; retryAfterMs?: number; retryable: boolean; detail?: string } = { retryable: false },
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
