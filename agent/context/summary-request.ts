// Asks the conversation's own model for a summary: one request with the summary prompt, no tools,
// no thinking, a bounded reply. A failure (an HTTP error, an empty answer) throws, so the caller
// can decide whether the turn goes on without compacting.
import { linkAbort } from "../abort-link.js";
import { textOf } from "../messages.js";
import type { ModelInfo } from "../models.js";
import type { Provider } from "../providers/provider.js";
import { SUMMARY_SYSTEM_PROMPT } from "./summary-prompt.js";

export interface SummaryTarget {
  provider: Provider;
  model: ModelInfo;
  /** The reply's limit: a summary longer than this is cut (and still used). */
  maxOutputTokens: number;
}

export class SummaryFailedError extends Error {}

export async function requestSummary(target: SummaryTarget, userPrompt: string, signal: AbortSignal): Promise<string> {
  const link = linkAbort(signal);
  try {
    const stream = target.provider.stream(
      {
        model: target.model,
        systemPrompt: SUMMARY_SYSTEM_PROMPT,
        messages: [{ role: "user", content: userPrompt, timestamp: Date.now() }],
        tools: [],
        thinkingLevel: "off",
        maxOutputTokens: target.maxOutputTokens,
      },
      link.signal,
    );
    const message = await stream.result();
    if (message.stopReason === "aborted") throw new SummaryFailedError("the summary request was aborted");
    const text = textOf(message).trim();
    if (!text) throw new SummaryFailedError("the model answered the summary request with no text");
    return text;
  } catch (error) {
    if (error instanceof SummaryFailedError) throw error;
    throw new SummaryFailedError(error instanceof Error ? error.message : String(error));
  } finally {
    link.release();
  }
}
