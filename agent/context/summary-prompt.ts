// What the model is asked when a conversation is compacted, and how the compacted turns are shown
// to it: as a plain transcript inside tags (so it summarises instead of carrying on the
// conversation), tool results cut short, thinking left out. The summary then goes back into the
// conversation as one message that says what it is.
import type { Message } from "../messages.js";
import { toolCallsOf } from "../messages.js";

export const SUMMARY_SYSTEM_PROMPT = [
  "You write the checkpoint summary of a coding session between a person and a coding agent (pitwall).",
  "Another instance of the agent will continue the work from your summary alone, without the messages it replaces.",
  "Do not continue the conversation, answer questions from it or call tools: write only the summary.",
].join(" ");

const SECTIONS = [
  "## Goal: what the person asked for (their words where they matter) and what they want in the end.",
  "## Constraints and preferences: rules, preferences and corrections the person gave.",
  "## Decisions: what was decided, and why.",
  "## Files: every file read, created or changed, with what changed in each; exact paths.",
  "## Done: what was finished, and how it was checked (commands run, test results).",
  "## Open: what is still to do or unresolved, errors not fixed yet, the very next step.",
  "## Background jobs: which jobs run, what they are for (a dev server and its port, a test watcher) and their state.",
];

/** How much of one message a transcript shows: enough to follow the work, not to replay it. */
const MAX_TEXT_CHARS = 8_000;
const MAX_TOOL_RESULT_CHARS = 1_500;
const MAX_ARGUMENT_CHARS = 400;

export interface SummaryPromptInput {
  /** The transcript of the messages to summarise. */
  transcript: string;
  /** The summary so far, to be merged with the new part. */
  previousSummary?: string;
  /** What the person asked the summary to focus on (/compact <instructions>). */
  instructions?: string;
  /** One line per background job. */
  jobs: string[];
  /** Said when the oldest part of a long session was left out. */
  omitted?: string;
}

export function summaryUserPrompt(input: SummaryPromptInput): string {
  const parts: string[] = [];
  if (input.previousSummary) parts.push(`<previous-summary>\n${input.previousSummary}\n</previous-summary>`);
  if (input.omitted) parts.push(`<omitted>\n${input.omitted}\n</omitted>`);
  parts.push(`<conversation>\n${input.transcript}\n</conversation>`);
  parts.push(`<background-jobs>\n${input.jobs.length ? input.jobs.join("\n") : "(none)"}\n</background-jobs>`);
  const merge = input.previousSummary
    ? "Write one summary that merges the previous summary with the conversation above: keep everything from the previous summary that still holds, move finished items to Done, and add what is new."
    : "Write a summary of the conversation above.";
  parts.push(
    [
      `${merge} It replaces those messages, so whatever it leaves out is lost. Use these headings:`,
      ...SECTIONS,
      "Keep exact file paths, names, commands, error messages and numbers. Be brief: bullet points, no preamble, no closing remarks.",
      ...(input.instructions ? [`The person asked the summary to focus on: ${input.instructions}`] : []),
    ].join("\n"),
  );
  return parts.join("\n\n");
}

/** Images are not sent to the summariser; the transcript says they were there. */
function imagesNote(count: number | undefined): string {
  return count ? ` [${count} image${count === 1 ? "" : "s"} attached]` : "";
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters]`;
}

/** One message as transcript lines; "" for messages a summary does not need (a previous summary). */
export function transcriptOf(message: Message): string {
  if (message.role === "user") {
    const label = { prompt: "Person", steer: "Person (while the agent worked)", follow_up: "Person (follow-up)", notice: "pitwall notice", summary: "", trigger: "A watch trigger on a job's output" }[message.origin ?? "prompt"];
    return label ? `[${label}]: ${cut(message.content, MAX_TEXT_CHARS)}${imagesNote(message.images?.length)}` : "";
  }
  if (message.role === "toolResult") {
    return `[${message.toolName} ${message.isError ? "failed" : "result"}]: ${cut(message.content, MAX_TOOL_RESULT_CHARS)}${imagesNote(message.images?.length)}`;
  }
  const lines: string[] = [];
  const text = message.content.flatMap((c) => (c.type === "text" ? [c.text] : [])).join("");
  if (text.trim()) lines.push(`[Agent]: ${cut(text, MAX_TEXT_CHARS)}`);
  for (const call of toolCallsOf(message)) lines.push(`[Agent calls ${call.name}]: ${cut(call.invalidArguments ?? JSON.stringify(call.arguments), MAX_ARGUMENT_CHARS)}`);
  if (message.stopReason === "error") lines.push(`[Request failed]: ${message.errorMessage ?? "unknown error"}`);
  if (message.stopReason === "aborted") lines.push("[The person stopped this reply]");
  return lines.join("\n");
}

/** The message that stands for the compacted turns in the conversation. */
export function summaryMessageText(summary: string): string {
  return [
    "[pitwall: summary of the earlier conversation]",
    "The conversation was compacted to stay within the context window: this summary replaces the earlier messages. The most recent messages follow it word for word.",
    "",
    "<summary>",
    summary.trim(),
    "</summary>",
  ].join("\n");
}

/** The summary text inside a summary message (for merging into the next one). */
export function summaryFromMessage(text: string): string {
  const m = /<summary>\n([\s\S]*)\n<\/summary>\s*$/.exec(text);
  return m ? m[1]! : text;
}
