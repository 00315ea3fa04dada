// How many terminal columns text takes. blessed's own table counts many emoji as one column, so
// panes measure every grapheme with the Unicode East Asian Width tables (get-east-asian-width,
// the table string-width uses; string-width itself costs 30 ms of startup for its emoji regex).
// Grapheme clusters whose width terminals disagree about (a ZWJ family, a skin tone, an emoji
// variation selector) are shown in a form every terminal measures alike, so a border never moves.
import { eastAsianWidth } from "get-east-asian-width";

// Created on first use: building it loads ICU's segmentation data, ~20 ms of startup.
let segmenter: Intl.Segmenter | undefined;
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
/**
 * Text in which every UTF-16 unit is a grapheme of its own: Latin, punctuation, arrows, box drawing,
 * blocks, shapes, symbols, dingbats. Left out are the units that join a neighbour (combining marks
 * U+0300 and U+20D0 up, ZWJ and the other zero-width formats, variation selectors) and surrogates.
 * The panes' borders, markers and most prose need no segmenter.
 */
export const SINGLE_UNIT_GRAPHEMES = /^[\x20-\x7e\u00a0-\u02ff\u2010-\u205f\u2070-\u20cf\u2100-\u2bff]*$/;
const widthCache = new Map<string, number>();
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b-\u200f\u2060-\u206f\ufe00-\ufe0f]+$/u;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}/u;
const displayCache = new Map<string, string>();

/** The one grapheme segmenter, made when first needed. */
export function graphemeSegmenter(): Intl.Segmenter {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: "grapheme" });
  return segmenter;
}

export function isPrintableAscii(text: string): boolean {
  return PRINTABLE_ASCII.test(text);
}

/** Splits text into grapheme clusters (user-perceived characters). */
export function graphemes(text: string): string[] {
  if (PRINTABLE_ASCII.test(text) || SINGLE_UNIT_GRAPHEMES.test(text)) return text.split("");
  const out: string[] = [];
  for (const { segment } of graphemeSegmenter().segment(text)) out.push(segment);
  return out;
}

/**
 * The form of a grapheme pitwall draws: emoji variation selectors and skin-tone modifiers are
 * dropped and a ZWJ sequence keeps its first emoji. Terminals agree on the width of what remains.
 */
export function displayGrapheme(g: string): string {
  if (g.length === 1) return g;
  let shown = displayCache.get(g);
  if (shown === undefined) {
    shown = g.split("\u200d")[0]!.replace(/[\ufe0f\u{1f3fb}-\u{1f3ff}]/gu, "");
    if (shown === "") shown = g;
    if (displayCache.size > 4096) displayCache.clear();
    displayCache.set(g, shown);
  }
  return shown;
}

/** Columns a grapheme takes when drawn (0, 1 or 2). */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const code = g.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  let w = widthCache.get(g);
  if (w === undefined) {
    w = measure(displayGrapheme(g));
    if (widthCache.size > 8192) widthCache.clear();
    widthCache.set(g, w);
  }
  return w;
}

function measure(g: string): number {
  const cp = g.codePointAt(0) ?? 0;
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (ZERO_WIDTH.test(g)) return 0;
  // A flag is two regional indicators: one wide cell.
  if (cp >= 0x1f1e6 && cp <= 0x1f1ff) return g.length > 2 ? 2 : 1;
  if (eastAsianWidth(cp) === 2) return 2;
  return EMOJI_PRESENTATION.test(g) ? 2 : 1;
}

export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let w = 0;
  for (const g of graphemes(text)) w += graphemeWidth(g);
  return w;
}

/** Cuts text to at most `width` columns, ending with `ellipsis` when something was cut. */
export function truncateText(text: string, width: number, ellipsis = "…"): string {
  if (width <= 0) return "";
  if (textWidth(text) <= width) return text;
  const room = width - textWidth(ellipsis);
  let out = "";
  let used = 0;
  for (const g of graphemes(text)) {
    const w = graphemeWidth(g);
    if (used + w > room) break;
    out += g;
    used += w;
  }
  return room >= 0 ? out + ellipsis : out;
}

/** Pads (or cuts) text to exactly `width` columns. */
export function fitText(text: string, width: number): string {
  const cut = truncateText(text, width);
  return cut + " ".repeat(Math.max(0, width - textWidth(cut)));
}
