// The kinds of line group the chat shows, each rendering itself to rows at a width and caching
// them until it changes: a person's message, a block of assistant text (markdown, streaming),
// the model's thinking (dimmed, collapsible), one line per tool call, and notices from pitwall.
import type { ImageContent, TriggeredBy, UserOrigin } from "../../agent/messages.js";
import { describeToolCall } from "../../tools/tool-call-summary.js";
import { firingsForPerson, foldFirings, patternLabel } from "../../tools/jobs/index.js";
import { formatDuration } from "../text/format.js";
import { MarkdownStream } from "../markdown/markdown-stream.js";
import { renderGeneration } from "../markdown/render-generation.js";
import { attr, Color, type Span, type StyledLine } from "../text/styled-text.js";
import { selectedRow } from "../text/selection.js";
import { sanitizeText } from "../text/terminal-text.js";
import { textWidth, truncateText } from "../text/text-width.js";
import { jobState, type ToolCallStore } from "../tool-output/tool-calls.js";
import { wrapLine } from "../text/wrap.js";

export interface RenderContext {
  width: number;
  thinkingExpanded: boolean;
  selectedToolId: string | undefined;
  spinner: string;
  now: number;
  tools: ToolCallStore;
}

const STYLE = {
  you: attr({ fg: Color.cyan, bold: true }),
  personText: attr({ bold: true }),
  steer: attr({ fg: Color.yellow, bold: true }),
  image: attr({ fg: Color.magenta }),
  notice: attr({ fg: Color.grey }),
  thinking: attr({ fg: Color.grey, italic: true }),
  thinkingHead: attr({ fg: Color.grey }),
  toolMarker: attr({ fg: Color.grey }),
  toolName: attr({ bold: true }),
  toolArg: attr(),
  ok: attr({ fg: Color.green }),
  fail: attr({ fg: Color.red }),
  // Bright: an exit code in the plain red of most dark themes is dim on black.
  exitFailed: attr({ fg: Color.brightRed }),
  running: attr({ fg: Color.yellow }),
  info: attr({ fg: Color.grey }),
  warning: attr({ fg: Color.yellow }),
  error: attr({ fg: Color.red }),
  trigger: attr({ fg: Color.magenta, bold: true }),
  triggerMatch: attr({ bold: true }),
  triggerContext: attr({ fg: Color.grey }),
} as const;

export abstract class ChatEntry {
  /** A blank row above this entry. */
  gapBefore = true;
  protected version = 0;
  private cacheKey = "";
  private cached: StyledLine[] = [];

  rows(ctx: RenderContext): StyledLine[] {
    const key = `${ctx.width}|${this.version}|${this.contextKey(ctx)}`;
    if (key !== this.cacheKey) {
      const body = this.render(ctx);
      this.cached = this.gapBefore ? [[], ...body] : body;
      this.cacheKey = key;
    }
    return this.cached;
  }

  changed(): void {
    this.version++;
  }

  /** Whatever besides width and version the rows depend on. */
  protected contextKey(_ctx: RenderContext): string {
    return "";
  }

  protected abstract render(ctx: RenderContext): StyledLine[];
}

/**
 * A message the model reads in the "user" role (the providers' word): the person's prompt, steer or
 * follow-up, or a notice pitwall sent the agent in that role. Trigger messages and compaction
 * summaries have entries of their own.
 */
export class UserEntry extends ChatEntry {
  constructor(
    readonly text: string,
    readonly origin: UserOrigin,
    readonly images: readonly ImageContent[] = [],
  ) {
    super();
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const text = sanitizeText(this.text);
    if (this.origin === "notice") {
      // A notify trigger's lines showed when it fired; the notice that told the model names them only.
      const body = foldFirings(text.replace(/^\[pitwall notice\]\n?/, ""));
      return body.split("\n").flatMap((l, i) => wrapLine([{ text: i === 0 ? `· ${l}` : `  ${l}`, attr: STYLE.notice }], ctx.width, { indent: 2 }));
    }
    const label = this.origin === "steer" ? "› steer: " : this.origin === "follow_up" ? "› follow-up: " : "› ";
    const labelAttr = this.origin === "prompt" ? STYLE.you : STYLE.steer;
    const lines = text.split("\n");
    const rows: StyledLine[] = [];
    lines.forEach((l, i) => {
      const head: Span = i === 0 ? { text: label, attr: labelAttr } : { text: "  ", attr: STYLE.personText };
      rows.push(...wrapLine([head, { text: l, attr: STYLE.personText }], ctx.width, { indent: 2 }));
    });
    for (const image of this.images) rows.push(...wrapLine([{ text: `  ${imageLine(image)}`, attr: STYLE.image }], ctx.width, { indent: 4 }));
    return rows;
  }
}

/** "image: shot.png 1280×800", and the size sent when it was scaled down. */
export function imageLine(image: ImageContent): string {
  const name = sanitizeText(image.name ?? "image");
  const sent = image.width && image.height ? `${image.width}×${image.height}` : "";
  if (!image.original) return `image: ${name}${sent ? ` ${sent}` : ""}`;
  return `image: ${name} ${image.original.width}×${image.original.height} (sent at ${sent})`;
}

export class TextEntry extends ChatEntry {
  readonly markdown: MarkdownStream;

  /** A finished message's text, or none for one about to stream. */
  constructor(text = "") {
    super();
    this.markdown = new MarkdownStream(text, text !== "");
  }

  append(delta: string): void {
    this.markdown.append(delta);
    this.changed();
  }

  /** The message's final text: all of it shows, nothing held back. */
  setText(text: string): void {
    this.markdown.setText(text);
    this.markdown.finish();
    this.changed();
  }

  protected override contextKey(): string {
    return String(renderGeneration());
  }

  protected render(ctx: RenderContext): StyledLine[] {
    return this.markdown.rows(ctx.width);
  }
}

export class ThinkingEntry extends ChatEntry {
  constructor(public text = "") {
    super();
  }

  append(delta: string): void {
    this.text += delta;
    this.changed();
  }

  protected override contextKey(ctx: RenderContext): string {
    return ctx.thinkingExpanded ? "open" : "closed";
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const text = sanitizeText(this.text).trim();
    if (!ctx.thinkingExpanded) {
      const first = text.split("\n").find((l) => l.trim()) ?? "";
      const head = "∴ thinking: ";
      const room = ctx.width - textWidth(head);
      return [[{ text: head, attr: STYLE.thinkingHead }, { text: truncateText(first, Math.max(0, room)), attr: STYLE.thinking }]];
    }
    const rows: StyledLine[] = [[{ text: "∴ thinking", attr: STYLE.thinkingHead }]];
    for (const l of text.split("\n")) rows.push(...wrapLine([{ text: `  ${l}`, attr: STYLE.thinking }], ctx.width, { indent: 2 }));
    return rows;
  }
}

export class ToolEntry extends ChatEntry {
  constructor(readonly toolCallId: string) {
    super();
    this.gapBefore = false;
  }

  protected override contextKey(ctx: RenderContext): string {
    const record = ctx.tools.get(this.toolCallId);
    const selected = ctx.selectedToolId === this.toolCallId ? "sel" : "";
    if (record?.status === "running") return `${record.version}|${selected}|${ctx.spinner}|${Math.floor((ctx.now - (record.startedAt ?? ctx.now)) / 100)}`;
    return `${record?.version ?? -1}|${selected}`;
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const record = ctx.tools.get(this.toolCallId);
    if (!record) return [];
    let status: Span;
    switch (record.status) {
      case "running":
        status = { text: `${ctx.spinner} ${formatDuration(ctx.now - (record.startedAt ?? ctx.now))}`, attr: STYLE.running };
        break;
      // A call loaded from a session has no timing: the mark alone, not a made-up 0.0s.
      case "done": {
        // A call whose command runs on as a job says how the job is, not a finished "✓".
        const job = jobState(record);
        status = job ? { text: job.text, attr: JOB_TONE[job.tone] } : { text: withDuration("✓", record.durationMs), attr: STYLE.ok };
        break;
      }
      case "error":
        status = { text: withDuration("✗", record.durationMs), attr: STYLE.fail };
        break;
      default:
        status = { text: "…", attr: STYLE.toolMarker };
    }
    const selected = ctx.selectedToolId === this.toolCallId;
    // Glyphs every monospace font has (xterm's fixed included): U+23F5 "⏵" was an empty box.
    const marker = selected ? "▶ " : "▸ ";
    const summary = describeToolCall(record.name, record.args, 400);
    const arg = sanitizeText(summary.slice(record.name.length)).replace(/\n/g, " ");
    const statusWidth = textWidth(status.text);
    const room = Math.max(0, ctx.width - 2 - statusWidth - 1);
    const name = truncateText(record.name, room);
    const argText = truncateText(arg, Math.max(0, room - textWidth(name)));
    const used = 2 + textWidth(name) + textWidth(argText);
    const gap = Math.max(1, ctx.width - used - statusWidth);
    const row: StyledLine = [
      { text: marker, attr: selected ? attr({ fg: Color.cyan, bold: true }) : STYLE.toolMarker },
      { text: name, attr: STYLE.toolName },
      { text: argText, attr: STYLE.toolArg },
      { text: " ".repeat(gap), attr: STYLE.toolArg },
      status,
    ];
    return [selected ? selectedRow(row, ctx.width) : row];
  }
}

/** A resumed session's summary of its compacted turns: one line saying so, and the summary's first point. */
export class SummaryEntry extends ChatEntry {
  constructor(readonly text: string) {
    super();
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const inside = /<summary>\n([\s\S]*)\n<\/summary>/.exec(this.text)?.[1] ?? this.text;
    const first = sanitizeText(inside).split("\n").filter((l) => !/^\s*#/.test(l)).map((l) => l.replace(/^[\s*-]+/, "").trim()).find((l) => l) ?? "";
    const head = "≡ earlier turns were compacted; the model continues from their summary: ";
    return wrapLine([{ text: head, attr: STYLE.thinkingHead }, { text: first, attr: STYLE.thinking }], ctx.width, { indent: 2 });
  }
}

/**
 * A watch trigger's firing: a headline saying which job and trigger and what it did (woke the agent,
 * steered it, notified it), then the numbered lines it matched, matching lines bright, context dim.
 */
export class TriggerEntry extends ChatEntry {
  constructor(
    readonly headline: string,
    readonly lines: readonly string[],
  ) {
    super();
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const rows = wrapLine([{ text: `⚑ ${sanitizeText(this.headline)}`, attr: STYLE.trigger }], ctx.width, { indent: 2 });
    for (const line of this.lines) {
      const a = line.startsWith(">") ? STYLE.triggerMatch : STYLE.triggerContext;
      rows.push(...wrapLine([{ text: `  ${sanitizeText(line)}`, attr: a }], ctx.width, { indent: 4 }));
    }
    return rows;
  }
}

const DELIVERED: Record<TriggeredBy["action"], string> = { wake: "woke the agent", steer: "steered the agent", "follow-up": "sent the agent a follow-up" };

/** The chat's entry for a message a watch trigger sent: its first line is the model's headline, the rest the lines (and the headlines of firings merged into it, for the person). */
export function triggerMessageEntry(content: string, trigger: TriggeredBy): TriggerEntry {
  const headline = `job ${trigger.jobId} ${DELIVERED[trigger.action]} · trigger ${trigger.triggerId} ${patternLabel(trigger)} (${triggerOwner(trigger.setBy)})`;
  return new TriggerEntry(headline, firingsForPerson(content).split("\n").slice(1));
}

/** Whose trigger it is, as the person reads it. */
export function triggerOwner(setBy: TriggeredBy["setBy"]): string {
  return setBy === "person" ? "yours" : "the agent's";
}

export type NoticeLevel = "info" | "warning" | "error";

export class NoticeEntry extends ChatEntry {
  constructor(
    readonly level: NoticeLevel,
    readonly text: string,
  ) {
    super();
  }

  protected render(ctx: RenderContext): StyledLine[] {
    const icon = this.level === "error" ? "✗ " : this.level === "warning" ? "! " : "· ";
    const a = this.level === "error" ? STYLE.error : this.level === "warning" ? STYLE.warning : STYLE.info;
    return sanitizeText(this.text)
      .split("\n")
      .flatMap((l, i) => wrapLine([{ text: (i === 0 ? icon : "  ") + l, attr: a }], ctx.width, { indent: 2 }));
  }
}

/** The chat's colours for a job's state. */
const JOB_TONE = { up: STYLE.ok, ok: STYLE.info, failed: STYLE.exitFailed, killed: STYLE.running } as const;

function withDuration(mark: string, durationMs: number | undefined): string {
  return durationMs === undefined ? mark : `${mark} ${formatDuration(durationMs)}`;
}
