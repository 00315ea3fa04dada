// Builds the assistant message while a provider streams it, and pushes one delta per change. Both
// providers use it, so text, thinking and tool calls (arguments parsed as they stream) come out the
// same whichever API produced them.
import { parse as parsePartialJson } from "partial-json";
import type { AssistantDelta } from "../events.js";
import { EventStream } from "../event-stream.js";
import { emptyUsage, type AssistantMessage, type StopReason, type ThinkingContent, type ToolCall, type Usage } from "../messages.js";
import { costOf, type ModelInfo } from "../models.js";
import { isAbortError } from "./errors.js";
import type { AssistantStream, ProviderError } from "./provider.js";

/**
 * Re-parsing partial JSON costs time in proportion to its size (partial-json: about 40 ms per MB),
 * so it happens at a bounded rate: on every delta while the arguments are small, then only each time
 * they grew by a quarter (total work a few times the final size), and not at all past 256 KB. The
 * complete arguments are parsed once, with JSON.parse, when the call ends. A 10 MB argument so
 * streams at the speed of its bytes, and Esc is never stuck behind a parse.
 */
const PARTIAL_PARSE_EVERY_DELTA_BELOW = 4096;
const PARTIAL_PARSE_GROWTH = 1.25;
const PARTIAL_PARSE_MAX_CHARS = 256 * 1024;

function partialParseDue(length: number, parsedAt: number): boolean {
  if (length < PARTIAL_PARSE_EVERY_DELTA_BELOW) return true;
  return length <= PARTIAL_PARSE_MAX_CHARS && length >= parsedAt * PARTIAL_PARSE_GROWTH;
}

export class MessageBuilder {
  readonly stream: AssistantStream;
  readonly message: AssistantMessage;
  private rawArgs = new Map<number, { text: string; parsedAt: number }>();

  constructor(private readonly model: ModelInfo) {
    this.message = {
      role: "assistant",
      content: [],
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
    const stream = new EventStream<AssistantDelta, AssistantMessage>() as AssistantStream;
    Object.defineProperty(stream, "partial", { value: this.message, enumerable: true });
    this.stream = stream;
  }

  /** Index of a new or continued text block. */
  text(delta: string, contentIndex?: number): number {
    const index = contentIndex ?? this.lastIndexOf("text");
    const block = this.message.content[index];
    if (block?.type === "text") block.text += delta;
    else this.message.content[index] = { type: "text", text: delta };
    if (delta) this.stream.push({ kind: "text_delta", contentIndex: index, delta });
    return index;
  }

  thinking(delta: string, contentIndex?: number): number {
    const index = contentIndex ?? this.lastIndexOf("thinking");
    const block = this.message.content[index];
    if (block?.type === "thinking") block.thinking += delta;
    else this.message.content[index] = { type: "thinking", thinking: delta };
    if (delta) this.stream.push({ kind: "thinking_delta", contentIndex: index, delta });
    return index;
  }

  /** Adds to a thinking block without a delta: Anthropic's signature, or redacted data. */
  thinkingMeta(contentIndex: number, meta: Partial<ThinkingContent>): void {
    const block = this.message.content[contentIndex];
    if (block?.type === "thinking") Object.assign(block, meta);
    else this.message.content[contentIndex] = { type: "thinking", thinking: "", ...meta };
  }

  startToolCall(id: string, name: string, contentIndex?: number): number {
    const index = contentIndex ?? this.message.content.length;
    this.message.content[index] = { type: "toolCall", id, name, arguments: {} };
    this.rawArgs.set(index, { text: "", parsedAt: 0 });
    this.stream.push({ kind: "toolcall_start", contentIndex: index, id, name });
    return index;
  }

  toolCallDelta(contentIndex: number, delta: string): void {
    const raw = this.rawArgs.get(contentIndex);
    const call = this.message.content[contentIndex];
    if (!raw || call?.type !== "toolCall" || !delta) return;
    raw.text += delta;
    if (partialParseDue(raw.text.length, raw.parsedAt)) {
      raw.parsedAt = raw.text.length;
      try {
        const partial: unknown = parsePartialJson(raw.text);
        if (isObject(partial)) call.arguments = partial;
      } catch {
        // Not parseable yet; the final parse decides.
      }
    }
    this.stream.push({ kind: "toolcall_delta", contentIndex, delta });
  }

  /** Renames or re-identifies a call whose id or name arrived late (some OpenAI-compatible servers). */
  patchToolCall(contentIndex: number, patch: { id?: string; name?: string }): void {
    const call = this.message.content[contentIndex];
    if (call?.type !== "toolCall") return;
    if (patch.id) call.id = patch.id;
    if (patch.name) call.name += patch.name;
  }

  endToolCall(contentIndex: number): void {
    const raw = this.rawArgs.get(contentIndex);
    const call = this.message.content[contentIndex];
    if (!raw || call?.type !== "toolCall") return;
    this.rawArgs.delete(contentIndex);
    const text = raw.text.trim();
    if (text === "") {
      call.arguments = {};
    } else {
      try {
        const parsed: unknown = JSON.parse(text);
        if (isObject(parsed)) call.arguments = parsed;
        else call.invalidArguments = raw.text;
      } catch {
        call.invalidArguments = raw.text;
      }
    }
    this.stream.push({ kind: "toolcall_end", contentIndex, toolCall: { ...call } });
  }

  /** Closes any tool call still open (a server that never said a call ended). */
  endOpenToolCalls(): void {
    for (const index of [...this.rawArgs.keys()]) this.endToolCall(index);
  }

  setUsage(usage: Partial<Omit<Usage, "cost" | "totalTokens">>): void {
    const u = this.message.usage;
    Object.assign(u, Object.fromEntries(Object.entries(usage).filter(([, v]) => typeof v === "number")));
    u.totalTokens = u.input + u.output + u.cacheRead + u.cacheWrite;
    u.cost = costOf(this.model, u);
  }

  setStopReason(reason: StopReason): void {
    this.message.stopReason = reason;
  }

  toolCalls(): ToolCall[] {
    return this.message.content.filter((c): c is ToolCall => c.type === "toolCall");
  }

  finish(): void {
    this.endOpenToolCalls();
    if (this.toolCalls().length > 0 && this.message.stopReason === "stop") this.message.stopReason = "toolUse";
    this.stream.end(this.message);
  }

  private lastIndexOf(type: "text" | "thinking"): number {
    const last = this.message.content.length - 1;
    return this.message.content[last]?.type === type ? last : this.message.content.length;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Runs one provider call into a fresh builder. `run` pushes what the server sends; when it returns
 * the message is finished, an abort keeps the partial message marked "aborted", and any other
 * failure rejects the stream with the ProviderError `toError` makes of it.
 */
export function streamInto(
  model: ModelInfo,
  signal: AbortSignal,
  run: (builder: MessageBuilder) => Promise<void>,
  toError: (error: unknown) => ProviderError,
): AssistantStream {
  const builder = new MessageBuilder(model);
  const finishAborted = (): void => {
    builder.setStopReason("aborted");
    builder.finish();
  };
  run(builder).then(
    // SDK streams end quietly on abort: no error, just no more events.
    () => (signal.aborted ? finishAborted() : builder.finish()),
    (error: unknown) => (signal.aborted || isAbortError(error) ? finishAborted() : builder.stream.fail(toError(error))),
  );
  return builder.stream;
}
