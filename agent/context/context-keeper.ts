// Keeps a conversation inside its model's context window, for the Agent and its loop: measures the
// next request, compacts before it would pass the threshold, compacts when the provider rejects a
// request as too long, and compacts on demand. Every compaction is announced on the bus
// (compaction_start / compaction_end) so front ends, the session file and library users see it.
import type { CompactionReason, PitwallEvent } from "../events.js";
import type { Message } from "../messages.js";
import type { ModelInfo } from "../models.js";
import type { Provider } from "../providers/provider.js";
import { contextBudget, type ContextBudget, type ContextSettings } from "./context-budget.js";
import { measureContext, type ContextMeasure, type ToolDefinition } from "./context-usage.js";
import { planCompaction, runCompaction, type CompactionOutcome, type OlderHistory } from "./compaction.js";
import { requestSummary } from "./summary-request.js";
import { estimateMessagesTokens } from "./token-estimate.js";

/** What a compaction needs to know about the request it prepares. */
export interface RequestShape {
  systemPrompt: string;
  model: ModelInfo;
  tools: readonly ToolDefinition[];
  getProvider: (model: ModelInfo) => Promise<Provider>;
}

export interface ContextUsage extends ContextMeasure, ContextBudget {
  /** tokens / window, 0–100 (may pass 100 before an overflow). */
  percent: number;
}

/** What happened before a request, or after an overflow. */
export interface ContextStep {
  compacted: boolean;
  /** Set when the request cannot be sent: the message says why and what to do. */
  failure?: string;
}

export interface ManualCompaction {
  compacted: boolean;
  /** Why there was nothing to compact (no events were sent then). */
  note?: string;
  /** What failed (compaction_end said so too); the conversation is unchanged. */
  error?: string;
}

export interface ContextKeeperOptions {
  settings?: ContextSettings;
  emit(event: PitwallEvent): void;
  /** One line per background job, for the summary. */
  jobs?: () => string[] | Promise<string[]>;
  /** A resumed session's older messages that were left on disk. */
  older?: OlderHistory;
}

/** A summary is at most this long, and at most the reply reserve. */
const SUMMARY_MAX_TOKENS = 8_192;
/** Room for the summary prompt's own text in each summary request. */
const SUMMARY_PROMPT_TOKENS = 2_000;

export class ContextKeeper {
  private readonly settings: ContextSettings;
  private older: OlderHistory | undefined;

  constructor(private readonly options: ContextKeeperOptions) {
    this.settings = options.settings ?? {};
    this.older = options.older;
  }

  budget(model: ModelInfo): ContextBudget {
    return contextBudget(model, this.settings);
  }

  usage(shape: Pick<RequestShape, "systemPrompt" | "model" | "tools">, messages: readonly Message[]): ContextUsage {
    const budget = this.budget(shape.model);
    // While a resumed session's older part waits, the last reply's count includes it: estimate instead.
    const measure = measureContext({ systemPrompt: shape.systemPrompt, tools: shape.tools, messages }, this.older === undefined);
    return { ...budget, ...measure, percent: (measure.tokens / budget.window) * 100 };
  }

  /** Another conversation's older part (or none) replaces the one waiting. */
  resetOlder(older: OlderHistory | undefined): void {
    this.older = older;
  }

  /** Messages of a resumed session still waiting on disk to be summarised. */
  get olderPending(): number {
    return this.older?.count ?? 0;
  }

  /** Before a model request: compacts when it would pass the threshold, or when a resumed session's older part waits. */
  async beforeRequest(messages: Message[], shape: RequestShape, signal: AbortSignal): Promise<ContextStep> {
    const usage = this.usage(shape, messages);
    const reason: CompactionReason | undefined = this.older ? "resume" : usage.tokens > usage.triggerAt ? "threshold" : undefined;
    if (!reason) return { compacted: false };
    // In a small window the fixed part (system prompt, tools, summary) can keep a request above the
    // threshold: summarising a sliver before every request would cost more than it saves, so that
    // waits until there is more to summarise or the request would no longer fit.
    if (reason === "threshold" && usage.tokens <= usage.window - usage.reserve && summarisable(messages, usage.keepRecent) < usage.triggerAt / 8) return { compacted: false };
    const result = await this.compact(messages, shape, signal, reason);
    if (result.outcome || signal.aborted) return { compacted: result.outcome !== undefined };
    const now = this.usage(shape, messages);
    // Without a compaction the request still goes out while it fits; past the window it would only fail.
    if (now.tokens <= now.window - now.reserve) return { compacted: false };
    const why = result.error ? `compacting it failed (${result.error})` : "there is nothing older left to compact";
    return { compacted: false, failure: `The conversation no longer fits the context window of ${shape.model.id} (${tokens(now.tokens)} of ${tokens(now.window)} tokens) and ${why}. Try /compact again, or /new to start afresh.` };
  }

  /** The provider said the request was too long: compact so it can be tried once more. */
  async afterOverflow(messages: Message[], shape: RequestShape, signal: AbortSignal): Promise<ContextStep> {
    const result = await this.compact(messages, shape, signal, "overflow");
    if (result.outcome) return { compacted: true };
    const why = result.error ? `Compacting failed (${result.error})` : "There is nothing older to compact: the newest messages alone are too long";
    return { compacted: false, failure: `${why}. Shorten the message, lower --context-window, or /new to start afresh.` };
  }

  /** /compact: compacts now, whatever the size, with optional focus instructions for the summary. */
  async compactNow(messages: Message[], shape: RequestShape, signal: AbortSignal, instructions?: string): Promise<ManualCompaction> {
    const result = await this.compact(messages, shape, signal, "manual", instructions);
    if (result.outcome) return { compacted: true };
    if (result.error) return { compacted: false, error: result.error };
    const keep = this.budget(shape.model).keepRecent;
    return { compacted: false, note: `Nothing to compact yet: the conversation is within the ${tokens(keep)} most recent tokens, which are always kept word for word.` };
  }

  private async compact(
    messages: Message[],
    shape: RequestShape,
    signal: AbortSignal,
    reason: CompactionReason,
    instructions?: string,
  ): Promise<{ outcome?: CompactionOutcome; error?: string }> {
    const budget = this.budget(shape.model);
    const plan = planCompaction(messages, budget.keepRecent, this.older);
    if (!plan) return {};
    const tokensBefore = this.usage(shape, messages).tokens;
    const emit = this.options.emit;
    emit({ type: "compaction_start", reason, tokensBefore, ...(instructions ? { instructions } : {}) });
    const maxOutputTokens = Math.min(budget.reserve, SUMMARY_MAX_TOKENS);
    try {
      const provider = await shape.getProvider(shape.model);
      const outcome = await runCompaction(messages, plan, {
        // Each request carries a chunk, the summary so far and the prompt, and leaves room for the new summary.
        chunkTokens: Math.max(2_000, budget.window - budget.reserve - 2 * maxOutputTokens - SUMMARY_PROMPT_TOKENS),
        instructions,
        jobs: (await this.options.jobs?.()) ?? [],
        summarize: (prompt) => requestSummary({ provider, model: shape.model, maxOutputTokens }, prompt, signal),
      });
      this.older = undefined;
      const tokensAfter = this.usage(shape, messages).tokens;
      emit({ type: "compaction_end", reason, tokensBefore, tokensAfter, summary: outcome.summary, messagesSummarized: outcome.summarized, messagesKept: outcome.kept });
      return { outcome };
    } catch (error) {
      const message = signal.aborted ? "aborted" : error instanceof Error ? error.message : String(error);
      emit({ type: "compaction_end", reason, tokensBefore, tokensAfter: tokensBefore, messagesSummarized: 0, messagesKept: messages.length, error: message });
      return { error: message };
    }
  }
}

/** Tokens a compaction now would summarise from memory. */
function summarisable(messages: readonly Message[], keepRecent: number): number {
  const plan = planCompaction(messages, keepRecent);
  return plan ? estimateMessagesTokens(messages.slice(plan.start, plan.cut)) : 0;
}

function tokens(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k` : String(n);
}
