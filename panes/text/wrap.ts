// Word-wraps a styled line to a width: breaks at spaces, hard-breaks words longer than a row, and
// can indent continuation rows (list items, quoted text). Widths come from text-width.ts, so wide
// characters never overflow a row.
import { PLAIN, type Span, type StyledLine } from "./styled-text.js";
import { graphemes, graphemeWidth, textWidth } from "./text-width.js";

interface Piece {
  text: string;
  attr: number;
}

/** A run of non-space text (possibly across spans) or a run of spaces. */
interface Token {
  space: boolean;
  pieces: Piece[];
  width: number;
}

function tokenize(line: StyledLine): Token[] {
  const tokens: Token[] = [];
  for (const sp of line) {
    if (sp.text === "") continue;
    for (const m of sp.text.matchAll(/ +|[^ ]+/g)) {
      const text = m[0];
      const space = text[0] === " ";
      const last = tokens[tokens.length - 1];
      const width = space ? text.length : textWidth(text);
      if (last && last.space === space) {
        last.pieces.push({ text, attr: sp.attr });
        last.width += width;
      } else {
        tokens.push({ space, pieces: [{ text, attr: sp.attr }], width });
      }
    }
  }
  return tokens;
}

export interface WrapOptions {
  /** Spaces put before every continuation row. */
  indent?: number;
  /** The attribute of the indent (e.g. a quote bar's background). */
  indentAttr?: number;
}

export function wrapLine(line: StyledLine, width: number, options: WrapOptions = {}): StyledLine[] {
  const w = Math.max(1, width);
  const indent = Math.min(options.indent ?? 0, Math.max(0, w - 1));
  const rows: StyledLine[] = [];
  let row: Span[] = [];
  let used = 0;

  const push = (text: string, a: number, cols: number): void => {
    const last = row[row.length - 1];
    if (last && last.attr === a) last.text += text;
    else row.push({ text, attr: a });
    used += cols;
  };
  const newRow = (): void => {
    // Spaces at the end of a wrapped row are dropped: they would only push the cursor.
    const last = row[row.length - 1];
    if (last) {
      last.text = last.text.replace(/ +$/, "");
      if (last.text === "") row.pop();
    }
    rows.push(row);
    row = [];
    used = 0;
    if (indent > 0) push(" ".repeat(indent), options.indentAttr ?? PLAIN, indent);
  };
  const atRowStart = (): boolean => used === (rows.length > 0 ? indent : 0);

  for (const token of tokenize(line)) {
    if (token.space) {
      if (rows.length > 0 && atRowStart()) continue;
      for (const p of token.pieces) {
        if (used + p.text.length > w) {
          newRow();
          break;
        }
        push(p.text, p.attr, p.text.length);
      }
      continue;
    }
    if (used + token.width <= w) {
      for (const p of token.pieces) push(p.text, p.attr, textWidth(p.text));
      continue;
    }
    if (token.width <= w - indent && !atRowStart()) newRow();
    if (used + token.width <= w) {
      for (const p of token.pieces) push(p.text, p.attr, textWidth(p.text));
      continue;
    }
    // Longer than a row: break between graphemes.
    for (const p of token.pieces) {
      let chunk = "";
      let chunkWidth = 0;
      for (const g of graphemes(p.text)) {
        const gw = graphemeWidth(g);
        if (used + chunkWidth + gw > w) {
          if (chunk) push(chunk, p.attr, chunkWidth);
          chunk = "";
          chunkWidth = 0;
          newRow();
        }
        chunk += g;
        chunkWidth += gw;
      }
      if (chunk) push(chunk, p.attr, chunkWidth);
    }
  }
  rows.push(row);
  return rows;
}

/** A styled line cut to `width` columns, ending with "…" (in the attribute of the text it follows) when cut. */
export function truncateLine(line: StyledLine, width: number): StyledLine {
  if (width <= 0) return [];
  if (textWidth(line.map((s) => s.text).join("")) <= width) return line;
  const room = width - 1;
  const out: StyledLine = [];
  let used = 0;
  for (const span of line) {
    let text = "";
    for (const g of graphemes(span.text)) {
      const w = graphemeWidth(g);
      if (used + w > room) break;
      text += g;
      used += w;
    }
    if (text) out.push({ text, attr: span.attr });
    if (used >= room || text.length < span.text.length) break;
  }
  out.push({ text: "…", attr: (out[out.length - 1] ?? line[0])?.attr ?? PLAIN });
  return out;
}
