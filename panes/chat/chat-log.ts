// The chat's own store of entries, fed by bus events: it follows the streaming assistant message
// part by part (text, thinking, tool calls in the order they stream), replaces it when a retry
// discards it, and reconciles with the final message. Entries get absolute indices that never
// shift (a /clear moves the start), which is what the scroller anchors to.
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message, UserMessage } from "../../agent/messages.js";
import type { BlockSource } from "../screen/block-scroller.js";
import { formatTokens, formatWait } from "../text/format.js";
import type { StyledLine } from "../text/styled-text.js";
import type { ToolCallStore } from "../tool-output/tool-calls.js";
import { firingLines, patternLabel } from "../../tools/jobs/index.js";
import {
  ChatEntry,
  NoticeEntry,
  SummaryEntry,
  TextEntry,
  ThinkingEntry,
  ToolEntry,
  TriggerEntry,
  triggerMessageEntry,
  triggerOwner,
  UserEntry,
  type NoticeLevel,
  type RenderContext,
} from "./chat-entries.js";

const COMPACTING: Record<Extract<PitwallEvent, { type: "compaction_start" }>["reason"], string> = {
  threshold: "The conversation is nearing the context window: compacting it (the model summarises the older turns)…",
  manual: "Compacting the conversation (the model summarises the older turns)…",
  overflow: "The model rejected the request as too long for its context window: compacting, then trying again…",
  resume: "Summarising the older part of the resumed session, which did not fit in the context window…",
};

export class ChatLog implements BlockSource {
  private readonly entries: ChatEntry[] = [];
  private offset = 0;
  /** Entries of the assistant message being streamed, by content index. */
  private streaming = new Map<number, ChatEntry>();
  /** Filled by the pane before each view. */
  context: RenderContext;

  constructor(private readonly tools: ToolCallStore) {
    this.context = { width: 80, thinkingExpanded: false, selectedToolId: undefined, spinner: "", now: Date.now(), tools };
  }

  first(): number {
    return this.offset;
  }

  end(): number {
    return this.offset + this.entries.length;
  }

  rows(index: number, width: number): readonly StyledLine[] {
    const entry = this.entries[index - this.offset];
    if (!entry) return [];
    return entry.rows(this.context.width === width ? this.context : { ...this.context, width });
  }

  /** Absolute index of the line of a tool call. */
  indexOfTool(id: string): number | undefined {
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i];
      if (e instanceof ToolEntry && e.toolCallId === id) return i + this.offset;
    }
    return undefined;
  }

  /** Tool call ids in chat order. */
  toolIds(): string[] {
    return this.entries.filter((e): e is ToolEntry => e instanceof ToolEntry).map((e) => e.toolCallId);
  }

  clear(): void {
    this.offset += this.entries.length;
    this.entries.length = 0;
    this.streaming.clear();
  }

  add<E extends ChatEntry>(entry: E): E {
    this.entries.push(entry);
    return entry;
  }

  notice(level: NoticeLevel, text: string): NoticeEntry {
    return this.add(new NoticeEntry(level, text));
  }

  /** Shows a finished conversation (a resumed session). */
  loadMessages(messages: readonly Message[]): void {
    this.tools.loadMessages(messages);
    for (const m of messages) {
      if (m.role === "user" && m.origin === "summary") this.add(new SummaryEntry(m.content));
      else if (m.role === "user") this.addUser(m);
      else if (m.role === "assistant") this.addFinishedAssistant(m);
    }
  }

  /** Applies an event; returns true when something visible changed. */
  handle(event: PitwallEvent): boolean {
    switch (event.type) {
      case "message_start":
        if (event.message.role === "user") {
          this.addUser(event.message);
          return true;
        }
        if (event.message.role === "assistant") {
          this.streaming = new Map();
        }
        return false;
      case "message_update":
        return this.applyDelta(event.delta);
      case "message_end":
        if (event.message.role === "assistant") {
          this.finishAssistant(event.message);
          return true;
        }
        return false;
      case "retry":
        this.discardStreaming();
        this.notice("warning", `Retrying in ${formatWait(event.delayMs)}, attempt ${event.attempt}/${event.maxAttempts}: ${event.reason}`);
        return true;
      case "compaction_start":
        this.notice("info", COMPACTING[event.reason]);
        return true;
      case "compaction_end":
        if (event.error) this.notice("warning", `Compacting failed: ${event.error}.`);
        else {
          const kept = `${event.messagesSummarized} earlier message${event.messagesSummarized === 1 ? "" : "s"} summarised, ${event.messagesKept} kept`;
          this.notice("info", `compacted ${formatTokens(event.tokensBefore)} → ${formatTokens(event.tokensAfter)} tokens (${kept})`);
        }
        return true;
      case "tool_execution_start":
        if (this.indexOfTool(event.toolCallId) === undefined) this.add(new ToolEntry(event.toolCallId));
        return true;
      case "job_triggered": {
        // Steer, follow-up and wake show when their message reaches the agent; notify shows now.
        if (event.trigger.action !== "notify") return false;
        const who = triggerOwner(event.trigger.setBy);
        const omitted = event.omitted ? [`  [${event.omitted.count} more matching lines: ${event.omitted.fromLine}–${event.omitted.toLine}]`] : [];
        this.add(new TriggerEntry(`job ${event.jobId} printed · trigger ${event.trigger.id} ${patternLabel(event.trigger)} (${who}; the agent hears it with its next request)`, [...firingLines(event.lines), ...omitted]));
        return true;
      }
      case "tool_execution_update":
      case "tool_execution_end":
        return this.indexOfTool(event.toolCallId) !== undefined;
      default:
        return false;
    }
  }

  private addUser(message: UserMessage): void {
    if (message.origin === "trigger" && message.trigger) this.add(triggerMessageEntry(message.content, message.trigger));
    else this.add(new UserEntry(message.content, message.origin ?? "prompt", message.images));
  }

  private applyDelta(delta: Extract<PitwallEvent, { type: "message_update" }>["delta"]): boolean {
    const existing = this.streaming.get(delta.contentIndex);
    switch (delta.kind) {
      case "text_delta": {
        const entry = existing instanceof TextEntry ? existing : this.startPart(delta.contentIndex, new TextEntry());
        entry.append(delta.delta);
        return true;
      }
      case "thinking_delta": {
        const entry = existing instanceof ThinkingEntry ? existing : this.startPart(delta.contentIndex, new ThinkingEntry());
        entry.append(delta.delta);
        return true;
      }
      case "toolcall_start": {
        this.tools.ensure(delta.id, delta.name);
        if (!existing) this.startPart(delta.contentIndex, new ToolEntry(delta.id));
        return true;
      }
      case "toolcall_delta":
        return false;
      case "toolcall_end":
        this.tools.ensure(delta.toolCall.id, delta.toolCall.name, delta.toolCall.arguments);
        if (!existing) this.startPart(delta.contentIndex, new ToolEntry(delta.toolCall.id));
        return true;
    }
  }

  private startPart<E extends ChatEntry>(index: number, entry: E): E {
    this.streaming.set(index, entry);
    return this.add(entry);
  }

  /** A retry throws away the partial reply: its entries go too. */
  private discardStreaming(): void {
    if (this.streaming.size === 0) return;
    const doomed = new Set(this.streaming.values());
    for (let i = this.entries.length - 1; i >= 0; i--) if (doomed.has(this.entries[i]!)) this.entries.splice(i, 1);
    this.streaming.clear();
  }

  private finishAssistant(message: AssistantMessage): void {
    message.content.forEach((part, i) => {
      const entry = this.streaming.get(i);
      if (part.type === "text") {
        if (entry instanceof TextEntry) entry.setText(part.text);
        else if (part.text.trim()) this.add(new TextEntry(part.text));
      } else if (part.type === "thinking") {
        if (entry instanceof ThinkingEntry) {
          entry.text = part.thinking;
          entry.changed();
        } else if (part.thinking.trim()) this.add(new ThinkingEntry(part.thinking));
      } else if (part.type === "toolCall") {
        this.tools.ensure(part.id, part.name, part.arguments);
        if (!entry) this.add(new ToolEntry(part.id));
      }
    });
    this.streaming.clear();
    if (message.stopReason === "aborted") this.notice("warning", arrived(message) ? "Aborted: the reply above is what arrived before Esc." : "Aborted before any reply arrived.");
    else if (message.stopReason === "error") this.notice("error", message.errorMessage ?? "The model request failed.");
    else if (message.stopReason === "length") this.notice("warning", "The reply hit the model's output limit and was cut off.");
  }

  private addFinishedAssistant(message: AssistantMessage): void {
    this.streaming = new Map();
    this.finishAssistant(message);
  }
}

/** Whether any of a reply had arrived: text, thinking or a tool call. */
function arrived(message: AssistantMessage): boolean {
  return message.content.some((part) => (part.type === "text" ? part.text.trim() !== "" : part.type === "thinking" ? part.thinking.trim() !== "" : true));
}
