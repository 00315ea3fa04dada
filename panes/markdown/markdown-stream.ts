// Markdown that grows while the model streams it. The text is cut into chunks at blank lines
// outside code fences (confirmed once the next block starts at the margin); finished chunks are
// rendered once and kept, and only the open tail is rendered again on each frame. So a reply of
// 50 000 tokens costs the same per frame as a short one.
import type { StyledLine } from "../styled-text.js";
import { renderGeneration } from "./render-generation.js";
import { renderMarkdown } from "./markdown-render.js";

interface Chunk {
  source: string;
  rows?: StyledLine[];
  width?: number;
  generation?: number;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class MarkdownStream {
  private text = "";
  private readonly chunks: Chunk[] = [];
  /** Where the stable chunks end in `text`. */
  private stableEnd = 0;
  /** How far `text` has been scanned for boundaries, and the fence state there. */
  private scanPos = 0;
  private fence: string | undefined;
  private chunkStart = 0;
  private blankSeen = false;
  private tail: Chunk = { source: "" };
  private cachedRows: StyledLine[] | undefined;
  private cachedWidth = -1;
  private cachedGeneration = -1;

  constructor(text = "") {
    this.setText(text);
  }

  get source(): string {
    return this.text;
  }

  /** Replaces the text; appending to the previous text keeps the finished chunks. */
  setText(text: string): void {
    if (text === this.text) return;
    if (!text.startsWith(this.text.slice(0, this.stableEnd))) this.reset();
    this.text = text;
    this.scan();
    this.tail = { source: this.text.slice(this.stableEnd) };
    this.cachedRows = undefined;
  }

  append(delta: string): void {
    this.setText(this.text + delta);
  }

  rows(width: number): StyledLine[] {
    if (this.cachedRows && this.cachedWidth === width && this.cachedGeneration === renderGeneration()) return this.cachedRows;
    const out: StyledLine[] = [];
    for (const chunk of this.chunks) this.renderChunk(chunk, width, out);
    if (this.tail.source.trim() !== "") this.renderChunk(this.tail, width, out);
    this.cachedRows = out;
    this.cachedWidth = width;
    this.cachedGeneration = renderGeneration();
    return out;
  }

  private renderChunk(chunk: Chunk, width: number, out: StyledLine[]): void {
    if (!chunk.rows || chunk.width !== width || chunk.generation !== renderGeneration()) {
      chunk.rows = renderMarkdown(chunk.source, width);
      chunk.width = width;
      chunk.generation = renderGeneration();
    }
    if (out.length > 0 && chunk.rows.length > 0) out.push([]);
    for (const r of chunk.rows) out.push(r);
  }

  private reset(): void {
    this.chunks.length = 0;
    this.stableEnd = 0;
    this.scanPos = 0;
    this.chunkStart = 0;
    this.fence = undefined;
    this.blankSeen = false;
  }

  /** Walks complete lines not yet scanned, closing a chunk at each confirmed boundary. */
  private scan(): void {
    while (true) {
      const nl = this.text.indexOf("\n", this.scanPos);
      if (nl === -1) return;
      const lineText = this.text.slice(this.scanPos, nl);
      const lineStart = this.scanPos;
      this.scanPos = nl + 1;
      const fenceMatch = FENCE.exec(lineText);
      if (this.fence !== undefined) {
        const marker = fenceMatch?.[1];
        if (marker && marker[0] === this.fence[0] && marker.length >= this.fence.length && lineText.trim() === marker) this.fence = undefined;
        continue;
      }
      if (lineText.trim() === "") {
        if (this.text.slice(this.chunkStart, lineStart).trim() !== "") this.blankSeen = true;
        continue;
      }
      if (this.blankSeen && !/^\s/.test(lineText)) {
        // A new block at the margin after a blank line: everything before it is finished.
        const source = this.text.slice(this.chunkStart, lineStart).replace(/\n+$/, "");
        this.chunks.push({ source });
        this.chunkStart = lineStart;
        this.stableEnd = lineStart;
      }
      this.blankSeen = false;
      if (fenceMatch) this.fence = fenceMatch[1];
    }
  }
}
