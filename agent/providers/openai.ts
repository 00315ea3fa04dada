// OpenAI Chat Completions through the `openai` SDK, streaming; also any OpenAI-compatible server
// (Ollama, llama.cpp, vLLM, OpenRouter) through a base URL. Loaded lazily, like the Anthropic one.
import type OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionContentPartImage,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions/completions";
import type { ImageContent, Message } from "../messages.js";
import { imageDataUrl } from "../../tools/images/image-content.js";
import { toProviderError } from "./errors.js";
import { resultText, withoutImagesFor } from "./image-input.js";
import { streamInto, type MessageBuilder } from "./message-builder.js";
import { isOfficialOpenAI } from "./openai-api.js";
import { createOpenAIClient, openaiFailureContext, reasoningEffort } from "./openai-common.js";
import type { AssistantStream, Provider, ProviderConnection, ProviderRequest } from "./provider.js";
import { repairTranscript, safeToolCallId } from "./transcript.js";

/** Compatible servers stream thinking under different names (llama.cpp/vLLM/DeepSeek, Ollama/OpenRouter). */
const REASONING_DELTA_FIELDS = ["reasoning_content", "reasoning"] as const;

export function createOpenAIProvider(connection: ProviderConnection): Provider {
  const client = createOpenAIClient(connection);
  // Chat Completions streams nothing while a reasoning model thinks: such requests wait longer.
  let patientClient: OpenAI | undefined;
  const clientFor = (params: ChatCompletionCreateParamsStreaming): OpenAI =>
    params.reasoning_effort && params.reasoning_effort !== "none" ? (patientClient ??= createOpenAIClient(connection, { patient: true })) : client;
  const official = isOfficialOpenAI(connection.baseUrl);

  return {
    name: "openai",
    stream(request: ProviderRequest, signal: AbortSignal): AssistantStream {
      const params = buildParams(request, official);
      return streamInto(request.model, signal, (builder) => run(clientFor(params), params, signal, builder), (error) => toProviderError(error, openaiFailureContext(connection, request.model.id)));
    },
  };
}

async function run(client: OpenAI, params: ChatCompletionCreateParamsStreaming, signal: AbortSignal, b: MessageBuilder): Promise<void> {
  const stream = await client.chat.completions.create(params, { signal });
  const calls = new Map<number, number>(); // the server's tool-call index → our content index
  for await (const chunk of stream) handleChunk(chunk, b, calls);
}

function handleChunk(chunk: ChatCompletionChunk, b: MessageBuilder, calls: Map<number, number>): void {
  if (chunk.usage) {
    const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
    b.setUsage({ input: chunk.usage.prompt_tokens - cached, output: chunk.usage.completion_tokens, cacheRead: cached });
  }
  const choice = chunk.choices[0];
  if (!choice) return;
  const delta = choice.delta as ChatCompletionChunk.Choice.Delta & Partial<Record<(typeof REASONING_DELTA_FIELDS)[number], unknown>>;
  for (const field of REASONING_DELTA_FIELDS) {
    const reasoning = delta[field];
    if (typeof reasoning === "string" && reasoning) b.thinking(reasoning);
  }
  if (delta.content) b.text(delta.content);
  for (const tc of delta.tool_calls ?? []) {
    const serverIndex = tc.index ?? 0;
    let contentIndex = calls.get(serverIndex);
    if (contentIndex === undefined) {
      contentIndex = b.startToolCall(tc.id ?? `call_${serverIndex}_${Date.now()}`, tc.function?.name ?? "");
      calls.set(serverIndex, contentIndex);
    } else if (tc.function?.name) {
      b.patchToolCall(contentIndex, { name: tc.function.name });
    }
    if (tc.function?.arguments) b.toolCallDelta(contentIndex, tc.function.arguments);
  }
  switch (choice.finish_reason) {
    case "tool_calls":
    case "function_call":
      b.setStopReason("toolUse");
      break;
    case "length":
      b.setStopReason("length");
      break;
    case "stop":
    case "content_filter":
      b.setStopReason("stop");
      break;
    default:
      break;
  }
}

export function buildParams(request: ProviderRequest, official: boolean): ChatCompletionCreateParamsStreaming {
  const tools: ChatCompletionTool[] = request.tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters as unknown as Record<string, unknown> },
  }));
  const effort = reasoningEffort(request.model, request.thinkingLevel, official);
  return {
    model: request.model.id,
    stream: true,
    stream_options: { include_usage: true },
    messages: toOpenAIMessages(request.systemPrompt, withoutImagesFor(request.model, request.messages)),
    ...(tools.length ? { tools } : {}),
    ...(effort ? { reasoning_effort: effort } : {}),
    // OpenAI's own API wants max_completion_tokens; compatible servers know max_tokens.
    ...(request.maxOutputTokens !== undefined ? (official ? { max_completion_tokens: request.maxOutputTokens } : { max_tokens: request.maxOutputTokens }) : {}),
  };
}

/**
 * Tool messages cannot carry images in Chat Completions: a tool result's images follow the batch
 * of tool messages as one user message that says where they came from.
 */
export function toOpenAIMessages(systemPrompt: string, messages: Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (systemPrompt) out.push({ role: "system", content: systemPrompt });
  let resultImages: ChatCompletionContentPartImage[] = [];
  const flushResultImages = (): void => {
    if (resultImages.length === 0) return;
    out.push({ role: "user", content: [{ type: "text", text: "Image(s) returned by the tool call(s) above:" }, ...resultImages] });
    resultImages = [];
  };
  for (const m of repairTranscript(messages)) {
    if (m.role !== "toolResult") flushResultImages();
    if (m.role === "user") {
      const text = m.content || "(empty message)";
      out.push({ role: "user", content: m.images?.length ? [...m.images.map(imagePart), { type: "text", text }] : text });
    } else if (m.role === "toolResult") {
      const images = m.images ?? [];
      const text = resultText(m);
      out.push({ role: "tool", tool_call_id: safeToolCallId(m.toolCallId), content: images.length ? `${text}\n(${images.length === 1 ? "the image follows" : "the images follow"} in the next message)` : text });
      resultImages.push(...images.map(imagePart));
    } else {
      const text = m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
      const toolCalls = m.content.flatMap((c) =>
        c.type === "toolCall"
          ? [{ id: safeToolCallId(c.id), type: "function" as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } }]
          : [],
      );
      if (!text && toolCalls.length === 0) continue;
      out.push({ role: "assistant", content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) });
    }
  }
  flushResultImages();
  return out;
}

function imagePart(image: ImageContent): ChatCompletionContentPartImage {
  return { type: "image_url", image_url: { url: imageDataUrl(image) } };
}
