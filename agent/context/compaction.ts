// One compaction: the older part of the conversation becomes a summary written by the model, the
// newest turns stay word for word, and the conversation array is changed in place to
// [summary, ...kept]. A part too long for one summary request is summarised chunk by chunk, each
// chunk within the window, the summary so far carried into the next.
import type { Message, UserMessage } from "../messages.js";
import { findCutPoint } from "./cut-point.js";
import { summaryFromMessage, summaryMessageText, summaryUserPrompt, transcriptOf } from "./summary-prompt.js";
import { CHARS_PER_TOKEN } from "./token-estimate.js";

/** Messages of the conversation that are not in memory (a resumed session's older part). */
export interface OlderHistory {
  /** How many messages it holds. */
  count: number;
  /** The messages, oldest first, read again from where they are kept. */
  messages(): AsyncIterable<Message>;
  /** Said to the summariser when the oldest part was left out (too long to summarise at bounded cost). */
  omitted?: string;
}

export interface CompactionPlan {
  /** Index of the first message kept word for word. */
  cut: number;
  /** Messages summarised from memory: messages[start, cut). */
  start: number;
  previousSummary?: string;
  older?: OlderHistory;
}

export interface CompactionInput {
  /** The most transcript one summary request may carry. */
  chunkTokens: number;
  instructions?: string;
  /** One line per background job, for the summary. */
  jobs: string[];
  summarize(userPrompt: string): Promise<string>;
}

export interface CompactionOutcome {
  summary: string;
  /** Messages replaced by the summary (the older history's included). */
  summarized: number;
  /** Messages kept word for word after it. */
  kept: number;
}

export function isSummaryMessage(message: Message | undefined): message is UserMessage {
  return message?.role === "user" && message.origin === "summary";
}

/** What a compaction would do now, keeping about `keepRecent` tokens; undefined when there is nothing to summarise. */
export function planCompaction(messages: readonly Message[], keepRecent: number, older?: OlderHistory): CompactionPlan | undefined {
  const previousSummary = isSummaryMessage(messages[0]) ? summaryFromMessage(messages[0].content) : undefined;
  const start = previousSummary !== undefined ? 1 : 0;
  const cut = findCutPoint(messages, start, keepRecent);
  if (cut === start && !older) return undefined;
  return { cut, start, previousSummary, older };
}

/** Summarises what the plan says and changes `messages` in place to [summary, ...kept]; throws when a summary request fails. */
export async function runCompaction(messages: Message[], plan: CompactionPlan, input: CompactionInput): Promise<CompactionOutcome> {
  const recent = messages.slice(plan.start, plan.cut);
  let summary = plan.previousSummary;
  let omitted = plan.older?.omitted;
  for await (const transcript of transcriptChunks(plan.older, recent, input.chunkTokens * CHARS_PER_TOKEN)) {
    summary = await input.summarize(
      summaryUserPrompt({ transcript, previousSummary: summary, instructions: input.instructions, jobs: input.jobs, omitted }),
    );
    omitted = undefined;
  }
  // Only an older history with nothing readable in it gets here without a summary.
  summary ??= "(The earlier conversation held nothing to summarise.)";
  const message: UserMessage = { role: "user", content: summaryMessageText(summary), origin: "summary", timestamp: Date.now() };
  messages.splice(0, plan.cut, message);
  return { summary, summarized: (plan.older?.count ?? 0) + recent.length, kept: messages.length - 1 };
}

/** The transcript of the older history and then of `recent`, in pieces of at most `maxChars`. */
async function* transcriptChunks(older: OlderHistory | undefined, recent: readonly Message[], maxChars: number): AsyncGenerator<string> {
  let chunk = "";
  const add = (message: Message): string | undefined => {
    let text = transcriptOf(message);
    if (!text) return undefined;
    if (text.length > maxChars) text = `${text.slice(0, maxChars - 40)}… [cut to fit the summary request]`;
    let full: string | undefined;
    if (chunk && chunk.length + text.length + 2 > maxChars) {
      full = chunk;
      chunk = "";
    }
    chunk = chunk ? `${chunk}\n\n${text}` : text;
    return full;
  };
  if (older) {
    for await (const message of older.messages()) {
      const full = add(message);
      if (full) yield full;
    }
  }
  for (const message of recent) {
    const full = add(message);
    if (full) yield full;
  }
  if (chunk) yield chunk;
}
