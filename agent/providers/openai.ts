// OpenAI Chat Completions through the `openai` SDK, streaming; also any OpenAI-compatible server
// (Ollama, llama.cpp, vLLM, OpenRouter) through a base URL. Loaded lazily, like the Anthropic one.
import OpenAI from "openai";
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from "openai/resources/chat/completions/completions";
import type { ReasoningEffort } from "openai/resources/shared";
import type { Message, ThinkingLevel } from "../messages.js";
import type { ModelInfo } from "../models.js";
import { toProviderError, type FailureContext } from "./errors.js";
import { streamInto, type MessageBuilder } from "./message-builder.js";
import { DEFAULT_STREAM_TIMEOUTS, PATIENT_MS, stallGuardedFetch, type StreamTimeouts } from "./stall-guard.js";
import type { AssistantStream, Provider, ProviderConnection, ProviderRequest } from "./provider.js";
import { repairTranscript, safeToolCallId } from "./transcript.js";

/** Compatible servers stream thinking under different names (llama.cpp/vLLM/DeepSeek, Ollama/OpenRouter). */
const REASONING_DELTA_FIELDS = ["reasoning_content", "reasoning"] as const;

/**
 * The least reasoning each OpenAI family accepts, and what "minimal" becomes: gpt-5.1 and later
 * can switch reasoning off ("none"), gpt-5 goes down to "minimal", the o-series to "low".
 */
function effortFloor(model: ModelInfo): { off: ReasoningEffort; minimal: ReasoningEffort } {
  if (/^gpt-5\.\d/.test(model.id)) return { off: "none", minimal: "low" };
  if (model.id.startsWith("gpt-5")) return { off: "minimal", minimal: "minimal" };
  return { off: "low", minimal: "low" };
}

export function createOpenAIProvider(connection: ProviderConnection): Provider {
  const timeouts = connection.timeouts ?? DEFAULT_STREAM_TIMEOUTS;
  const makeClient = (patience: StreamTimeouts): OpenAI =>
    new OpenAI({
      // A local server needs no key, but the SDK refuses an empty one.
      apiKey: connection.apiKey || "not-needed",
      baseURL: connection.baseUrl,
      maxRetries: 0, // the agent loop retries, so each attempt is visible as a retry event
      // Stalls are caught by the guarded fetch; the SDK's own timer is only a backstop.
      timeout: Math.max(PATIENT_MS, patience.headerMs + 1_000),
      fetch: stallGuardedFetch(patience),
    });
  const client = makeClient(timeouts);
  // Chat Completions streams nothing while a reasoning model thinks: such requests wait longer.
  let patientClient: OpenAI | undefined;
  const clientFor = (params: ChatCompletionCreateParamsStreaming): OpenAI =>
    params.reasoning_effort && params.reasoning_effort !== "none"
      ? (patientClient ??= makeClient({ headerMs: Math.max(timeouts.headerMs, PATIENT_MS), idleMs: Math.max(timeouts.idleMs, PATIENT_MS) }))
      : client;
  const official = !connection.baseUrl || /(^|\.)openai\.com/.test(hostOf(connection.baseUrl));
  const failure = (model: string): FailureContext => ({
    label: official ? "OpenAI" : `The OpenAI-compatible server at ${hostOf(connection.baseUrl ?? "")}`,
    keyVariable: "OPENAI_API_KEY",
    model,
    baseUrl: connection.baseUrl,
  });

  return {
    name: "openai",
    stream(request: ProviderRequest, signal: AbortSignal): AssistantStream {
      const params = buildParams(request, official);
      return streamInto(request.model, signal, (builder) => run(clientFor(params), params, signal, builder), (error) => toProviderError(error, failure(request.model.id)));
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
    messages: toOpenAIMessages(request.systemPrompt, request.messages),
    ...(tools.length ? { tools } : {}),
    ...(effort ? { reasoning_effort: effort } : {}),
  };
}

function reasoningEffort(model: ModelInfo, level: ThinkingLevel, official: boolean): ReasoningEffort | undefined {
  if (official && !model.reasoning) return undefined;
  // A local server's model gets an effort only when one was asked for.
  if (!official || !model.known) return level === "off" ? undefined : level;
  const floor = effortFloor(model);
  if (level === "off") return floor.off;
  if (level === "minimal") return floor.minimal;
  return level;
}

export function toOpenAIMessages(systemPrompt: string, messages: Message[]): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (systemPrompt) out.push({ role: "system", content: systemPrompt });
  for (const m of repairTranscript(messages)) {
    if (m.role === "user") {
      out.push({ role: "user", content: m.content || "(empty message)" });
    } else if (m.role === "toolResult") {
      out.push({ role: "tool", tool_call_id: safeToolCallId(m.toolCallId), content: m.content || "(no output)" });
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
  return out;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
