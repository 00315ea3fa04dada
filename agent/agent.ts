// The Agent: holds the conversation state (system prompt, model, thinking level, tools, messages,
// streaming flag, pending tool calls), runs the loop for each prompt, and owns the two queues:
// steering (delivered after the tool batch in flight) and follow-up (delivered when it would stop).
import type { AgentTool } from "../tools/tool.js";
import { runAgentLoop, type LoopConfig, type LoopHooks } from "./agent-loop.js";
import type { ContextSettings } from "./context/context-budget.js";
import { ContextKeeper, type ContextUsage, type ManualCompaction } from "./context/context-keeper.js";
import type { OlderHistory } from "./context/compaction.js";
import { EventBus } from "./event-bus.js";
import type { PitwallEvent, QueueState } from "./events.js";
import type { AssistantMessage, ImageContent, Message, ThinkingLevel, UserMessage, UserOrigin } from "./messages.js";
import type { ModelInfo } from "./models.js";
import type { ProviderResolver } from "./providers/connections.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../tools/output-cap.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";

export interface AgentState {
  systemPrompt: string;
  model: ModelInfo;
  thinkingLevel: ThinkingLevel;
  tools: readonly AgentTool[];
  messages: readonly Message[];
  isStreaming: boolean;
  /** The assistant message being streamed, or null. */
  streamMessage: AssistantMessage | null;
  /** Tool calls of the current batch not yet finished. */
  pendingToolCalls: ReadonlySet<string>;
  queue: QueueState;
  /** The last provider failure, cleared by the next prompt. */
  error?: string;
}

export interface AgentOptions {
  model: ModelInfo;
  getProvider: ProviderResolver;
  systemPrompt?: string;
  thinkingLevel?: ThinkingLevel;
  tools?: readonly AgentTool[];
  messages?: readonly Message[];
  /** Share one bus with the job registry and the front ends; a new one otherwise. */
  bus?: EventBus<PitwallEvent>;
  retry?: Partial<RetryPolicy>;
  /** Characters of output one tool result may give the model (the backstop cap; default 30 000). */
  maxOutputChars?: number;
  /** Pulled before every model request; each line becomes part of one notice to the model. */
  noticeSources?: Array<() => string[] | Promise<string[]>>;
  /** The context window (when the model table has none, or smaller) and the compaction threshold. */
  context?: ContextSettings;
  /** One line per background job, given to the model that writes a compaction's summary. */
  jobsForSummary?: () => string[] | Promise<string[]>;
  /** A resumed session's older messages left on disk: summarised before the first request. */
  olderHistory?: OlderHistory;
}

export type QueuedKind = "steer" | "follow_up";

/** A message waiting in the queue, with its kind and the images attached to it. */
export interface QueuedMessage {
  kind: QueuedKind;
  text: string;
  images?: ImageContent[];
}

export class AgentBusyError extends Error {
  constructor() {
    super("The agent is still working: queue the message with steer() or followUp(), or abort() first.");
  }
}

/** Images were given for a model the table knows to take text only; nothing was sent. */
export class ImageInputError extends Error {
  constructor(model: ModelInfo) {
    super(`${model.id} takes text only, so the image was not sent: switch to a model that reads images (/model) or send the text alone.`);
  }
}

export class Agent {
  readonly bus: EventBus<PitwallEvent>;
  private systemPrompt: string;
  private model: ModelInfo;
  private thinkingLevel: ThinkingLevel;
  private tools: readonly AgentTool[];
  private messages: Message[];
  private streamMessage: AssistantMessage | null = null;
  private pendingToolCalls = new Set<string>();
  /** Both queues in the order the messages were queued (steers are delivered first all the same). */
  private queued: QueuedMessage[] = [];
  private notices: string[] = [];
  private readonly noticeSources: Array<() => string[] | Promise<string[]>>;
  private readonly retry: RetryPolicy;
  private readonly maxOutputChars: number;
  private readonly getProvider: ProviderResolver;
  private abortController: AbortController | undefined;
  private yieldController: AbortController | undefined;
  private running: Promise<void> | undefined;
  private lastError: string | undefined;
  private readonly context: ContextKeeper;

  constructor(options: AgentOptions) {
    this.bus = options.bus ?? new EventBus<PitwallEvent>();
    this.model = options.model;
    this.getProvider = options.getProvider;
    this.systemPrompt = options.systemPrompt ?? "";
    this.thinkingLevel = options.thinkingLevel ?? "off";
    this.tools = options.tools ?? [];
    this.messages = [...(options.messages ?? [])];
    this.retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.maxOutputChars = options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
    this.noticeSources = options.noticeSources ?? [];
    this.context = new ContextKeeper({
      settings: options.context,
      emit: (event) => this.bus.emit(event),
      jobs: options.jobsForSummary,
      older: options.olderHistory,
    });
    this.bus.subscribe((event) => {
      if (event.type === "error" && event.source === "provider") this.lastError = event.message;
    });
  }

  get state(): AgentState {
    return {
      systemPrompt: this.systemPrompt,
      model: this.model,
      thinkingLevel: this.thinkingLevel,
      tools: this.tools,
      messages: this.messages,
      isStreaming: this.running !== undefined,
      streamMessage: this.streamMessage,
      pendingToolCalls: this.pendingToolCalls,
      queue: this.queueState(),
      error: this.lastError,
    };
  }

  subscribe(listener: (event: PitwallEvent) => void): () => void {
    return this.bus.subscribe(listener);
  }

  setSystemPrompt(value: string): void {
    this.systemPrompt = value;
  }

  setModel(model: ModelInfo): void {
    this.model = model;
    this.bus.emit({ type: "model_change", provider: model.provider, model: model.id });
  }

  setThinkingLevel(level: ThinkingLevel): void {
    this.thinkingLevel = level;
    this.bus.emit({ type: "thinking_change", level });
  }

  setTools(tools: readonly AgentTool[]): void {
    this.tools = tools;
  }

  /** How full the context of the next request is, against the model's window. */
  contextUsage(): ContextUsage {
    return this.context.usage(this.loopConfig(), this.messages);
  }

  /** A resumed session's messages still on disk, waiting to be summarised before the next request. */
  get olderPending(): number {
    return this.context.olderPending;
  }

  /**
   * Compacts the conversation now (/compact): the older part becomes a summary, the newest turns stay.
   * `instructions` tell the summary what to focus on. Resolves when done; events tell the rest.
   */
  async compact(instructions?: string): Promise<ManualCompaction> {
    if (this.running) throw new AgentBusyError();
    this.abortController = new AbortController();
    const work = this.context.compactNow(this.messages, this.loopConfig(), this.abortController.signal, instructions?.trim() || undefined);
    this.running = work.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await work;
    } finally {
      this.running = undefined;
      this.abortController = undefined;
    }
  }

  replaceMessages(messages: readonly Message[]): void {
    this.assertIdle();
    this.messages = [...messages];
  }

  appendMessage(message: Message): void {
    this.assertIdle();
    this.messages.push(message);
  }

  clearMessages(): void {
    this.assertIdle();
    this.messages = [];
  }

  /**
   * Runs one prompt to the end. Resolves when the agent is idle again; failures arrive as events.
   * Images go with the text (an ImageInputError, before anything is sent, for a text-only model).
   */
  async prompt(text: string, images?: ImageContent[]): Promise<void> {
    if (this.running) throw new AgentBusyError();
    this.assertImagesAccepted(images);
    this.lastError = undefined;
    this.abortController = new AbortController();
    const signal = this.abortController.signal;
    const initial = [userMessage({ text, images }, "prompt")];
    const hooks: LoopHooks = {
      config: () => this.loopConfig(),
      emit: (event) => this.bus.emit(event),
      takeSteering: () => this.take("steer"),
      takeFollowUps: () => this.take("follow_up"),
      takeNotices: () => this.takeNotices(),
      batchYieldSignal: () => {
        this.yieldController = new AbortController();
        if (this.queued.some((m) => m.kind === "steer")) this.yieldController.abort();
        return AbortSignal.any([this.yieldController.signal, signal]);
      },
      onStreamMessage: (message) => {
        this.streamMessage = message;
      },
      onPendingToolCalls: (ids) => {
        this.pendingToolCalls = new Set(ids);
      },
      prepareContext: (messages, runSignal) => this.context.beforeRequest(messages, this.loopConfig(), runSignal),
      recoverOverflow: (messages, runSignal) => this.context.afterOverflow(messages, this.loopConfig(), runSignal),
    };
    const run = runAgentLoop(this.messages, initial, hooks, signal).then(() => undefined);
    this.running = run.finally(() => {
      this.running = undefined;
      this.abortController = undefined;
      this.yieldController = undefined;
    });
    await this.running;
  }

  /** Delivered after the tool batch in flight finishes; nothing is skipped. Ends a background wait early. */
  steer(text: string, images?: ImageContent[]): void {
    this.assertImagesAccepted(images);
    this.queued.push(queued("steer", text, images));
    this.yieldController?.abort();
    this.emitQueue();
  }

  /** Delivered when the agent would otherwise stop. */
  followUp(text: string, images?: ImageContent[]): void {
    this.assertImagesAccepted(images);
    this.queued.push(queued("follow_up", text, images));
    this.emitQueue();
  }

  /** Takes the most recently queued message back (for editing), whichever its kind, with its images. */
  dequeueLast(): QueuedMessage | undefined {
    const last = this.queued.pop();
    if (last) this.emitQueue();
    return last;
  }

  /** Empties the queue; returns what was in it, in the order it was queued. */
  takeQueue(): QueuedMessage[] {
    const taken = this.queued;
    this.queued = [];
    if (taken.length > 0) this.emitQueue();
    return taken;
  }

  /** Tells the model something with its next request (a job exited, the person acted). */
  notify(text: string): void {
    this.notices.push(text);
  }

  /** Cancels the request in flight and every running tool; the partial reply is kept, marked aborted. */
  abort(): void {
    this.abortController?.abort();
  }

  waitForIdle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private loopConfig(): LoopConfig {
    return {
      systemPrompt: this.systemPrompt,
      model: this.model,
      thinkingLevel: this.thinkingLevel,
      tools: this.tools,
      getProvider: this.getProvider,
      retry: this.retry,
      maxOutputChars: this.maxOutputChars,
    };
  }

  private take(kind: QueuedKind): UserMessage[] {
    const taken = this.queued.filter((m) => m.kind === kind);
    if (taken.length === 0) return [];
    this.queued = this.queued.filter((m) => m.kind !== kind);
    this.emitQueue();
    return taken.map((m) => userMessage(m, kind));
  }

  private async takeNotices(): Promise<UserMessage[]> {
    const fromSources = await Promise.all(this.noticeSources.map(async (source) => source()));
    const lines = [...this.notices, ...fromSources.flat()];
    this.notices = [];
    return lines.length ? [userMessage({ text: `[pitwall notice]\n${lines.join("\n")}` }, "notice")] : [];
  }

  private queueState(): QueueState {
    return { steering: this.queued.filter((m) => m.kind === "steer").map((m) => m.text), followUp: this.queued.filter((m) => m.kind === "follow_up").map((m) => m.text) };
  }

  private emitQueue(): void {
    this.bus.emit({ type: "queue_update", ...this.queueState() });
  }

  private assertIdle(): void {
    if (this.running) throw new AgentBusyError();
  }

  private assertImagesAccepted(images: readonly ImageContent[] | undefined): void {
    if (images?.length && this.model.textOnly) throw new ImageInputError(this.model);
  }
}

function queued(kind: QueuedKind, text: string, images: ImageContent[] | undefined): QueuedMessage {
  return images?.length ? { kind, text, images } : { kind, text };
}

function userMessage(item: { text: string; images?: ImageContent[] }, origin: UserOrigin): UserMessage {
  return { role: "user", content: item.text, origin, ...(item.images?.length ? { images: item.images } : {}), timestamp: Date.now() };
}
