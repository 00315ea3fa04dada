// The editing model behind the input: lines of text and a cursor that moves by grapheme, with the
// usual readline edits (word moves, kill to line start/end, delete word). No screen here, so it is
// tested directly.
import { graphemes, graphemeSegmenter } from "../text/text-width.js";

function prevBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const code = text.charCodeAt(index - 1);
  if (code < 0x300 && code >= 0x20) return index - 1;
  let last = 0;
  for (const { index: i } of graphemeSegmenter().segment(text.slice(0, index))) last = i;
  return last;
}

function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const code = text.charCodeAt(index);
  const nextCode = text.charCodeAt(index + 1);
  if (code < 0x300 && code >= 0x20 && !(nextCode >= 0x300 && nextCode < 0x370)) return index + 1;
  const first = graphemes(text.slice(index, index + 32))[0] ?? text[index]!;
  return index + first.length;
}

/** The grapheme boundary at or before `index`. */
function snap(text: string, index: number): number {
  if (index >= text.length) return text.length;
  if (/^[\x20-\x7e]*$/.test(text)) return index;
  let best = 0;
  for (const { index: i } of graphemeSegmenter().segment(text)) {
    if (i > index) break;
    best = i;
  }
  return best;
}

const WORD = /[\p{L}\p{N}_]/u;

export class TextBuffer {
  lines: string[] = [""];
  /** Cursor: line index and string index within the line (always at a grapheme boundary). */
  row = 0;
  col = 0;
  /** Bumped on every change, so views re-wrap only when needed. */
  version = 0;

  get text(): string {
    return this.lines.join("\n");
  }

  set text(value: string) {
    this.lines = value.split("\n");
    this.row = this.lines.length - 1;
    this.col = this.lines[this.row]!.length;
    this.version++;
  }

  get isEmpty(): boolean {
    return this.lines.length === 1 && this.lines[0] === "";
  }

  get currentLine(): string {
    return this.lines[this.row]!;
  }

  get onFirstLine(): boolean {
    return this.row === 0;
  }

  get onLastLine(): boolean {
    return this.row === this.lines.length - 1;
  }

  clear(): void {
    this.text = "";
  }

  insert(text: string): void {
    if (!text) return;
    const line = this.currentLine;
    const before = line.slice(0, this.col);
    const after = line.slice(this.col);
    const parts = text.replace(/\r\n?/g, "\n").split("\n");
    if (parts.length === 1) {
      this.lines[this.row] = before + text + after;
      this.col += text.length;
    } else {
      const last = parts[parts.length - 1]!;
      const middle = parts.slice(1, -1);
      this.lines.splice(this.row, 1, before + parts[0]!, ...middle, last + after);
      this.row += parts.length - 1;
      this.col = last.length;
    }
    this.version++;
  }

  newline(): void {
    this.insert("\n");
  }

  backspace(): void {
    if (this.col > 0) {
      const line = this.currentLine;
      const start = prevBoundary(line, this.col);
      this.lines[this.row] = line.slice(0, start) + line.slice(this.col);
      this.col = start;
    } else if (this.row > 0) {
      const prev = this.lines[this.row - 1]!;
      this.lines.splice(this.row - 1, 2, prev + this.currentLine);
      this.row--;
      this.col = prev.length;
    } else return;
    this.version++;
  }

  deleteForward(): void {
    const line = this.currentLine;
    if (this.col < line.length) {
      this.lines[this.row] = line.slice(0, this.col) + line.slice(nextBoundary(line, this.col));
    } else if (this.row < this.lines.length - 1) {
      this.lines.splice(this.row, 2, line + this.lines[this.row + 1]!);
    } else return;
    this.version++;
  }

  left(): void {
    if (this.col > 0) this.col = prevBoundary(this.currentLine, this.col);
    else if (this.row > 0) {
      this.row--;
      this.col = this.currentLine.length;
    }
  }

  right(): void {
    if (this.col < this.currentLine.length) this.col = nextBoundary(this.currentLine, this.col);
    else if (this.row < this.lines.length - 1) {
      this.row++;
      this.col = 0;
    }
  }

  home(): void {
    this.col = 0;
  }

  end(): void {
    this.col = this.currentLine.length;
  }

  /** Moves up one line; false when already on the first line. */
  up(): boolean {
    if (this.row === 0) return false;
    this.row--;
    this.col = snap(this.currentLine, this.col);
    return true;
  }

  /** Moves down one line; false when already on the last line. */
  down(): boolean {
    if (this.row >= this.lines.length - 1) return false;
    this.row++;
    this.col = snap(this.currentLine, this.col);
    return true;
  }

  wordLeft(): void {
    if (this.col === 0) return this.left();
    const line = this.currentLine;
    let i = this.col;
    while (i > 0 && !WORD.test(line[i - 1]!)) i--;
    while (i > 0 && WORD.test(line[i - 1]!)) i--;
    this.col = i;
  }

  wordRight(): void {
    const line = this.currentLine;
    if (this.col >= line.length) return this.right();
    let i = this.col;
    while (i < line.length && !WORD.test(line[i]!)) i++;
    while (i < line.length && WORD.test(line[i]!)) i++;
    this.col = i;
  }

  /** Deletes back to the previous space (a shell's Ctrl+W): "-m " goes in one press. */
  deleteWordBack(): void {
    if (this.col === 0) return this.backspace();
    const line = this.currentLine;
    let i = this.col;
    while (i > 0 && line[i - 1] === " ") i--;
    while (i > 0 && line[i - 1] !== " ") i--;
    this.lines[this.row] = line.slice(0, i) + line.slice(this.col);
    this.col = i;
    this.version++;
  }

  deleteToLineStart(): void {
    if (this.col === 0) return this.backspace();
    this.lines[this.row] = this.currentLine.slice(this.col);
    this.col = 0;
    this.version++;
  }

  /** Replaces `start`..`end` of line `row`; a cursor after the range moves with the text. */
  replaceInLine(row: number, start: number, end: number, text: string): void {
    const line = this.lines[row];
    if (line === undefined) return;
    this.lines[row] = line.slice(0, start) + text + line.slice(end);
    if (row === this.row && this.col >= end) this.col += text.length - (end - start);
    else if (row === this.row && this.col > start) this.col = start + text.length;
    this.version++;
  }

  deleteToLineEnd(): void {
    if (this.col >= this.currentLine.length) return this.deleteForward();
    this.lines[this.row] = this.currentLine.slice(0, this.col);
    this.version++;
  }
}
