// OpenAI Responses through the `openai` SDK, streaming: what the GPT-5 family and the o-series are
// best used through. Mapped into the same MessageBuilder as the other paths: reasoning summaries
// become thinking, function calls stream their arguments, usage counts cached tokens. Nothing is
// stored at OpenAI (`store: false`); each reasoning item comes back encrypted and is sent with the
// next request, as Codex does, so the model goes on reasoning across tool calls and session resumes.
import type OpenAI from "openai";
import type {
  FunctionTool,
  ResponseCreateParamsStreaming,
  ResponseFunctionCallOutputItemList,
  ResponseInputContent,
  ResponseInputImage,
  ResponseInputItem,
  ResponseOutputItem,
  ResponseStreamEvent,
  ResponseUsage,
} from "openai/resources/responses/responses";
import type { ReasoningEffort } from "openai/resources/shared";
import { imageDataUrl } from "../../tools/images/image-content.js";
import type { AssistantMessage, ImageContent, Message } from "../messages.js";
import { inStreamError, toProviderError, type FailureContext } from "./errors.js";
import { resultText, withoutImagesFor } from "./image-input.js";
import { streamInto, type MessageBuilder } from "./message-builder.js";
import { isOfficialOpenAI } from "./openai-api.js";
import { createOpenAIClient, openaiFailureContext, reasoningEffort } from "./openai-common.js";
import { ProviderError, type AssistantStream, type Provider, type ProviderConnection, type ProviderRequest } from "./provider.js";
import { repairTranscript, safeToolCallId } from "./transcript.js";

export function createOpenAIResponsesProvider(connection: ProviderConnection): Provider {
  const client = createOpenAIClient(connection);
  const official = isOfficialOpenAI(connection.baseUrl);
  return {
    name: "openai",
    stream(request: ProviderRequest, signal: AbortSignal): AssistantStream {
      const params = buildResponsesParams(request, official);
      const failure = openaiFailureContext(connection, request.model.id);
      return streamInto(request.model, signal, (builder) => run(client, params, signal, builder, failure), (error) => toProviderError(error, failure));
    },
  };
}

async function run(client: OpenAI, params: ResponseCreateParamsStreaming, signal: AbortSignal, b: MessageBuilder, failure: FailureContext): Promise<void> {
  const stream = await client.responses.create(params, { signal });
  const reader = new ResponsesReader(b, failure);
  for await (const event of stream) reader.handle(event);
  if (!reader.ended && !signal.aborted) {
    // A clean end of the HTTP body without response.completed: the reply is cut, try again.
    throw new ProviderError(`The stream from ${failure.label} ended before the response was complete: try again.`, "connection", { retryable: true, detail: "no response.completed" });
  }
}

interface OpenItem {
  contentIndex: number;
  /** Deltas arrived for it (otherwise the done event's full text is used). */
  streamed: boolean;
}

/** Follows one response's events; output items map to content blocks in the order they open. */
class ResponsesReader {
  ended = false;
  private readonly items = new Map<number, OpenItem>();

  constructor(
    private readonly b: MessageBuilder,
    private readonly failure: FailureContext,
  ) {}

  handle(event: ResponseStreamEvent): void {
    const { b } = this;
    switch (event.type) {
      case "response.output_item.added":
        this.open(event.output_index, event.item);
        return;
      case "response.reasoning_summary_part.added": {
        const item = this.items.get(event.output_index);
        // Summary parts are paragraphs of one thinking block.
        if (item && event.summary_index > 0) b.thinking("\n\n", item.contentIndex);
        return;
      }
      case "response.reasoning_summary_text.delta":
        this.delta(event.output_index, (index) => b.thinking(event.delta, index));
        return;
      case "response.output_text.delta":
      case "response.refusal.delta":
        this.delta(event.output_index, (index) => b.text(event.delta, index));
        return;
      case "response.function_call_arguments.delta":
        this.delta(event.output_index, (index) => b.toolCallDelta(index, event.delta));
        return;
      case "response.output_item.done":
        this.close(event.output_index, event.item);
        return;
      case "response.completed":
      case "response.incomplete": {
        const { response } = event;
        if (response.usage) this.setUsage(response.usage);
        const reason = response.incomplete_details?.reason;
        b.setStopReason(event.type === "response.incomplete" && reason === "max_output_tokens" ? "length" : "stop");
        this.ended = true;
        return;
      }
      case "response.failed": {
        const error = event.response.error;
        throw inStreamError(error?.code ?? "response.failed", error?.message ?? "the response failed without details", this.failure);
      }
      case "error":
        throw inStreamError(event.code ?? "error", event.message, this.failure);
      default:
        return;
    }
  }

  private open(outputIndex: number, item: ResponseOutputItem): void {
    const { b } = this;
    const next = b.message.content.length;
    let contentIndex: number;
    if (item.type === "reasoning") contentIndex = b.thinking("", next);
    else if (item.type === "message") contentIndex = b.text("", next);
    else if (item.type === "function_call") contentIndex = b.startToolCall(item.call_id, item.name, next);
    else return; // built-in tools pitwall does not ask for
    this.items.set(outputIndex, { contentIndex, streamed: false });
  }

  private delta(outputIndex: number, apply: (contentIndex: number) => void): void {
    const item = this.items.get(outputIndex);
    if (!item) return;
    item.streamed = true;
    apply(item.contentIndex);
  }

  private close(outputIndex: number, item: ResponseOutputItem): void {
    const open = this.items.get(outputIndex);
    if (!open) return;
    const { b } = this;
    const index = open.contentIndex;
    if (item.type === "reasoning") {
      const summary = item.summary.map((s) => s.text);
      if (!open.streamed && summary.length) b.thinking(summary.join("\n\n"), index);
      if (item.encrypted_content) b.thinkingMeta(index, { reasoningItem: { summary, encryptedContent: item.encrypted_content } });
    } else if (item.type === "message") {
      if (!open.streamed) b.text(item.content.map((c) => (c.type === "output_text" ? c.text : c.refusal)).join(""), index);
    } else if (item.type === "function_call") {
      if (!open.streamed && item.arguments) b.toolCallDelta(index, item.arguments);
      b.endToolCall(index);
    }
  }

  private setUsage(usage: ResponseUsage): void {
    // input_tokens counts the cached ones too.
    const cached = usage.input_tokens_details?.cached_tokens ?? 0;
    this.b.setUsage({ input: usage.input_tokens - cached, output: usage.output_tokens, cacheRead: cached });
  }
}

export function buildResponsesParams(request: ProviderRequest, official: boolean): ResponseCreateParamsStreaming {
  const { model } = request;
  const tools: FunctionTool[] = request.tools.map((t) => ({
    type: "function",
    name: t.name,
    description: t.description,
    parameters: t.parameters as unknown as Record<string, unknown>,
    strict: false,
  }));
  const effort = reasoningEffort(model, request.thinkingLevel, official);
  return {
    model: model.id,
    stream: true,
    store: false,
    ...(request.systemPrompt ? { instructions: request.systemPrompt } : {}),
    input: toResponsesInput(withoutImagesFor(model, request.messages), model.id),
    ...(tools.length ? { tools } : {}),
    ...reasoningParams(effort, effort !== undefined || (official && model.reasoning)),
    ...(request.maxOutputTokens !== undefined ? { max_output_tokens: request.maxOutputTokens } : {}),
  };
}

/**
 * A summary to show as thinking and the reasoning itself, encrypted, to send back: only asked of
 * models that reason. Reasoning switched off ("none") has nothing to summarise or carry over.
 */
function reasoningParams(effort: ReasoningEffort | undefined, reasons: boolean): Pick<ResponseCreateParamsStreaming, "reasoning" | "include"> {
  if (effort === "none") return { reasoning: { effort } };
  if (!reasons) return {};
  return { reasoning: { ...(effort ? { effort } : {}), summary: "auto" }, include: ["reasoning.encrypted_content"] };
}

/**
 * The conversation as Responses input items. Items go without their ids, as Codex sends them: with
 * `store: false` the server keeps nothing to look an id up in, and id-less items are not checked
 * for their reasoning pairs.
 */
export function toResponsesInput(messages: Message[], modelId: string): ResponseInputItem[] {
  const out: ResponseInputItem[] = [];
  for (const m of repairTranscript(messages)) {
    if (m.role === "user") {
      const content: ResponseInputContent[] = [...(m.images ?? []).map(inputImage), { type: "input_text", text: m.content || "(empty message)" }];
      out.push({ type: "message", role: "user", content });
    } else if (m.role === "toolResult") {
      const text = resultText(m);
      const output: string | ResponseFunctionCallOutputItemList = m.images?.length ? [{ type: "input_text", text }, ...m.images.map(inputImage)] : text;
      out.push({ type: "function_call_output", call_id: safeToolCallId(m.toolCallId), output });
    } else {
      out.push(...assistantItems(m, modelId));
    }
  }
  return out;
}

function assistantItems(m: AssistantMessage, modelId: string): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  // Encrypted reasoning is bound to the model that produced it.
  const sameModel = m.provider === "openai" && m.model === modelId;
  for (const block of m.content) {
    if (block.type === "thinking") {
      const item = block.reasoningItem;
      if (!sameModel || !item) continue;
      const reasoning = { type: "reasoning", summary: item.summary.map((text) => ({ type: "summary_text", text })), encrypted_content: item.encryptedContent };
      // The SDK's type insists on an id, which the API does not need (see toResponsesInput).
      items.push(reasoning as unknown as ResponseInputItem);
    } else if (block.type === "text") {
      if (block.text) items.push({ type: "message", role: "assistant", content: block.text });
    } else {
      items.push({ type: "function_call", call_id: safeToolCallId(block.id), name: block.name, arguments: JSON.stringify(block.arguments) });
    }
  }
  return items;
}

function inputImage(image: ImageContent): ResponseInputImage {
  return { type: "input_image", detail: "auto", image_url: imageDataUrl(image) };
}
