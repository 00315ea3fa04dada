// The Anthropic Messages wire format: a FakeReply as the SSE events `POST /v1/messages` streams,
// and a FakeError as the API's JSON error body. Events are typed with the SDK's own definitions,
// so a drift between this fake and @anthropic-ai/sdk fails the type check.

import { createHash } from "node:crypto";
import type {
  ContentBlock,
  RawContentBlockDelta,
  RawMessageStreamEvent,
  StopReason,
  Usage,
} from "@anthropic-ai/sdk/resources/messages";
import type { ErrorResponse } from "@anthropic-ai/sdk/resources/shared";
import type { FakeError, FakeReply } from "./script.js";
import type { SsePlan } from "./sse-stream.js";
import { type ErrorReply, argumentsJson, chunkSizeOf, nonEmpty, randomId, splitText, stopReasonOf } from "./reply-parts.js";

function frame(event: RawMessageStreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

const PING_FRAME = `event: ping\ndata: ${JSON.stringify({ type: "ping" })}\n\n`;

/** Opaque like the real one, but derived from the text so tests can check it is sent back unchanged. */
export function fakeSignature(thinking: string): string {
  return "fake-sig-" + createHash("sha256").update(thinking).digest("base64");
}

const STOP_REASONS: Record<"stop" | "length" | "toolUse", StopReason> = {
  stop: "end_turn",
  length: "max_tokens",
  toolUse: "tool_use",
};

export function anthropicStream(reply: FakeReply, model: string): SsePlan {
  const size = chunkSizeOf(reply);
  const usage = reply.usage ?? { input: 0, output: 0 };
  const blocks: string[][] = [];

  const block = (start: ContentBlock, deltas: RawContentBlockDelta[]): void => {
    const index = blocks.length;
    blocks.push([
      frame({ type: "content_block_start", index, content_block: start }),
      ...deltas.map((delta) => frame({ type: "content_block_delta", index, delta })),
      frame({ type: "content_block_stop", index }),
    ]);
  };

  if (nonEmpty(reply.thinking)) {
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...splitText(reply.thinking, size).map((thinking): RawContentBlockDelta => ({ type: "thinking_delta", thinking })),
      // The signature arrives in one delta just before the block stops, as the API sends it.
      { type: "signature_delta", signature: fakeSignature(reply.thinking) },
    ]);
  }

  if (nonEmpty(reply.text)) {
    block(
      { type: "text", text: "", citations: null },
      splitText(reply.text, size).map((text) => ({ type: "text_delta", text })),
    );
  }

  for (const call of reply.toolCalls ?? []) {
    block(
      { type: "tool_use", id: call.id ?? randomId("toolu_"), name: call.name, input: {}, caller: { type: "direct" } },
      splitText(argumentsJson(call), size).map((partial_json) => ({ type: "input_json_delta", partial_json })),
    );
  }

  const startUsage: Usage = {
    input_tokens: usage.input,
    output_tokens: Math.min(1, usage.output),
    cache_read_input_tokens: usage.cacheRead ?? 0,
    cache_creation_input_tokens: usage.cacheWrite ?? 0,
    cache_creation: null,
    inference_geo: null,
    output_tokens_details: null,
    server_tool_use: null,
    service_tier: "standard",
    speed: null,
  };
  const messageStart = frame({
    type: "message_start",
    message: {
      id: randomId("msg_"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      container: null,
      diagnostics: null,
      stop_reason: null,
      stop_sequence: null,
      stop_details: null,
      usage: startUsage,
    },
  });

  // The API sends a ping right after the first block opens; with no block, after message_start.
  const [first, ...rest] = blocks;
  const content =
    first === undefined
      ? [messageStart, PING_FRAME]
      : [messageStart, first[0] ?? "", PING_FRAME, ...first.slice(1), ...rest.flat()];

  const finish = [
    frame({
      type: "message_delta",
      delta: { stop_reason: STOP_REASONS[stopReasonOf(reply)], stop_sequence: null, stop_details: null, container: null },
      usage: {
        input_tokens: usage.input,
        output_tokens: usage.output,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        cache_creation_input_tokens: usage.cacheWrite ?? 0,
        output_tokens_details: null,
        server_tool_use: null,
      },
    }),
    frame({ type: "message_stop" }),
  ];

  const errorFrame = (type: string, message: string): string =>
    `event: error\ndata: ${JSON.stringify({ type: "error", error: { type, message } })}\n\n`;
  return { headers: { "request-id": randomId("req_") }, content, finish, errorFrame };
}

/** The error types the API's error body can carry (the SDK's ErrorObject union). */
type BodyErrorType = ErrorResponse["error"]["type"];

function errorTypeFor(status: number): BodyErrorType {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 408:
      return "timeout_error";
    case 429:
      return "rate_limit_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

export function anthropicError(error: FakeError): ErrorReply {
  const requestId = randomId("req_");
  const body: ErrorResponse = {
    type: "error",
    error: { type: errorTypeFor(error.status), message: error.message ?? `fake LLM: scripted ${error.status} error` },
    request_id: requestId,
  };
  return {
    status: error.status,
    headers: { "content-type": "application/json", "request-id": requestId, ...error.headers },
    body: JSON.stringify(body),
  };
}
