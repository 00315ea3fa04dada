// The OpenAI Chat Completions wire format: a FakeReply as the `data:` chunks that
// `POST /v1/chat/completions` streams, and a FakeError as the API's JSON error body. Chunks are
// typed with the openai SDK's definitions, plus `reasoning_content`, the field OpenAI-compatible
// servers (DeepSeek, vLLM, llama.cpp) stream thinking in: the SDK's types do not have it.

import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { ErrorObject } from "openai/resources/shared";
import type { FakeError, FakeReply } from "./script.js";
import type { SsePlan } from "./sse-stream.js";
import { type ErrorReply, argumentsJson, chunkSizeOf, nonEmpty, randomId, splitText, stopReasonOf } from "./reply-parts.js";

type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string };
type Chunk = Omit<ChatCompletionChunk, "choices"> & {
  choices: Array<Omit<ChatCompletionChunk.Choice, "delta"> & { delta: Delta }>;
};

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;

export interface OpenAiStreamOptions {
  model: string;
  /** The request asked for `stream_options.include_usage`. */
  includeUsage: boolean;
}

export function openaiStream(reply: FakeReply, options: OpenAiStreamOptions): SsePlan {
  const size = chunkSizeOf(reply);
  const id = randomId("chatcmpl-");
  const created = Math.floor(Date.now() / 1000);

  const chunk = (delta: Delta, finishReason: Chunk["choices"][number]["finish_reason"] = null): string => {
    const body: Chunk = {
      id,
      object: "chat.completion.chunk",
      created,
      model: options.model,
      system_fingerprint: "fp_fake",
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      // With include_usage the API puts `usage: null` on every chunk but the last.
      ...(options.includeUsage ? { usage: null } : {}),
    };
    return `data: ${JSON.stringify(body)}\n\n`;
  };

  const content: string[] = [chunk({ role: "assistant", content: "" })];
  if (nonEmpty(reply.thinking)) {
    for (const piece of splitText(reply.thinking, size)) content.push(chunk({ reasoning_content: piece }));
  }
  if (nonEmpty(reply.text)) {
    for (const piece of splitText(reply.text, size)) content.push(chunk({ content: piece }));
  }
  (reply.toolCalls ?? []).forEach((call, index) => {
    // The first delta of a call names it; the arguments follow in later deltas with only the index.
    content.push(
      chunk({
        tool_calls: [{ index, id: call.id ?? randomId("call_"), type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const piece of splitText(argumentsJson(call), size)) {
      content.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  });

  const finish = [chunk({}, FINISH_REASONS[stopReasonOf(reply)])];
  if (options.includeUsage) finish.push(usageChunk(reply, id, created, options.model));
  finish.push("data: [DONE]\n\n");

  // OpenAI reports a failure mid-stream as a data chunk holding only `error`.
  const errorFrame = (type: string, message: string): string =>
    `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
  return { headers: { "x-request-id": randomId("req_") }, content, finish, errorFrame };
}

function usageChunk(reply: FakeReply, id: string, created: number, model: string): string {
  const usage = reply.usage ?? { input: 0, output: 0 };
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  // OpenAI counts cached tokens inside prompt_tokens; FakeUsage.input excludes them.
  const promptTokens = usage.input + cacheRead + cacheWrite;
  const body: CompletionUsage = {
    prompt_tokens: promptTokens,
    completion_tokens: usage.output,
    total_tokens: promptTokens + usage.output,
    prompt_tokens_details: {
      cached_tokens: cacheRead,
      ...(usage.cacheWrite !== undefined ? { cache_write_tokens: cacheWrite } : {}),
    },
  };
  const final: Chunk = {
    id,
    object: "chat.completion.chunk",
    created,
    model,
    system_fingerprint: "fp_fake",
    choices: [],
    usage: body,
  };
  return `data: ${JSON.stringify(final)}\n\n`;
}

function errorKindFor(status: number): { type: string; code: string | null } {
  if (status === 401) return { type: "invalid_request_error", code: "invalid_api_key" };
  if (status === 404) return { type: "invalid_request_error", code: "model_not_found" };
  if (status === 429) return { type: "requests", code: "rate_limit_exceeded" };
  if (status >= 500) return { type: "server_error", code: null };
  return { type: "invalid_request_error", code: null };
}

export function openaiError(error: FakeError): ErrorReply {
  const body: { error: ErrorObject } = {
    error: {
      message: error.message ?? `fake LLM: scripted ${error.status} error`,
      param: null,
      ...errorKindFor(error.status),
      ...(error.code !== undefined ? { code: error.code } : {}),
    },
  };
  return {
    status: error.status,
    headers: { "content-type": "application/json", "x-request-id": randomId("req_"), ...error.headers },
    body: JSON.stringify(body),
  };
}
