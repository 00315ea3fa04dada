// Markdown that grows while the model streams it. The text is cut into chunks at blank lines
// outside code fences (confirmed once the next block starts at the margin); finished chunks are
// rendered once and kept, and only the open tail is scanned and rendered again on each update.
// So a reply of 50 000 tokens costs the same per frame as a short one.
import type { StyledLine } from "../styled-text.js";
import { renderGeneration } from "./render-generation.js";
import { renderMarkdown } from "./markdown-render.js";

interface Chunk {
  /** The exact text of the chunk, trailing newlines included. */
  raw: string;
  rows?: StyledLine[];
  width?: number;
  generation?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

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
  private stableRows: StyledLine[] = [];
  private stableCount = 0;
  private stableWidth = -1;
  private stableGeneration = -1;

  constructor(text = "") {
    this.append(text);
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
    this.append(text);
  }

  append(delta: string): void {
    if (!delta) return;
    this.open += delta;
    this.length += delta.length;
    this.scan();
    this.tail = { raw: this.open };
  }

  rows(width: number): StyledLine[] {
    const generation = renderGeneration();
    if (width !== this.stableWidth || generation !== this.stableGeneration) {
      this.stableRows = [];
      this.stableCount = 0;
      this.stableWidth = width;
      this.stableGeneration = generation;
    }
    // Chunks finished since the last call are rendered once and appended.
    for (; this.stableCount < this.chunks.length; this.stableCount++) this.renderChunk(this.chunks[this.stableCount]!, width, this.stableRows);
    if (this.tail.raw.trim() === "") return this.stableRows;
    const tailRows: StyledLine[] = [];
    this.renderChunk(this.tail, width, tailRows, this.stableRows.length > 0);
    return this.stableRows.concat(tailRows);
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
      const lineStart = this.scanPos;
      const lineText = this.open.slice(lineStart, nl);
      this.scanPos = nl + 1;
      const fenceMatch = FENCE.exec(lineText);
      if (this.fence !== undefined) {
        const marker = fenceMatch?.[1];
        if (marker && marker[0] === this.fence[0] && marker.length >= this.fence.length && lineText.trim() === marker) this.fence = undefined;
        continue;
      }
      if (lineText.trim() === "") {
        if (this.open.slice(0, lineStart).trim() !== "") this.blankSeen = true;
        continue;
      }
      if (this.blankSeen && !/^\s/.test(lineText)) {
        // A new block at the margin after a blank line: everything before it is finished.
        this.chunks.push({ raw: this.open.slice(0, lineStart) });
        this.open = this.open.slice(lineStart);
        this.scanPos -= lineStart;
      }
      this.blankSeen = false;
      if (fenceMatch) this.fence = fenceMatch[1];
    }
  }
}
