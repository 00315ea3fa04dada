// The Agent: holds the conversation state (system prompt, model, thinking level, tools, messages,
// streaming flag, pending tool calls), runs the loop for each prompt, and owns the two queues:
// steering (delivered after the tool batch in flight) and follow-up (delivered when it would stop).
// What a watch trigger sends joins the same queues; whether its wake may start a run is the wake
// policy's to say (tools/jobs/watch/wake-policy.ts).
import type { AgentTool, YieldCause } from "../tools/tool.js";
import { runAgentLoop, type LoopConfig, type LoopHooks } from "./agent-loop.js";
import type { ContextSettings } from "./context/context-budget.js";
import { ContextKeeper, type ContextUsage, type ManualCompaction } from "./context/context-keeper.js";
import type { OlderHistory } from "./context/compaction.js";
import { EventBus } from "./event-bus.js";
import type { PitwallEvent, QueueState } from "./events.js";
import { deliveredAsSteer, MessageQueue, queued, triggerMessage, userMessage, type QueuedKind, type QueuedMessage } from "./message-queue.js";
import type { AssistantMessage, ImageContent, Message, ThinkingLevel, TriggeredBy, UserMessage } from "./messages.js";
import { ModelNotices, type NoticeSource } from "./model-notices.js";
import { RunSlot, type SlotTicket } from "./run-slot.js";
import { untilIdle } from "./when-idle.js";
import type { ModelInfo } from "./models.js";
import type { ProviderResolver } from "./providers/connections.js";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../tools/output-cap.js";
import { type FiringMessage, type WakeCount, WakePolicy } from "../tools/jobs/index.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry.js";

// Waiting for the agent: part of its surface.
export { promptWhenIdle, untilIdle } from "./when-idle.js";
// The queue's shapes are part of the Agent's surface (dequeueLast, takeQueue).
export type { QueuedKind, QueuedMessage } from "./message-queue.js";

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
  noticeSources?: NoticeSource[];
  /** The context window (when the model table has none, or smaller) and the compaction threshold. */
  context?: ContextSettings;
  /** One line per background job, given to the model that writes a compaction's summary. */
  jobsForSummary?: () => string[] | Promise<string[]>;
  /** A resumed session's older messages left on disk: summarised before the first request. */
  olderHistory?: OlderHistory;
  /** A resumed session's count of runs watch triggers started since the person's last message: the cap goes on from it. */
  wakeCount?: WakeCount;
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
  private readonly queue: MessageQueue;
  private readonly notices: ModelNotices;
  private readonly retry: RetryPolicy;
  private readonly maxOutputChars: number;
  private readonly getProvider: ProviderResolver;
  private abortController: AbortController | undefined;
  private yieldController: AbortController | undefined;
  /** What the agent is doing: a run, a compaction or a hold takes the slot; nothing else starts meanwhile. */
  private readonly slot = new RunSlot();
  /** Set while `hold` runs: it holds the slot, so nothing starts, and only the holder may replace the conversation. */
  private held: SlotTicket | undefined;
  /** Whether a trigger's wake may start a run, and which queued wakes start one once the agent is idle. */
  private readonly wakes: WakePolicy<QueuedMessage>;
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
    this.notices = new ModelNotices(options.noticeSources ?? []);
    this.queue = new MessageQueue((state) => this.bus.emit({ type: "queue_update", ...state }));
    this.wakes = new WakePolicy((count, tell) => this.bus.emit({ type: "wake_count", ...count, ...(tell !== undefined ? { message: tell } : {}) }));
    if (options.wakeCount) this.wakes.restore(options.wakeCount);
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
      isStreaming: this.slot.taken,
      streamMessage: this.streamMessage,
      pendingToolCalls: this.pendingToolCalls,
      queue: this.queue.state,
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

  /**
   * Loads the current model's provider (its SDK and HTTP transport) before they are needed, so
   * the first prompt goes out at once. A failure is left for that request to report.
   */
  async prepareProvider(): Promise<void> {
    try {
      await this.getProvider(this.model);
    } catch {
      // The first request gets the same error, with the retry and reporting every request has.
    }
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
    this.assertIdle();
    const controller = new AbortController();
    this.abortController = controller;
    const ticket = this.slot.take();
    try {
      if (this.slot.ending) await this.slot.afterEnd();
      return await this.context.compactNow(this.messages, this.loopConfig(), controller.signal, instructions?.trim() || undefined);
    } finally {
      if (this.abortController === controller) this.abortController = undefined;
      ticket.release();
    }
  }

  replaceMessages(messages: readonly Message[]): void {
    this.assertIdle();
    this.messages = [...messages];
  }

  /**
   * Another conversation takes this one's place (a rewind, another branch of the session): its
   * messages, and the older part of it still on disk, summarised before the next request.
   */
  resetConversation(messages: readonly Message[], olderHistory?: OlderHistory): void {
    // Idle, or within hold.
    if (this.slot.taken && !this.slot.holds(this.held)) throw new AgentBusyError();
    this.messages = [...messages];
    this.context.resetOlder(olderHistory);
  }

  /**
   * Runs `work` with the agent held busy (a rewind moving the conversation to another branch): no
   * prompt or compaction starts and a watch trigger's wake waits until it ends, so nothing is sent
   * on the branch being left; `work` may call resetConversation. Throws AgentBusyError when a run
   * is going.
   */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.assertIdle();
    const ticket = this.slot.take();
    this.held = ticket;
    try {
      if (this.slot.ending) await this.slot.afterEnd();
      return await work();
    } finally {
      this.held = undefined;
      ticket.release();
    }
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
   * Throws AgentBusyError while a run, a compaction or a rewind goes on; from a listener of
   * `agent_end` it is accepted (the agent is idle then) and its run starts once that event has
   * reached every listener. promptWhenIdle() waits for the agent first.
   */
  async prompt(text: string, images?: ImageContent[]): Promise<void> {
    this.assertIdle();
    this.assertImagesAccepted(images);
    this.wakes.personSpoke();
    await this.run([userMessage({ text, images }, "prompt")]);
  }

  /**
   * A watch trigger fired (agent/job-trigger-actions.ts): its message is queued as a steer or a
   * follow-up, or, with "wake", starts a run of its own when the agent is idle and is a steer when
   * it is busy. A wake steer that no run took (the run ended just then, or it was a compaction's)
   * starts a run once the agent is idle. A firing of a trigger whose earlier message is still queued
   * merges into that message (tools/jobs/watch/merged-firings.ts), so the queue does not grow while
   * nobody reads it. The wake policy may hold a wake in the queue instead (too many runs started by
   * triggers with no message from the person in between: MAX_UNATTENDED_WAKES). Never throws: a
   * run that cannot start says so as an event.
   */
  deliverTriggered(firing: FiringMessage, trigger: TriggeredBy): void {
    const kind: QueuedKind = trigger.action === "follow-up" ? "follow_up" : "steer";
    if (this.queue.mergeFiring(kind, firing, trigger)) return;
    const item = triggerMessage(kind, firing, trigger);
    if (kind === "follow_up") {
      this.queue.add(item);
      return;
    }
    // While a run's agent_end is delivered, a wake waits: whoever waited for that moment goes first.
    if (trigger.action === "wake" && !this.slot.taken && !this.slot.ending && this.wakes.mayWake()) {
      this.startWoken([userMessage(item, "trigger")]);
      return;
    }
    this.yieldController?.abort(triggerYield(trigger));
    this.queue.add(item);
    if (trigger.action === "wake") {
      this.wakes.deferUntilIdle(item);
      void this.wakeWhenIdle(item);
    }
  }

  private async wakeWhenIdle(item: QueuedMessage): Promise<void> {
    // Whoever else waited for the end of the run goes first (a prompt, a compaction, a rewind's
    // hold: each starts within the microtasks that follow it): the wake waits for the next turn of
    // the event loop, and for them too, so nothing overlaps and no prompt finds the agent busy.
    do {
      await untilIdle(this);
      await new Promise((resolve) => setImmediate(resolve));
    } while (this.slot.taken);
    if (this.wakes.takeDeferred(item) && this.queue.includes(item) && this.wakes.mayWake()) this.startWoken([]);
  }

  /** Starts a run nobody awaits, with the queued steers (the loop takes them first) and `initial`. */
  private startWoken(initial: UserMessage[]): void {
    this.wakes.woke();
    this.run(initial, true).catch((error: unknown) => {
      this.bus.emit({ type: "error", message: `A watch trigger could not wake the agent: ${error instanceof Error ? error.message : String(error)}`, source: "input" });
    });
  }

  /**
   * Runs the loop with `initial`. The agent is busy from this call on, and idle again from the
   * moment the run's `agent_end` is emitted. Started from a listener of the previous run's
   * `agent_end`, the loop begins once that event has reached every listener. Rejects only when a
   * hook threw. `woken`: a wake started this run, so the trigger messages it opens with woke the
   * agent; any later one steered it.
   */
  private async run(initial: UserMessage[], woken = false): Promise<void> {
    let opening = woken;
    const controller = new AbortController();
    this.abortController = controller;
    const ticket = this.slot.take();
    const finish = (): void => {
      if (this.abortController === controller) {
        this.abortController = undefined;
        this.yieldController = undefined;
      }
      ticket.release();
    };
    const hooks: LoopHooks = {
      config: () => this.loopConfig(),
      // The agent is idle from agent_end on: what a listener starts there begins after it (run-slot.ts).
      emit: (event) => (event.type === "agent_end" ? this.slot.endRun({ release: finish }, () => this.bus.emit(event)) : this.bus.emit(event)),
      takeSteering: () => {
        const taken = this.queue.take("steer");
        const wokeThisRun = opening;
        opening = false;
        return wokeThisRun ? taken : taken.map(deliveredAsSteer);
      },
      takeFollowUps: () => this.queue.take("follow_up"),
      takeNotices: () => this.notices.take(),
      batchYieldSignal: () => {
        this.yieldController = new AbortController();
        const waiting = this.queue.firstSteer;
        if (waiting) this.yieldController.abort(waiting.trigger ? triggerYield(waiting.trigger) : PERSON_YIELD);
        return AbortSignal.any([this.yieldController.signal, controller.signal]);
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
    try {
      if (this.slot.ending) await this.slot.afterEnd();
      this.lastError = undefined;
      await runAgentLoop(this.messages, initial, hooks, controller.signal);
    } finally {
      // agent_end has done this already (it is the loop's last event, emitted however it ends).
      finish();
    }
  }

  /** Delivered after the tool batch in flight finishes; nothing is skipped. Ends a background wait early. */
  steer(text: string, images?: ImageContent[]): void {
    this.assertImagesAccepted(images);
    this.wakes.personSpoke();
    this.yieldController?.abort(PERSON_YIELD);
    this.queue.add(queued("steer", text, images));
  }

  /** Delivered when the agent would otherwise stop. */
  followUp(text: string, images?: ImageContent[]): void {
    this.assertImagesAccepted(images);
    this.wakes.personSpoke();
    this.queue.add(queued("follow_up", text, images));
  }

  /**
   * Takes the most recently queued message of the person's back (for editing), whichever its kind,
   * with its images. A watch trigger's message is not the person's to edit: it stays queued.
   */
  dequeueLast(): QueuedMessage | undefined {
    return this.queue.takeLastOfPerson();
  }

  /**
   * Takes the person's queued messages out; returns them in the order they were queued. Watch
   * triggers' messages stay queued, to go with the next message.
   */
  takeQueue(): QueuedMessage[] {
    return this.queue.takeAllOfPerson();
  }

  /** Tells the model something with its next request (a job exited, the person acted). */
  notify(text: string): void {
    this.notices.add(text);
  }

  /**
   * Cancels the request in flight and every running tool; the partial reply is kept, marked aborted.
   * Queued wakes no longer start a run by themselves: stopped, the agent waits for the person.
   */
  abort(): void {
    this.wakes.cancelDeferred();
    this.abortController?.abort();
  }

  waitForIdle(): Promise<void> {
    return this.slot.whenFree();
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

  private assertIdle(): void {
    if (this.slot.taken) throw new AgentBusyError();
  }

  private assertImagesAccepted(images: readonly ImageContent[] | undefined): void {
    if (images?.length && this.model.textOnly) throw new ImageInputError(this.model);
  }
}

/** Why a background wait ended early, for the tool to say (tools/tool.ts). */
const PERSON_YIELD: YieldCause = { by: "person" };

function triggerYield(trigger: TriggeredBy): YieldCause {
  return { by: "trigger", jobId: trigger.jobId, triggerId: trigger.triggerId };
}
