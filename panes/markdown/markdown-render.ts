// Markdown (as models write it) to styled rows at a width: headings, paragraphs with emphasis,
// inline code and links, bullet and numbered lists (nested, tasks), block quotes, rules, tables and
// fenced code (highlighted when the language is known). Parsing is marked's lexer, loaded after
// the first frame (until then text shows plain); rendering to cells is ours, so widths are
// measured and nothing is parsed as blessed tags.
import type { Token, Tokens } from "marked";
import { sanitizeText } from "../text/terminal-text.js";
import { PLAIN, withStyle, type Span, type StyledLine } from "../text/styled-text.js";
import { textWidth, truncateText } from "../text/text-width.js";
import { wrapLine } from "../text/wrap.js";
import { highlightCode } from "./code-highlight.js";
import { bumpRenderGeneration } from "./render-generation.js";
import { MD } from "./theme.js";

type Lexer = (src: string, options: { gfm: boolean }) => Token[];
let lexer: Lexer | undefined;
let loading: Promise<void> | undefined;

/** Loads the markdown parser (idempotent); until then markdown is shown as plain text. */
export function loadMarkdownParser(): Promise<void> {
  loading ??= import("marked").then((m) => {
    lexer = (src, options) => m.marked.lexer(src, options);
    bumpRenderGeneration();
  });
  return loading;
}

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#39;": "'", "&nbsp;": " " };

function decode(text: string): string {
  return sanitizeText(text.replace(/&(?:amp|lt|gt|quot|#39|nbsp);/g, (e) => ENTITIES[e] ?? e));
}

/** Inline tokens to spans, each inner style layered on the outer one. */
function inline(tokens: Token[] | undefined, base: number, out: Span[] = []): Span[] {
  for (const t of tokens ?? []) {
    switch (t.type) {
      case "strong":
        inline((t as Tokens.Strong).tokens, withStyle(base, { bold: true }), out);
        break;
      case "em":
        inline((t as Tokens.Em).tokens, withStyle(base, { italic: true }), out);
        break;
      case "del":
        inline((t as Tokens.Del).tokens, withStyle(base, { strike: true }), out);
        break;
      case "codespan":
        out.push({ text: decode((t as Tokens.Codespan).text), attr: MD.codespan });
        break;
      case "link": {
        const link = t as Tokens.Link;
        const before = out.length;
        inline(link.tokens, MD.link, out);
        const shown = out.slice(before).map((s) => s.text).join("");
        if (link.href && shown !== link.href && !link.href.startsWith("mailto:")) out.push({ text: ` (${link.href})`, attr: MD.linkUrl });
        break;
      }
      case "image": {
        const image = t as Tokens.Image;
        out.push({ text: `[image: ${decode(image.text || image.href)}]`, attr: MD.linkUrl });
        break;
      }
      case "br":
        out.push({ text: "\n", attr: base });
        break;
      case "text": {
        const text = t as Tokens.Text;
        if (text.tokens && text.tokens.length > 0) inline(text.tokens, base, out);
        else out.push({ text: decode(text.text), attr: base });
        break;
      }
      case "escape":
      case "html":
        out.push({ text: decode((t as Tokens.Escape).text), attr: base });
        break;
      default:
        out.push({ text: decode(t.raw), attr: base });
    }
  }
  return out;
}

/** Splits spans at "\n" into logical lines. */
function splitLines(spans: Span[]): StyledLine[] {
  const lines: StyledLine[] = [[]];
  for (const s of spans) {
    const parts = s.text.split("\n");
    parts.forEach((p, i) => {
      if (i > 0) lines.push([]);
      if (p) lines[lines.length - 1]!.push({ text: p, attr: s.attr });
    });
  }
  return lines;
}

function wrapSpans(spans: Span[], width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  for (const l of splitLines(spans)) rows.push(...wrapLine(l, width));
  return rows;
}

/** Puts `first` before the first row and `rest` before the others. */
function prefixed(rows: StyledLine[], first: Span, rest: Span): StyledLine[] {
  return rows.map((r, i) => [i === 0 ? first : rest, ...r]);
}

/** A code block's left rule: every row of the block, its language label included, starts with it. */
const CODE_RULE = "│ ";
/** A wrapped code line's continuation rows are indented this much past the line's own indent. */
const CODE_HANG = 2;

/** The row naming a code block's language. */
export function codeLabelRow(lang: string, width: number): StyledLine {
  return [
    { text: CODE_RULE, attr: MD.codeGutter },
    { text: truncateText(lang.split(/\s+/)[0]!, Math.max(1, width - CODE_RULE.length)), attr: MD.codeLabel },
  ];
}

/** The rows of one line of code: after the rule, wrapped, continuation rows keeping the line's indent. */
export function codeLineRows(line: StyledLine, width: number): StyledLine[] {
  const room = Math.max(1, width - CODE_RULE.length);
  const text = line.map((span) => span.text).join("");
  const indent = text.length - text.trimStart().length;
  // Very deep indents still leave a readable continuation.
  const hang = Math.min(indent + CODE_HANG, Math.floor(room / 2));
  return wrapLine(line, room, { indent: hang }).map((r) => [{ text: CODE_RULE, attr: MD.codeGutter }, ...r]);
}

export function plainCodeLine(text: string): StyledLine {
  const clean = sanitizeText(text, 4);
  return clean ? [{ text: clean, attr: MD.code }] : [];
}

function codeRows(code: Tokens.Code, width: number): StyledLine[] {
  const text = sanitizeText(code.text, 4);
  const lines = highlightCode(text, code.lang) ?? text.split("\n").map(plainCodeLine);
  const rows: StyledLine[] = [];
  if (code.lang) rows.push(codeLabelRow(code.lang, width));
  for (const l of lines) rows.push(...codeLineRows(l, width));
  return rows;
}

function listRows(list: Tokens.List, width: number): StyledLine[] {
  const rows: StyledLine[] = [];
  const start = typeof list.start === "number" ? list.start : 1;
  const markers = list.items.map((item, i) => {
    if (item.task) return item.checked ? "☑ " : "☐ ";
    return list.ordered ? `${start + i}. ` : "• ";
  });
  const markerWidth = Math.max(...markers.map((m) => textWidth(m)));
  list.items.forEach((item, i) => {
    const marker = markers[i]!.padStart(list.ordered ? markerWidth : 0);
    const pad = " ".repeat(textWidth(marker));
    const inner = Math.max(1, width - textWidth(marker));
    const itemRows = blockRows(item.tokens.filter((t) => t.type !== "checkbox"), inner, true);
    if (itemRows.length === 0) itemRows.push([]);
    rows.push(...prefixed(itemRows, { text: marker, attr: MD.bullet }, { text: pad, attr: PLAIN }));
    if (list.loose && i < list.items.length - 1) rows.push([]);
  });
  return rows;
}

function tableRows(table: Tokens.Table, width: number): StyledLine[] {
  const cells = [table.header, ...table.rows].map((row) => row.map((c) => inline(c.tokens, c.header ? MD.tableHeader : PLAIN)));
  const cols = table.header.length;
  const widths = Array.from({ length: cols }, (_, c) => Math.max(1, ...cells.map((r) => textWidth((r[c] ?? []).map((s) => s.text).join("")))));
  const total = widths.reduce((a, b) => a + b, 0) + 3 * (cols - 1);
  if (total > width) {
    // Too wide for a grid: one line per row, cells separated by bars, wrapped.
    return cells.flatMap((r) => wrapLine(r.flatMap((c, i) => (i === 0 ? c : [{ text: " │ ", attr: MD.tableBorder }, ...c])), width));
  }
  const rows: StyledLine[] = [];
  cells.forEach((r, ri) => {
    const line: Span[] = [];
    r.forEach((c, i) => {
      if (i > 0) line.push({ text: " │ ", attr: MD.tableBorder });
      const w = textWidth(c.map((s) => s.text).join(""));
      const align = table.align[i];
      const gap = widths[i]! - w;
      const left = align === "right" ? gap : align === "center" ? Math.floor(gap / 2) : 0;
      if (left) line.push({ text: " ".repeat(left), attr: PLAIN });
      line.push(...c);
      if (gap - left) line.push({ text: " ".repeat(gap - left), attr: PLAIN });
    });
    rows.push(line);
    if (ri === 0) rows.push([{ text: widths.map((w) => "─".repeat(w)).join("─┼─"), attr: MD.tableBorder }]);
  });
  return rows;
}

/** Block tokens to rows. `tight`: inside a list item, where paragraphs are not separated. */
function blockRows(tokens: Token[], width: number, tight = false): StyledLine[] {
  const rows: StyledLine[] = [];
  const gap = (): void => {
    if (!tight && rows.length > 0 && rows[rows.length - 1]!.length > 0) rows.push([]);
  };
  for (const t of tokens) {
    switch (t.type) {
      case "space":
        break;
      case "heading": {
        const h = t as Tokens.Heading;
        gap();
        rows.push(...wrapSpans(inline(h.tokens, h.depth === 1 ? MD.heading1 : MD.heading), width));
        break;
      }
      case "paragraph":
        gap();
        rows.push(...wrapSpans(inline((t as Tokens.Paragraph).tokens, MD.text), width));
        break;
      case "text": {
        const text = t as Tokens.Text;
        rows.push(...wrapSpans(text.tokens ? inline(text.tokens, MD.text) : [{ text: decode(text.text), attr: MD.text }], width));
        break;
      }
      case "code":
        gap();
        rows.push(...codeRows(t as Tokens.Code, width));
        break;
      case "list":
        if (!tight) gap();
        rows.push(...listRows(t as Tokens.List, width));
        break;
      case "blockquote": {
        gap();
        const inner = blockRows((t as Tokens.Blockquote).tokens, Math.max(1, width - 2)).map((r) => r.map((s) => ({ text: s.text, attr: withStyle(s.attr, { italic: true }) })));
        rows.push(...prefixed(inner, { text: "│ ", attr: MD.quoteBar }, { text: "│ ", attr: MD.quoteBar }));
        break;
      }
      case "hr":
        gap();
        rows.push([{ text: "─".repeat(Math.max(1, Math.min(width, 40))), attr: MD.hr }]);
        break;
      case "table":
        gap();
        rows.push(...tableRows(t as Tokens.Table, width));
        break;
      case "def":
        break;
      default:
        gap();
        rows.push(...wrapSpans([{ text: decode(t.raw.replace(/\n+$/, "")), attr: MD.text }], width));
    }
  }
  return rows;
}

/** Renders markdown to rows of at most `width` columns. */
export function renderMarkdown(text: string, width: number): StyledLine[] {
  if (!lexer) {
    void loadMarkdownParser();
    return wrapSpans([{ text: sanitizeText(text), attr: MD.text }], Math.max(4, width));
  }
  let tokens: Token[];
  try {
    tokens = lexer(text, { gfm: true });
  } catch {
    return wrapSpans([{ text: sanitizeText(text), attr: MD.text }], width);
  }
  return blockRows(tokens, Math.max(4, width));
}
