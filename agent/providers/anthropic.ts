// Anthropic Messages through @anthropic-ai/sdk, streaming. Loaded lazily (the SDK costs a few
// hundred ms to import) so the dashboard can draw before it is needed.
import Anthropic from "@anthropic-ai/sdk";
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  RawMessageStreamEvent,
  ThinkingConfigParam,
  Tool,
} from "@anthropic-ai/sdk/resources/messages/messages";
import type { ImageContent, Message, ThinkingLevel } from "../messages.js";
import type { ModelInfo } from "../models.js";
import { toProviderError, type FailureContext } from "./errors.js";
import { resultText, withoutImagesFor } from "./image-input.js";
import { streamInto, type MessageBuilder } from "./message-builder.js";
import { httpFetch } from "./http-fetch.js";
import { proxyName } from "./proxy.js";
import { DEFAULT_STREAM_TIMEOUTS, PATIENT_MS } from "./stall-guard.js";
import type { AssistantStream, Provider, ProviderConnection, ProviderRequest } from "./provider.js";
import { repairTranscript, safeToolCallId } from "./transcript.js";

const THINKING_BUDGETS: Record<Exclude<ThinkingLevel, "off">, number> = {
  minimal: 1024,
  low: 4096,
  medium: 10_240,
  high: 32_000,
};
const DEFAULT_MAX_TOKENS = 16_384;
/** The API honours at most four cache breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

export function createAnthropicProvider(connection: ProviderConnection): Provider {
  const timeouts = connection.timeouts ?? DEFAULT_STREAM_TIMEOUTS;
  const client = new Anthropic({
    apiKey: connection.apiKey ?? "",
    baseURL: connection.baseUrl,
    maxRetries: 0, // the agent loop retries, so each attempt is visible as a retry event
    // Stalls are caught by our fetch; the SDK's own timer is only a backstop.
    timeout: Math.max(PATIENT_MS, timeouts.headerMs + 1_000),
    fetch: httpFetch(timeouts, connection.proxy),
  });
  const failure = (model: string): FailureContext => ({
    label: "Anthropic",
    keyVariable: "ANTHROPIC_API_KEY",
    model,
    baseUrl: connection.baseUrl,
    proxy: proxyName(connection.baseUrl ?? "https://api.anthropic.com", connection.proxy),
  });

  return {
    name: "anthropic",
    stream(request: ProviderRequest, signal: AbortSignal): AssistantStream {
      return streamInto(request.model, signal, (builder) => run(client, request, signal, builder), (error) => toProviderError(error, failure(request.model.id)));
    },
  };
}

async function run(client: Anthropic, request: ProviderRequest, signal: AbortSignal, builder: MessageBuilder): Promise<void> {
  const params = buildParams(request);
  const stream = await client.messages.create(params, { signal });
  for await (const event of stream) handleEvent(event, builder);
}

function handleEvent(event: RawMessageStreamEvent, b: MessageBuilder): void {
  switch (event.type) {
    case "message_start": {
      const u = event.message.usage;
      b.setUsage({ input: u.input_tokens, output: u.output_tokens, cacheRead: u.cache_read_input_tokens ?? 0, cacheWrite: u.cache_creation_input_tokens ?? 0 });
      return;
    }
    case "content_block_start": {
      const block = event.content_block;
      if (block.type === "text") b.text(block.text, event.index);
      else if (block.type === "thinking") b.thinking(block.thinking, event.index);
      else if (block.type === "redacted_thinking") b.thinkingMeta(event.index, { redacted: true, signature: block.data });
      else if (block.type === "tool_use") b.startToolCall(block.id, block.name, event.index);
      return;
    }
    case "content_block_delta": {
      const d = event.delta;
      if (d.type === "text_delta") b.text(d.text, event.index);
      else if (d.type === "thinking_delta") b.thinking(d.thinking, event.index);
      else if (d.type === "signature_delta") b.thinkingMeta(event.index, { signature: d.signature });
      else if (d.type === "input_json_delta") b.toolCallDelta(event.index, d.partial_json);
      return;
    }
    case "content_block_stop":
      b.endToolCall(event.index);
      return;
    case "message_delta": {
      const u = event.usage;
      b.setUsage({
        output: u.output_tokens,
        ...(u.input_tokens != null ? { input: u.input_tokens } : {}),
        ...(u.cache_read_input_tokens != null ? { cacheRead: u.cache_read_input_tokens } : {}),
        ...(u.cache_creation_input_tokens != null ? { cacheWrite: u.cache_creation_input_tokens } : {}),
      });
      const reason = event.delta.stop_reason;
      b.setStopReason(reason === "tool_use" ? "toolUse" : reason === "max_tokens" ? "length" : "stop");
      return;
    }
    default:
      return;
  }
}

export function buildParams(request: ProviderRequest): MessageCreateParamsStreaming {
  const { model } = request;
  const thinking = thinkingParams(model, request.thinkingLevel);
  const tools: Tool[] = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as unknown as Tool["input_schema"],
  }));
  // Tools come first in the cached prefix: a breakpoint on the last one keeps them cached even
  // when the system prompt changes (AGENTS.md edited).
  const lastTool = tools[tools.length - 1];
  if (lastTool) lastTool.cache_control = { type: "ephemeral" };
  const messages = toAnthropicMessages(withoutImagesFor(model, request.messages), model.id);
  markCacheBreakpoints(messages, MAX_CACHE_BREAKPOINTS - (lastTool ? 1 : 0) - (request.systemPrompt ? 1 : 0));
  return {
    model: model.id,
    max_tokens: request.maxOutputTokens !== undefined ? Math.min(request.maxOutputTokens, thinking.maxTokens) : thinking.maxTokens,
    stream: true,
    system: request.systemPrompt ? [{ type: "text", text: request.systemPrompt, cache_control: { type: "ephemeral" } }] : undefined,
    messages,
    ...(tools.length ? { tools } : {}),
    ...(thinking.thinking ? { thinking: thinking.thinking } : {}),
    ...(thinking.effort ? { output_config: { effort: thinking.effort } } : {}),
  };
}

/**
 * Thinking levels as each kind of Claude model takes them: older models a token budget, newer ones
 * adaptive thinking steered by an effort (and switched off with "off" where the model allows it).
 */
function thinkingParams(model: ModelInfo, level: ThinkingLevel): { thinking?: ThinkingConfigParam; effort?: "low" | "medium" | "high"; maxTokens: number } {
  const ceiling = model.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
  const style = model.reasoning ? (model.thinkingStyle ?? "adaptive") : undefined;
  if (style === "budget") {
    if (level === "off") return { maxTokens: Math.min(ceiling, DEFAULT_MAX_TOKENS) };
    const maxTokens = Math.min(ceiling, THINKING_BUDGETS[level] + DEFAULT_MAX_TOKENS);
    const budget = Math.min(THINKING_BUDGETS[level], Math.max(1024, maxTokens - 4096));
    return { thinking: { type: "enabled", budget_tokens: budget }, maxTokens };
  }
  // Adaptive thinking spends output tokens too: leave room for it.
  const maxTokens = Math.min(ceiling, 4 * DEFAULT_MAX_TOKENS);
  if (style === undefined) return { maxTokens: Math.min(ceiling, DEFAULT_MAX_TOKENS) };
  if (level === "off") {
    return style === "always" ? { effort: "low", maxTokens } : { thinking: { type: "disabled" }, maxTokens };
  }
  const effort = level === "minimal" ? "low" : level;
  return { thinking: { type: "adaptive", display: "summarized" }, effort, maxTokens };
}

/** Consecutive user-side messages (results, steers, notices) merge into one user turn. */
export function toAnthropicMessages(messages: Message[], modelId: string): MessageParam[] {
  const out: MessageParam[] = [];
  const pushUser = (block: ContentBlockParam): void => {
    const last = out[out.length - 1];
    if (last?.role === "user" && Array.isArray(last.content)) last.content.push(block);
    else out.push({ role: "user", content: [block] });
  };
  for (const m of repairTranscript(messages)) {
    if (m.role === "user") {
      // Images before the text, as Anthropic recommends.
      for (const image of m.images ?? []) pushUser(imageBlock(image));
      pushUser({ type: "text", text: m.content || "(empty message)" });
    } else if (m.role === "toolResult") {
      const text = resultText(m);
      const content = m.images?.length ? [{ type: "text" as const, text }, ...m.images.map(imageBlock)] : text;
      pushUser({ type: "tool_result", tool_use_id: safeToolCallId(m.toolCallId), content, is_error: m.isError });
    } else {
      const content: ContentBlockParam[] = [];
      for (const block of m.content) {
        if (block.type === "text") {
          if (block.text) content.push({ type: "text", text: block.text });
        } else if (block.type === "thinking") {
          // Thinking is bound to the model that produced it, and needs its signature; otherwise it stays local.
          const sameModel = m.provider === "anthropic" && m.model === modelId;
          if (!sameModel || !block.signature) continue;
          if (block.redacted) content.push({ type: "redacted_thinking", data: block.signature });
          else content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
        } else {
          content.push({ type: "tool_use", id: safeToolCallId(block.id), name: block.name, input: block.arguments });
        }
      }
      if (content.length) out.push({ role: "assistant", content });
    }
  }
  return out;
}

function imageBlock(image: ImageContent): ImageBlockParam {
  return { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data } };
}

/**
 * Caches the conversation prefix: the last block of the newest user turn, and of the turn before
 * it. The second one matters when a turn added many blocks (a batch of tool calls): the cache is
 * looked up only a limited number of blocks back from each breakpoint, so the previous request's
 * breakpoint is repeated where it was.
 */
function markCacheBreakpoints(messages: MessageParam[], available: number): void {
  let marked = 0;
  for (let i = messages.length - 1; i >= 0 && marked < Math.min(2, available); i--) {
    const message = messages[i]!;
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    const block = message.content[message.content.length - 1];
    if (block && (block.type === "text" || block.type === "tool_result" || block.type === "image")) {
      block.cache_control = { type: "ephemeral" };
      marked++;
    }
  }
}
