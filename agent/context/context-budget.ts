// How much of the model's context window a conversation may use: the window itself (from the model
// table, a setting, or a safe default), the room kept free for the reply, the point at which the
// conversation is compacted, and how many recent tokens a compaction keeps word for word.
import type { ModelInfo } from "../models.js";

/**
 * For a model whose window nobody told us: 128k tokens is what current local and hosted models
 * offer at the least (Llama 3.1, Qwen 2.5, GPT-4o, DeepSeek), so compaction starts early enough
 * for them; a model with a larger window only compacts sooner than it had to.
 */
export const DEFAULT_CONTEXT_WINDOW = 128_000;
/** Percent of the window at which a conversation is compacted before the next request. */
export const DEFAULT_COMPACT_AT_PERCENT = 80;
export const MIN_COMPACT_AT_PERCENT = 10;
export const MAX_COMPACT_AT_PERCENT = 95;
/** Smallest window pitwall accepts: below it the system prompt and tools leave no room to work. */
export const MIN_CONTEXT_WINDOW = 8_000;

/** The reply's room: the model's own output limit when it is smaller. */
const REPLY_RESERVE_CAP = 32_000;
const DEFAULT_REPLY_RESERVE = 16_384;
/** A compaction keeps at most this many recent tokens verbatim (and at most 30 % of the trigger). */
const KEEP_RECENT_CAP = 20_000;

export interface ContextSettings {
  /** Caps the window (and sets it for a model the table does not know). */
  contextWindow?: number;
  /** Percent of the window that triggers automatic compaction. */
  compactAtPercent?: number;
}

export interface ContextBudget {
  window: number;
  /** Where the window came from: the model table, the person's setting, or the default. */
  windowSource: "model" | "setting" | "default";
  /** Tokens left free for the reply. */
  reserve: number;
  /** A request whose context would pass this many tokens is preceded by a compaction. */
  triggerAt: number;
  compactAtPercent: number;
  /** Recent tokens a compaction keeps word for word. */
  keepRecent: number;
}

export function contextBudget(model: ModelInfo, settings: ContextSettings = {}): ContextBudget {
  const table = model.contextWindow;
  const setting = settings.contextWindow;
  let window: number;
  let windowSource: ContextBudget["windowSource"];
  if (table !== undefined && (setting === undefined || setting >= table)) {
    window = table;
    windowSource = "model";
  } else if (setting !== undefined) {
    window = setting;
    windowSource = "setting";
  } else {
    window = DEFAULT_CONTEXT_WINDOW;
    windowSource = "default";
  }
  const compactAtPercent = settings.compactAtPercent ?? DEFAULT_COMPACT_AT_PERCENT;
  const reserve = Math.min(model.maxOutputTokens ?? DEFAULT_REPLY_RESERVE, REPLY_RESERVE_CAP, Math.floor(window / 4));
  const triggerAt = Math.floor(Math.min((window * compactAtPercent) / 100, window - reserve));
  const keepRecent = Math.min(KEEP_RECENT_CAP, Math.floor(triggerAt * 0.3));
  return { window, windowSource, reserve, triggerAt, compactAtPercent, keepRecent };
}
