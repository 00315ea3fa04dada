// The agent loop: prompt → stream the reply (retrying failures) → run the tool calls → feed the
// results back → repeat until the model stops calling tools. Steering messages are delivered after
// the tool batch in flight (those queued before the run, after its prompt); follow-ups only when the
// agent would otherwise stop.
import type { AgentTool } from "../tools/tool.js";
import { linkAbort } from "./abort-link.js";
import type { ContextStep } from "./context/context-keeper.js";
import type { PitwallEvent } from "./events.js";
import type { AssistantMessage, Message, ThinkingLevel, ToolResultMessage, UserMessage } from "./messages.js";
import { emptyUsage, toolCallsOf } from "./messages.js";
import type { ModelInfo } from "./models.js";
import { isAbortError } from "./providers/errors.js";
import { ProviderError, type Provider, type ToolSpec } from "./providers/provider.js";
import { retryDelay, retryRefusal, sleep, type RetryPolicy } from "./retry.js";
import { runToolCall } from "./tool-runner.js";
import { inTimeOrder, type TimedNotice } from "./model-notices.js";
import { sentConversation } from "./context/sent-arguments.js";

export interface LoopConfig {
  systemPrompt: string;
  model: ModelInfo;
  thinkingLevel: ThinkingLevel;
  tools: readonly AgentTool[];
  getProvider: (model: ModelInfo) => Promise<Provider>;
  retry: RetryPolicy;
  /** Characters of output one tool result gives the model; results are also capped in bytes from it. */
  maxOutputChars: number;
}

/** How the loop talks to its owner. Contract: none of these throw; the take* calls return [] when nothing is queued. */
export interface LoopHooks {
  /** Read before every model request, so /model and /thinking apply from the next request on. */
  config(): LoopConfig;
  emit(event: PitwallEvent): void;
  takeSteering(): UserMessage[];
  takeFollowUps(): UserMessage[];
  /** Notices for the model (a job exited, the person killed one), oldest first; delivered with the next request, in time order with the turn's messages. */
  takeNotices(): Promise<TimedNotice[]>;
  /** A signal for one tool batch that fires when a steering message is queued. */
  batchYieldSignal(): AbortSignal;
  onStreamMessage(message: AssistantMessage | null): void;
  onPendingToolCalls(ids: readonly string[]): void;
  /** Before each model request: may compact `messages` in place (summary + recent turns). */
  prepareContext(messages: Message[], signal: AbortSignal): Promise<ContextStep>;
  /** The provider rejected the request as too long: may compact `messages` in place for one more try. */
  recoverOverflow(messages: Message[], signal: AbortSignal): Promise<ContextStep>;
}

/** Runs until the model is done; appends every message to `messages` and returns the ones added. */
export async function runAgentLoop(messages: Message[], initial: UserMessage[], hooks: LoopHooks, signal: AbortSignal): Promise<Message[]> {
  let added: Message[] = [];
  // A compaction replaced older messages by a summary: the run stops holding on to them too.
  const forgetCompacted = (): void => {
    const inContext = new Set(messages);
    added = added.filter((m) => inContext.has(m));
  };
  const append = (message: Message): void => {
    messages.push(message);
    added.push(message);
    hooks.emit({ type: "message_start", message });
    hooks.emit({ type: "message_end", message });
  };

  hooks.emit({ type: "agent_start" });
  // What waited in the queue goes with the first request: a watch trigger's messages (what happened)
  // before the prompt, the person's steers after it, in the order queued. A steer left by an
  // aborted run so never goes ahead of the person's next message.
  const queued = hooks.takeSteering();
  let pending: UserMessage[] = [...queued.filter((m) => m.origin === "trigger"), ...initial, ...queued.filter((m) => m.origin !== "trigger")];
  try {
    outer: while (true) {
      while (true) {
        hooks.emit({ type: "turn_start" });
        for (const m of inTimeOrder(pending, await hooks.takeNotices())) append(m);
        pending = [];

        const assistant = await streamAssistant(messages, hooks, signal, forgetCompacted);
        messages.push(assistant);
        added.push(assistant);
        hooks.emit({ type: "message_end", message: assistant });
        if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
          hooks.emit({ type: "turn_end", message: assistant, toolResults: [] });
          break outer;
        }

        const results = await runToolBatch(assistant, hooks, signal, append);
        hooks.emit({ type: "turn_end", message: assistant, toolResults: results });
        if (signal.aborted) break outer;

        pending = hooks.takeSteering();
        if (pending.length === 0 && results.length === 0) break;
      }
      pending = hooks.takeFollowUps();
      if (pending.length === 0) break;
    }
  } finally {
    hooks.onStreamMessage(null);
    hooks.onPendingToolCalls([]);
    hooks.emit({ type: "agent_end", messages: added });
  }
  return added;
}

async function runToolBatch(
  assistant: AssistantMessage,
  hooks: LoopHooks,
  signal: AbortSignal,
  append: (m: Message) => void,
): Promise<ToolResultMessage[]> {
  const calls = toolCallsOf(assistant);
  const results: ToolResultMessage[] = [];
  const yieldSignal = hooks.batchYieldSignal();
  const config = hooks.config();
  const tools = config.tools;
  hooks.onPendingToolCalls(calls.map((c) => c.id));
  for (const [i, call] of calls.entries()) {
    const started = Date.now();
    hooks.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
    const { result, isError } = await runToolCall(
      call,
      tools,
      signal,
      (chunk) => hooks.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, chunk }),
      { yieldSignal },
      config.maxOutputChars,
    );
    hooks.emit({
      type: "tool_execution_end",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      details: result.details,
      ...(result.file ? { file: result.file } : {}),
      ...(result.command ? { command: result.command } : {}),
      ...(result.runningJob !== undefined ? { runningJob: result.runningJob } : {}),
      isError,
      durationMs: Date.now() - started,
    });
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      details: result.details,
      ...(result.images?.length ? { images: result.images } : {}),
      ...(result.file ? { file: result.file } : {}),
      ...(result.command ? { command: result.command } : {}),
      ...(result.runningJob !== undefined ? { runningJob: result.runningJob } : {}),
      isError,
      timestamp: Date.now(),
    };
    results.push(message);
    append(message);
    hooks.onPendingToolCalls(calls.slice(i + 1).map((c) => c.id));
  }
  return results;
}

/**
 * One assistant reply, with retries, after making sure the request fits the context window (a
 * compaction first when it would not, and once more when the provider still says it is too long).
 * Never throws: failures end as a message with stopReason "error".
 */
async function streamAssistant(messages: Message[], hooks: LoopHooks, signal: AbortSignal, onCompacted: () => void): Promise<AssistantMessage> {
  const config = hooks.config();
  const prepared = await hooks.prepareContext(messages, signal);
  if (prepared.compacted) onCompacted();
  if (prepared.failure && !signal.aborted) return failedMessage(config.model, prepared.failure, hooks);
  let overflowHandled = false;
  for (let attempt = 1; ; attempt++) {
    const request = {
      model: config.model,
      systemPrompt: config.systemPrompt,
      messages: sentConversation(messages),
      tools: config.tools.map((t): ToolSpec => ({ name: t.name, description: t.description, parameters: t.parameters })),
      thinkingLevel: config.thinkingLevel,
    };
    let started = false;
    let partial: AssistantMessage | undefined;
    const link = linkAbort(signal);
    try {
      const provider = await config.getProvider(config.model);
      const stream = provider.stream(request, link.signal);
      partial = stream.partial;
      for await (const delta of stream) {
        if (!started) {
          started = true;
          hooks.emit({ type: "message_start", message: stream.partial });
        }
        hooks.onStreamMessage(stream.partial);
        hooks.emit({ type: "message_update", delta });
      }
      const message = await stream.result();
      if (!started) hooks.emit({ type: "message_start", message });
      return message;
    } catch (error) {
      if (signal.aborted || isAbortError(error)) {
        const message = partial ?? blankMessage(config.model);
        message.stopReason = "aborted";
        if (!started) hooks.emit({ type: "message_start", message });
        return message;
      }
      const failure = error instanceof ProviderError ? error : new ProviderError(String(error), "connection", { retryable: false });
      if (failure.kind === "overflow" && !overflowHandled && !started) {
        // Compact and try once more; the compaction events tell the person why.
        overflowHandled = true;
        hooks.onStreamMessage(null);
        const recovered = await hooks.recoverOverflow(messages, signal);
        if (recovered.compacted) {
          onCompacted();
          attempt--;
          continue;
        }
        if (signal.aborted) continue;
        return failedMessage(config.model, `${failure.message} ${recovered.failure ?? ""}`.trim(), hooks);
      }
      const delay = retryDelay(failure, attempt, config.retry);
      if (delay !== undefined) {
        // The partial reply streamed so far is discarded; a new message_start follows the wait.
        hooks.onStreamMessage(null);
        hooks.emit({ type: "retry", attempt: attempt + 1, maxAttempts: config.retry.maxAttempts, delayMs: delay, reason: failure.message });
        await sleep(delay, signal);
        continue;
      }
      const tried = attempt > 1 ? ` (gave up after ${attempt} attempts)` : "";
      const overflowAgain = failure.kind === "overflow" && overflowHandled ? " It was still too long after compacting: shorten the message, lower --context-window, or /new to start afresh." : "";
      const refusal = retryRefusal(failure, config.retry);
      // Whatever was streamed before the failure is kept, like an abort keeps it.
      return failedMessage(config.model, `${failure.message}${tried}${refusal ? ` ${refusal}` : ""}${overflowAgain}`, hooks, partial, started);
    } finally {
      link.release();
    }
  }
}

/** Ends the reply as failed: what streamed is kept, the error is announced. */
function failedMessage(model: ModelInfo, errorMessage: string, hooks: LoopHooks, partial?: AssistantMessage, started = false): AssistantMessage {
  const message = partial ?? blankMessage(model);
  message.stopReason = "error";
  message.errorMessage = errorMessage;
  if (!started) hooks.emit({ type: "message_start", message });
  hooks.emit({ type: "error", message: errorMessage, source: "provider" });
  return message;
}

function blankMessage(model: ModelInfo): AssistantMessage {
  return { role: "assistant", content: [], provider: model.provider, model: model.id, usage: emptyUsage(), stopReason: "stop", timestamp: Date.now() };
}
