// The multi-line input: a text buffer drawn with a prompt, wrapped by character, scrolled to keep
// the cursor in view, growing up to a few rows. Large pastes become a placeholder that is expanded
// on submit, so pasting a log of thousands of lines never slows typing. A pasted image path, or an
// `@path` typed, becomes a chip ("[image: shot.png]") whose image goes with the message.
import type { Widgets } from "blessed";
import type { ImageContent } from "../../agent/messages.js";
import type { Canvas } from "../screen/canvas.js";
import type { CursorPlacement } from "../screen/render-scheduler.js";
import { InputHistory } from "./input-history.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { graphemes, graphemeWidth, isPrintableAscii, textWidth } from "../text/text-width.js";
import { TextBuffer } from "./text-buffer.js";
import type { QueueView } from "./queue-view.js";

const PROMPT = attr({ fg: Color.cyan, bold: true });
const PLACEHOLDER = attr({ fg: Color.grey });
const PASTE_LINES = 10;
const PASTE_CHARS = 2000;
const CHIP = attr({ fg: Color.magenta, bold: true });
/** `@path` at the start of the text or after whitespace. */
const AT_PATH = /(^|\s)@(\S+)/g;

/** An image attached in the input: a file to read, or one already read (a queued message taken back). */
export interface ImageAttachment {
  name: string;
  path?: string;
  image?: ImageContent;
}

interface VisualRow {
  line: number;
  start: number;
  end: number;
}

/** Splits a line into rows of at most `width` columns, by grapheme. */
export function charWrap(text: string, width: number): Array<{ start: number; end: number }> {
  const w = Math.max(1, width);
  if (text === "") return [{ start: 0, end: 0 }];
  if (isPrintableAscii(text)) {
    const rows = [];
    for (let i = 0; i < text.length; i += w) rows.push({ start: i, end: Math.min(text.length, i + w) });
    return rows;
  }
  const rows: Array<{ start: number; end: number }> = [];
  let start = 0;
  let index = 0;
  let used = 0;
  for (const g of graphemes(text)) {
    const gw = graphemeWidth(g);
    if (used + gw > w && index > start) {
      rows.push({ start, end: index });
      start = index;
      used = 0;
    }
    used += gw;
    index += g.length;
  }
  rows.push({ start, end: text.length });
  return rows;
}

/** Finds the image files the person names in the input (the app reads the disk). */
export interface ImageFinder {
  /** The images a pasted text names, when it is only image paths; undefined otherwise. */
  pasted(text: string): ImageAttachment[] | undefined;
  /** The image file an `@path` names, if it is one. */
  at(path: string): ImageAttachment | undefined;
}

export class InputPane extends PaneBox {
  readonly buffer = new TextBuffer();
  readonly history = new InputHistory();
  private readonly pastes = new Map<string, string>();
  private pasteCount = 0;
  /**
   * Chip text → image. Kept for the whole session, so a message recalled from history or taken
   * back from the queue brings its images again.
   */
  private readonly chips = new Map<string, ImageAttachment>();
  /** What the empty input says: the first wording that fits its row. */
  placeholder: string | string[] = "";
  hint = "";
  private cursor: CursorPlacement | null = null;
  private scrollTop = 0;
  maxRows = 8;

  /** `images` finds the image files a paste or an `@path` names; without it nothing becomes a chip. */
  constructor(
    screen: Widgets.Screen,
    private readonly images?: ImageFinder,
    /** The queued messages, shown in the top border. */
    private readonly queue?: QueueView,
  ) {
    super(screen, { title: "input" });
  }

  /** Inserts pasted text; image paths become chips, a large paste a placeholder until submit. */
  paste(text: string): void {
    const images = this.images?.pasted(text);
    if (images) {
      this.buffer.insert(images.map((image) => this.chipFor(image)).join(" ") + " ");
      return;
    }
    const clean = text.replace(/\r\n?/g, "\n");
    const lines = clean.split("\n").length;
    if (lines > PASTE_LINES || clean.length > PASTE_CHARS) {
      const marker = `[Pasted text #${++this.pasteCount} +${lines} lines]`;
      this.pastes.set(marker, clean);
      this.buffer.insert(marker);
    } else {
      this.buffer.insert(clean);
    }
  }

  /** Typed text; an `@path` naming an image becomes a chip once a space follows it. */
  type(text: string): void {
    this.buffer.insert(text);
    if (/\s/.test(text)) this.chipTypedPaths(this.buffer.row, false);
  }

  /** Backspace right after a chip removes the whole chip. */
  backspace(): void {
    const b = this.buffer;
    const before = b.currentLine.slice(0, b.col);
    const chip = [...this.chips.keys()].find((c) => before.endsWith(c));
    if (chip) b.replaceInLine(b.row, b.col - chip.length, b.col, "");
    else b.backspace();
  }

  /**
   * The images whose chips are in the text, in order, after turning any remaining `@path` into a
   * chip (the last one typed, not followed by a space yet).
   */
  takeImages(): ImageAttachment[] {
    this.buffer.lines.forEach((_, row) => this.chipTypedPaths(row, true));
    const text = this.buffer.text;
    return [...this.chips.entries()]
      .map(([chip, image]) => ({ at: text.indexOf(chip), image }))
      .filter((c) => c.at >= 0)
      .sort((a, b) => a.at - b.at)
      .map((c) => c.image);
  }

  /** Puts back text whose chips name images already read (a queued message taken back), in order. */
  restore(text: string, images: readonly ImageContent[] = []): void {
    const chips = text.match(/\[image: [^\]\n]+\]/g) ?? [];
    images.forEach((image, i) => {
      const chip = chips[i];
      if (chip) this.chips.set(chip, { name: image.name ?? "image", image });
    });
    this.setText(text);
  }

  private chipFor(image: ImageAttachment): string {
    let chip = `[image: ${image.name}]`;
    for (let n = 2; this.chips.has(chip) && this.chips.get(chip)!.path !== image.path; n++) chip = `[image: ${image.name} (${n})]`;
    this.chips.set(chip, image);
    return chip;
  }

  private chipTypedPaths(row: number, atEnd: boolean): void {
    if (!this.images) return;
    const line = this.buffer.lines[row] ?? "";
    const found: Array<{ start: number; end: number; chip: string }> = [];
    for (const match of line.matchAll(AT_PATH)) {
      const start = match.index + match[1]!.length;
      const end = start + 1 + match[2]!.length;
      // While typing, the word the cursor is in may still grow.
      if (!atEnd && end === line.length) continue;
      const image = this.images.at(match[2]!);
      if (image) found.push({ start, end, chip: this.chipFor(image) });
    }
    for (const f of found.reverse()) this.buffer.replaceInLine(row, f.start, f.end, f.chip);
  }

  /** The text to send, placeholders expanded. */
  get value(): string {
    let text = this.buffer.text;
    for (const [marker, pasted] of this.pastes) text = text.split(marker).join(pasted);
    return text;
  }

  setText(text: string): void {
    this.buffer.text = text;
  }

  /** Clears the editor (and forgets pastes). */
  reset(): void {
    this.buffer.clear();
    this.pastes.clear();
    this.history.reset();
  }

  private visualRows(width: number): VisualRow[] {
    const rows: VisualRow[] = [];
    this.buffer.lines.forEach((l, line) => {
      for (const r of charWrap(l, width)) rows.push({ line, ...r });
    });
    return rows;
  }

  /** Rows of text the input wants (1..maxRows) at a given inner width. */
  desiredRows(innerWidth: number): number {
    return Math.max(1, Math.min(this.maxRows, this.visualRows(Math.max(1, innerWidth - 3)).length));
  }

  /** Where the terminal cursor belongs, when the input has focus. */
  cursorPlacement(): CursorPlacement | null {
    return this.focused && this.visible ? this.cursor : null;
  }

  protected paintContent(canvas: Canvas): void {
    // One column is kept free so the cursor after a full row stays inside the pane.
    const width = Math.max(1, canvas.width - 3);
    const rows = this.visualRows(width);
    const b = this.buffer;
    // The cursor's visual row: the last row of its line that starts at or before it.
    let cursorRow = 0;
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      if (r.line === b.row && r.start <= b.col) cursorRow = i;
    }
    if (cursorRow < this.scrollTop) this.scrollTop = cursorRow;
    if (cursorRow >= this.scrollTop + canvas.height) this.scrollTop = cursorRow - canvas.height + 1;
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, Math.max(0, rows.length - canvas.height)));

    const out: StyledLine[] = [];
    for (let i = this.scrollTop; i < Math.min(rows.length, this.scrollTop + canvas.height); i++) {
      const r = rows[i]!;
      const text = sanitizeText(b.lines[r.line]!.slice(r.start, r.end), 1);
      const prompt = i === 0 ? "› " : "  ";
      out.push([{ text: prompt, attr: PROMPT }, ...this.withChips(text)]);
    }
    const wordings = typeof this.placeholder === "string" ? [this.placeholder] : this.placeholder;
    // The first wording that fits whole; the shortest, cut at parts and words, when none does.
    const placeholder = wordings.find((w) => textWidth(w) <= canvas.width - 2) ?? wordings[wordings.length - 1];
    if (b.isEmpty && placeholder) out[0] = [{ text: "› ", attr: PROMPT }, { text: fitHint(placeholder, width), attr: PLACEHOLDER }];
    canvas.paintRows(out);
    const r = rows[cursorRow]!;
    let x = 0;
    for (const g of graphemes(b.lines[r.line]!.slice(r.start, b.col))) x += graphemeWidth(g);
    this.cursor = { x: canvas.rect.left + 2 + Math.min(x, width), y: canvas.rect.top + cursorRow - this.scrollTop };
    this.titleRight = this.hint;
    // The queue in the top border, where it moves nothing: the border's room less its corners, margins and hint.
    const room = canvas.width - 2 - (this.hint ? textWidth(this.hint) + 2 : 0);
    this.titleLine = this.queue?.titleLine(Math.max(0, room));
  }

  /** A row's text with its chips highlighted. */
  private withChips(text: string): StyledLine {
    if (this.chips.size === 0 || !text.includes("[image: ")) return [{ text, attr: attr() }];
    const spans: StyledLine = [];
    let rest = text;
    while (rest) {
      let at = -1;
      let chip = "";
      for (const c of this.chips.keys()) {
        const i = rest.indexOf(c);
        if (i >= 0 && (at < 0 || i < at)) [at, chip] = [i, c];
      }
      if (at < 0) break;
      if (at > 0) spans.push({ text: rest.slice(0, at), attr: attr() });
      spans.push({ text: chip, attr: CHIP });
      rest = rest.slice(at + chip.length);
    }
    if (rest) spans.push({ text: rest, attr: attr() });
    return spans;
  }
}

/**
 * A hint of " · "-separated parts at a width: the parts that fit whole, in order; a first part too
 * long for the width ends at its last whole word, with "…". Never a word cut in two.
 */
export function fitHint(text: string, width: number): string {
  if (textWidth(text) <= width) return text;
  const parts = text.split(" · ");
  let fitted = parts[0]!;
  for (const part of parts.slice(1)) {
    const longer = `${fitted} · ${part}`;
    if (textWidth(longer) > width) break;
    fitted = longer;
  }
  if (textWidth(fitted) <= width) return fitted;
  const words = fitted.split(" ");
  while (words.length > 1 && textWidth(`${words.join(" ")}…`) > width) words.pop();
  const cut = `${words.join(" ")}…`;
  return textWidth(cut) <= width ? cut : "";
}

