// The OpenAI Responses wire format: a FakeReply as the named SSE events `POST /v1/responses`
// streams (response.created, output items opened, their deltas, closed, response.completed), and
// a scripted in-stream failure as `response.failed` or `error`. Events are typed with the openai
// SDK's definitions, so a drift between this fake and the SDK fails the type check.

import { createHash } from "node:crypto";
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { FakeReply } from "./script.js";
import type { SsePlan } from "./sse-stream.js";
import { argumentsJson, chunkSizeOf, nonEmpty, randomId, splitText, stopReasonOf } from "./reply-parts.js";

export interface ResponsesStreamOptions {
  model: string;
  /** The request asked for `include: ["reasoning.encrypted_content"]`. */
  encryptedReasoning: boolean;
}

/** Opaque like the real one, but derived from the summary so tests can check it is sent back unchanged. */
export function fakeEncryptedReasoning(thinking: string): string {
  return "fake-enc-" + createHash("sha256").update(thinking).digest("base64");
}

/** Distributes Omit over the event union. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
type EventBody = Without<ResponseStreamEvent, "sequence_number">;

export function responsesStream(reply: FakeReply, options: ResponsesStreamOptions): SsePlan {
  const size = chunkSizeOf(reply);
  let sequence = 0;
  const frame = (event: EventBody): string => {
    const body = { ...event, sequence_number: sequence++ };
    return `event: ${event.type}\ndata: ${JSON.stringify(body)}\n\n`;
  };

  const responseId = randomId("resp_");
  const createdAt = Math.floor(Date.now() / 1000);
  const output: ResponseOutputItem[] = [];
  // The SDK adds `output_text` to responses it hands out; the wire does not carry it.
  const response = (status: Response["status"], extra: Partial<Response> = {}): Response =>
    ({
      id: responseId,
      object: "response",
      created_at: createdAt,
      status,
      error: null,
      incomplete_details: null,
      instructions: null,
      metadata: {},
      model: options.model,
      output: status === "in_progress" ? [] : output,
      parallel_tool_calls: true,
      temperature: 1,
      tool_choice: "auto",
      tools: [],
      top_p: 1,
      store: false,
      ...extra,
    }) as Response;

  const content: string[] = [frame({ type: "response.created", response: response("in_progress") }), frame({ type: "response.in_progress", response: response("in_progress") })];

  const addItem = (item: ResponseOutputItem, inProgress: ResponseOutputItem, deltas: (outputIndex: number) => string[]): void => {
    const outputIndex = output.length;
    content.push(frame({ type: "response.output_item.added", output_index: outputIndex, item: inProgress }));
    content.push(...deltas(outputIndex));
    content.push(frame({ type: "response.output_item.done", output_index: outputIndex, item }));
    output.push(item);
  };

  if (nonEmpty(reply.thinking)) {
    // Paragraphs of the thinking are the summary's parts, as the API splits them.
    const parts = reply.thinking.split("\n\n");
    const id = randomId("rs_");
    const item: ResponseReasoningItem = {
      type: "reasoning",
      id,
      summary: parts.map((text) => ({ type: "summary_text", text })),
      ...(options.encryptedReasoning ? { encrypted_content: fakeEncryptedReasoning(reply.thinking) } : {}),
    };
    addItem(item, { type: "reasoning", id, summary: [] }, (outputIndex) =>
      parts.flatMap((text, summaryIndex) => {
        const at = { item_id: id, output_index: outputIndex, summary_index: summaryIndex };
        return [
          frame({ type: "response.reasoning_summary_part.added", ...at, part: { type: "summary_text", text: "" } }),
          ...splitText(text, size).map((delta) => frame({ type: "response.reasoning_summary_text.delta", ...at, delta })),
          frame({ type: "response.reasoning_summary_text.done", ...at, text }),
          frame({ type: "response.reasoning_summary_part.done", ...at, part: { type: "summary_text", text } }),
        ];
      }),
    );
  }

  if (nonEmpty(reply.text)) {
    const text = reply.text;
    const id = randomId("msg_");
    const item: ResponseOutputMessage = { type: "message", id, role: "assistant", status: "completed", content: [{ type: "output_text", text, annotations: [], logprobs: [] }] };
    addItem(item, { ...item, status: "in_progress", content: [] }, (outputIndex) => {
      const at = { item_id: id, output_index: outputIndex, content_index: 0 };
      return [
        frame({ type: "response.content_part.added", ...at, part: { type: "output_text", text: "", annotations: [], logprobs: [] } }),
        ...splitText(text, size).map((delta) => frame({ type: "response.output_text.delta", ...at, delta, logprobs: [] })),
        frame({ type: "response.output_text.done", ...at, text, logprobs: [] }),
        frame({ type: "response.content_part.done", ...at, part: { type: "output_text", text, annotations: [], logprobs: [] } }),
      ];
    });
  }

  for (const call of reply.toolCalls ?? []) {
    const args = argumentsJson(call);
    const id = randomId("fc_");
    const item: ResponseFunctionToolCall = { type: "function_call", id, call_id: call.id ?? randomId("call_"), name: call.name, arguments: args, status: "completed" };
    addItem(item, { ...item, arguments: "", status: "in_progress" }, (outputIndex) => [
      // The arguments arrive split across many deltas, then once whole.
      ...splitText(args, size).map((delta) => frame({ type: "response.function_call_arguments.delta", item_id: id, output_index: outputIndex, delta })),
      frame({ type: "response.function_call_arguments.done", item_id: id, output_index: outputIndex, name: call.name, arguments: args }),
    ]);
  }

  const failure = reply.responsesFailure;
  let finish: string[];
  if (failure?.event === "error") {
    finish = [frame({ type: "error", code: failure.code, message: failure.message ?? `fake LLM: scripted ${failure.code}`, param: null })];
  } else if (failure) {
    const error = { code: failure.code as NonNullable<Response["error"]>["code"], message: failure.message ?? `fake LLM: scripted ${failure.code}` };
    finish = [frame({ type: "response.failed", response: response("failed", { error }) })];
  } else if (stopReasonOf(reply) === "length") {
    finish = [frame({ type: "response.incomplete", response: response("incomplete", { incomplete_details: { reason: "max_output_tokens" }, usage: usageOf(reply) }) })];
  } else {
    finish = [frame({ type: "response.completed", response: response("completed", { usage: usageOf(reply) }) })];
  }
  const errorFrame = (type: string, message: string): string => frame({ type: "error", code: type, message, param: null });
  return { headers: { "x-request-id": randomId("req_") }, content, finish, errorFrame };
}

function usageOf(reply: FakeReply): ResponseUsage {
  const usage = reply.usage ?? { input: 0, output: 0 };
  const cached = usage.cacheRead ?? 0;
  // Like Chat Completions, input_tokens counts the cached ones; FakeUsage.input excludes them.
  const input = usage.input + cached + (usage.cacheWrite ?? 0);
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached, cache_write_tokens: usage.cacheWrite ?? 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + usage.output,
  };
}
