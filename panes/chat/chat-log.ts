// The chat's own store of entries, fed by bus events: it follows the streaming assistant message
// part by part (text, thinking, tool calls in the order they stream), replaces it when a retry
// discards it, and reconciles with the final message. Entries get absolute indices that never
// shift (a /clear moves the start), which is what the scroller anchors to.
//
// Memory does not grow with the session: beyond KEEP_ENTRIES (trimmed while the person follows the
// bottom) the oldest whole messages are dropped, with their tool calls, and read back from the
// session file a page at a time when the person scrolls up to them (loadOlder). Notices are not
// in the file: those of dropped messages do not come back.
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message, UserMessage } from "../../agent/messages.js";
import type { BlockSource } from "../screen/block-scroller.js";
import { formatTokens, formatWait } from "../text/format.js";
import type { StyledLine } from "../text/styled-text.js";
import type { ToolCallStore } from "../tool-output/tool-calls.js";
import { isMessage, messageRef, type MessageRef } from "./message-ref.js";
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

/** Entries kept in memory while the person follows the bottom; trimming starts SLACK beyond. */
export const KEEP_ENTRIES = 1_500;
const SLACK = 300;
/** Messages read back per page when the person scrolls up past what is kept. */
export const OLDER_PAGE = 200;

/**
 * Reads back the messages just before the one `isStart` accepts (the oldest the chat holds): the
 * last `max` of them (all when undefined), and whether there are more before those.
 */
export type OlderReader = (isStart: (message: Message) => boolean, max: number | undefined) => Promise<{ messages: Message[]; more: boolean }>;

export class ChatLog implements BlockSource {
  private readonly entries: ChatEntry[] = [];
  private offset = 0;
  /** The first entry of each message, with what names the message in the session file. */
  private readonly starts = new WeakMap<ChatEntry, MessageRef>();
  /** The oldest message held, when the session may have older ones on disk. */
  private olderStart: MessageRef | undefined;
  private loadingOlder = false;
  /** Entries of the assistant message being streamed, by content index. */
  private streaming = new Map<number, ChatEntry>();
  /** Entries added that the person did not write (replies, tool lines, notices), ever: see `news`. */
  private added = 0;
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
    this.olderStart = undefined;
  }

  /** Whether older messages of the session may be read back (loadOlder). */
  get hasOlder(): boolean {
    return this.olderStart !== undefined;
  }

  get size(): number {
    return this.entries.length;
  }

  /**
   * Drops the oldest whole messages beyond `keep` entries (once SLACK more have gathered), and
   * their tool calls (not the one the person picked). Only while the person follows the bottom:
   * what they are reading stays.
   */
  trim(keep = KEEP_ENTRIES): void {
    if (this.entries.length <= keep + SLACK) return;
    let cut = this.entries.length - keep;
    while (cut < this.entries.length && !this.starts.has(this.entries[cut]!)) cut++;
    if (cut >= this.entries.length) return;
    const dropped = this.entries.splice(0, cut);
    this.offset += cut;
    this.olderStart = this.starts.get(this.entries[0]!);
    const calls = dropped.filter((e): e is ToolEntry => e instanceof ToolEntry).map((e) => e.toolCallId);
    this.tools.forget(calls.filter((id) => id !== this.context.selectedToolId));
  }

  /**
   * Reads back the page of messages before the oldest held (all of them with `all`), and puts
   * their entries above it. False when there was nothing to read or the chat changed meanwhile.
   */
  async loadOlder(read: OlderReader, all = false): Promise<boolean> {
    const start = this.olderStart;
    if (!start || this.loadingOlder) return false;
    this.loadingOlder = true;
    try {
      const page = await read((message) => isMessage(start, message), all ? undefined : OLDER_PAGE);
      // A /clear, a branch switch or a trim meanwhile: this page no longer fits above.
      if (this.olderStart !== start) return false;
      const older = new ChatLog(this.tools);
      older.loadMessages(page.messages, { older: true });
      this.entries.unshift(...older.entries);
      this.offset -= older.entries.length;
      for (const entry of older.entries) {
        const ref = older.starts.get(entry);
        if (ref) this.starts.set(entry, ref);
      }
      this.olderStart = page.more ? older.olderStart : undefined;
      return older.entries.length > 0;
    } finally {
      this.loadingOlder = false;
    }
  }

  add<E extends ChatEntry>(entry: E): E {
    this.entries.push(entry);
    if (!(entry instanceof UserEntry)) this.added++;
    return entry;
  }

  /** Grows with every entry the person did not write: a chat tab not shown marks what came since it was. */
  get news(): number {
    return this.added;
  }

  notice(level: NoticeLevel, text: string): NoticeEntry {
    return this.add(new NoticeEntry(level, text));
  }

  /**
   * Shows a finished conversation (a resumed session, another branch; `older`: a page read back
   * from the file, whose calls are not the latest). Its first message may have older ones on disk.
   */
  loadMessages(messages: readonly Message[], options: { older?: boolean } = {}): void {
    this.tools.loadMessages(messages, { latest: !options.older });
    const from = this.entries.length;
    for (const m of messages) {
      if (m.role === "user" && m.origin === "summary") this.add(new SummaryEntry(m.content));
      else if (m.role === "user") this.addUser(m);
      else if (m.role === "assistant") this.addFinishedAssistant(m);
    }
    if (from === 0) this.olderStart = this.entries.map((e) => this.starts.get(e)).find((ref) => ref !== undefined);
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
    const entry = message.origin === "trigger" && message.trigger ? triggerMessageEntry(message.content, message.trigger) : new UserEntry(message.content, message.origin ?? "prompt", message.images);
    this.starts.set(this.add(entry), messageRef(message));
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
    const from = this.entries.length;
    // Streamed parts were added in the order they streamed: the first is where the message starts.
    let first: ChatEntry | undefined = this.streaming.values().next().value;
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
    first ??= this.entries[from];
    if (first) this.starts.set(first, messageRef(message));
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
