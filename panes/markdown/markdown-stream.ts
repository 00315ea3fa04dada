// Markdown that grows while the model streams it. The text is cut into chunks at blank lines
// outside code fences (confirmed once the next block starts at the margin) and around fenced code;
// finished chunks are rendered once and kept, and only the open tail is scanned and rendered again
// on each update. A code block still being written is drawn line by line, plain, each line once;
// it is highlighted when its fence closes. A table is held back until its separator row has
// arrived, then shown row by complete row (table-hold.ts), until the reply is finished. So a reply
// of 50 000 tokens, or a 3 000-line file in a code block, costs the same per frame as a short one.
import type { StyledLine } from "../text/styled-text.js";
import { renderGeneration } from "./render-generation.js";
import { codeLabelRow, codeLineRows, plainCodeLine, renderMarkdown } from "./markdown-render.js";
import { shownTail } from "./table-hold.js";

interface Chunk {
  /** The exact text of the chunk, trailing newlines included. */
  raw: string;
  rows?: StyledLine[];
  width?: number;
  generation?: number;
}

/** A fence line: its marker, and the language named after an opening one. */
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*(\S*)/;

export class MarkdownStream {
  private readonly chunks: Chunk[] = [];
  /** Text after the last finished chunk. */
  private open = "";
  private length = 0;
  /** How far `open` has been scanned, and the state there. */
  private scanPos = 0;
  private fence: string | undefined;
  private blankSeen = false;
  private tail: Chunk = { raw: "" };
  /** Text arrived since `tail` was worked out (it is, once per frame rather than once per delta). */
  private tailStale = false;
  private stableRows: StyledLine[] = [];
  private stableCount = 0;
  private stableWidth = -1;
  private stableGeneration = -1;
  /** The open code block's language and its complete lines, as scanned. */
  private fenceLang = "";
  private fenceTexts: string[] = [];
  /** Rows of the first `fenceLines` of those lines, at `stableWidth`. */
  private fenceRows: StyledLine[] = [];
  private fenceLines = 0;
  /** The whole text has arrived: nothing is held back any more. */
  private finished = false;

  /** `text`: the text so far; `finished`: whether it is all of it (a finished message). */
  constructor(text = "", finished = false) {
    this.finished = finished;
    this.append(text);
  }

  /** The text is complete: what was held back (a table's last row) shows. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.tailStale = true;
  }

  /** The whole text. Builds a string: meant for rare use. */
  get source(): string {
    return this.chunks.map((c) => c.raw).join("") + this.open;
  }

  /** Replaces the text; when it extends the current text only the new part is scanned. */
  setText(text: string): void {
    if (text.length === this.length && text === this.source) return;
    if (text.length >= this.length && text.startsWith(this.source)) {
      this.append(text.slice(this.length));
      return;
    }
    this.chunks.length = 0;
    this.open = "";
    this.length = 0;
    this.scanPos = 0;
    this.fence = undefined;
    this.blankSeen = false;
    this.stableCount = 0;
    this.stableRows = [];
    this.resetFence();
    this.append(text);
  }

  /** A code block opened or closed: its lines so far are forgotten. */
  private resetFence(lang = ""): void {
    this.fenceLang = lang;
    this.fenceTexts = [];
    this.forgetFenceRows();
  }

  private forgetFenceRows(): void {
    this.fenceRows = [];
    this.fenceLines = 0;
  }

  /**
   * Per delta, only what is new is looked at: a delta without a line feed completes no line (the
   * scan would first copy the whole open text, which `+=` left in pieces), and the tail is worked
   * out when rows are asked for. A 3 000-line block streamed fast had cost ~5 s of deltas before.
   */
  append(delta: string): void {
    if (!delta) return;
    this.open += delta;
    this.length += delta.length;
    if (delta.includes("\n")) this.scan();
    this.tailStale = true;
  }

  private currentTail(): Chunk {
    if (this.tailStale) {
      this.tail = { raw: this.finished ? this.open : shownTail(this.open) };
      this.tailStale = false;
    }
    return this.tail;
  }

  rows(width: number): StyledLine[] {
    const generation = renderGeneration();
    if (width !== this.stableWidth || generation !== this.stableGeneration) {
      this.stableRows = [];
      this.stableCount = 0;
      this.stableWidth = width;
      this.stableGeneration = generation;
      this.forgetFenceRows();
    }
    // Chunks finished since the last call are rendered once and appended.
    for (; this.stableCount < this.chunks.length; this.stableCount++) this.renderChunk(this.chunks[this.stableCount]!, width, this.stableRows);
    // A reply that ends with its closing fence has no newline after it: the block is complete.
    const inFence = this.fence !== undefined && !this.closesFence(this.open.slice(this.scanPos));
    if (!inFence && this.currentTail().raw.trim() === "") return this.stableRows;
    const tailRows: StyledLine[] = this.stableRows.length > 0 ? [[]] : [];
    if (inFence) this.openCodeRows(width, tailRows);
    else this.renderChunk(this.tail, width, tailRows, false);
    return this.stableRows.concat(tailRows);
  }

  /** Whether a line is the closing fence of the open code block. */
  private closesFence(line: string): boolean {
    const marker = FENCE.exec(line)?.[1];
    return marker !== undefined && this.fence !== undefined && marker[0] === this.fence[0] && marker.length >= this.fence.length && line.trim() === marker;
  }

  /** The open code block: its label, its complete lines (each rendered once), the line being written. */
  private openCodeRows(width: number, out: StyledLine[]): void {
    if (this.fenceLang) out.push(codeLabelRow(this.fenceLang, width));
    for (; this.fenceLines < this.fenceTexts.length; this.fenceLines++) this.fenceRows.push(...codeLineRows(plainCodeLine(this.fenceTexts[this.fenceLines]!), width));
    for (const r of this.fenceRows) out.push(r);
    // The line being written: everything after the last line feed scanned.
    const partial = this.open.slice(this.scanPos);
    if (partial !== "") out.push(...codeLineRows(plainCodeLine(partial), width));
  }

  private renderChunk(chunk: Chunk, width: number, out: StyledLine[], separate = out.length > 0): void {
    if (!chunk.rows || chunk.width !== width || chunk.generation !== renderGeneration()) {
      chunk.rows = renderMarkdown(chunk.raw.replace(/\n+$/, ""), width);
      chunk.width = width;
      chunk.generation = renderGeneration();
    }
    if (chunk.rows.length === 0) return;
    if (separate) out.push([]);
    for (const r of chunk.rows) out.push(r);
  }

  /** Walks the complete lines of the open text, closing a chunk at each confirmed boundary. */
  private scan(): void {
    while (true) {
      const nl = this.open.indexOf("\n", this.scanPos);
      if (nl === -1) return;
      let lineStart = this.scanPos;
      const lineText = this.open.slice(lineStart, nl);
      this.scanPos = nl + 1;
      const fenceMatch = FENCE.exec(lineText);
      if (this.fence !== undefined) {
        if (this.closesFence(lineText)) {
          // The code block is complete: it becomes a chunk of its own (highlighted once).
          this.fence = undefined;
          this.cut(this.scanPos);
          this.resetFence();
          this.blankSeen = false;
        } else {
          this.fenceTexts.push(lineText);
        }
        continue;
      }
      if (lineText.trim() === "") {
        if (this.open.slice(0, lineStart).trim() !== "") this.blankSeen = true;
        continue;
      }
      if (this.blankSeen && !/^\s/.test(lineText)) {
        // A new block at the margin after a blank line: everything before it is finished.
        this.cut(lineStart);
        lineStart = 0;
      }
      this.blankSeen = false;
      if (fenceMatch) {
        // A code block starts its own chunk, so the open tail is only code while it is written.
        if (this.open.slice(0, lineStart).trim() !== "") this.cut(lineStart);
        this.fence = fenceMatch[1];
        this.resetFence(fenceMatch[2]);
      }
    }
  }

  /** Closes a chunk at `index` of the open text. */
  private cut(index: number): void {
    if (index <= 0) return;
    this.chunks.push({ raw: this.open.slice(0, index) });
    this.open = this.open.slice(index);
    this.scanPos -= index;
  }
}
