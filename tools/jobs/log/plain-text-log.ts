// The plain text of a job's output, for the model and for get_process_log, as terminal-lines.ts
// reads it from the raw stream (escapes dropped, progress bars at their final state). Memory stays
// bounded: the last lines are kept under a line and a character budget, numbered absolutely so
// paging stays stable after old lines are dropped, and the first part of the output is kept too so a
// capped result can show head and tail. While no one listens for lines, output waits in a queue
// until it is read or enough lines follow it to push it out of memory; then it is only counted
// (log-skip.ts), so a flood costs the log about what it keeps rather than what it prints.
import { bodyByteCapFor, capOutput, countNewlines, withinBytes, type CappedOutput } from "../../output-cap.js";
import { countableRun } from "./log-skip.js";
import { detach, TerminalLines } from "./terminal-lines.js";

export interface PlainTextLogOptions {
  /** Completed lines kept in memory (the most recent ones). */
  maxLines?: number;
  /** Characters kept in memory across those lines. */
  maxChars?: number;
  /** Characters of the very first output kept for the head of a capped result. */
  headChars?: number;
  /** A line longer than this is wrapped, as a terminal would, so one endless line stays bounded. */
  maxLineChars?: number;
}

export const DEFAULT_LOG_MAX_LINES = 10_000;
export const DEFAULT_LOG_MAX_CHARS = 2_000_000;
export const DEFAULT_LOG_HEAD_CHARS = 64_000;
export const DEFAULT_LOG_MAX_LINE_CHARS = 16_384;

interface LineListener {
  call(line: string, lineNumber: number): void;
  wanted(): boolean;
}

/** Output written while no one listened, with what the writer had already scanned of it. */
interface PendingOutput {
  text: string;
  newlines: number;
  /** sgr-scan.ts's sgrChars over the whole text, when the writer has it (undefined: not known). */
  colourChars: number | undefined;
}

const EMPTY_PENDING: PendingOutput = { text: "", newlines: 0, colourChars: 0 };
/**
 * How many lines beyond the window may wait before the output they push out is counted: a flood is
 * counted in runs of chunks, joined, so the work each count costs besides its lines (the line under
 * way finished and begun again, the scans for controls) is paid once a run instead of once a chunk.
 */
const COUNT_RUN_LINES = 1024;

export class PlainTextLog {
  private readonly maxLines: number;
  private readonly maxChars: number;
  private readonly headChars: number;
  private readonly maxLineChars: number;
  /** See COUNT_RUN_LINES: an eighth of the window at most, so what waits stays near the window. */
  private readonly countRunLines: number;

  /** Raw output into lines; the line under way is its `partial`. */
  private readonly reader: TerminalLines;

  /** Kept completed lines live in lines[start..]; lines[start] is line number `firstKept`. */
  private lines: string[] = [];
  private start = 0;
  private firstKept = 1;
  private keptChars = 0;
  private completed = 0;
  private committedChars = 0;

  private head = "";
  private headLines = 0;
  private headFull = false;

  /** An array, not a set: it is walked for every line of a flood. */
  private lineListeners: LineListener[] = [];

  /** Output not read yet (pending[pendingHead..]), written while no listener wanted lines. */
  private pending: PendingOutput[] = [];
  private pendingHead = 0;
  private pendingNewlines = 0;
  private pendingChars = 0;
  /** Reading pending output: its lines were written while no one listened, so no one hears them. */
  private muted = false;
  private countedValue = 0;

  constructor(options: PlainTextLogOptions = {}) {
    this.maxLines = Math.max(1, options.maxLines ?? DEFAULT_LOG_MAX_LINES);
    this.maxChars = Math.max(1, options.maxChars ?? DEFAULT_LOG_MAX_CHARS);
    this.headChars = Math.max(0, options.headChars ?? DEFAULT_LOG_HEAD_CHARS);
    this.maxLineChars = Math.max(16, options.maxLineChars ?? DEFAULT_LOG_MAX_LINE_CHARS);
    this.countRunLines = Math.min(COUNT_RUN_LINES, Math.floor(this.maxLines / 8));
    this.reader = new TerminalLines(this.maxLineChars, { commitLine: (text) => this.commitLine(text), detachLast: (count) => this.detachLast(count) });
  }

  /**
   * Feeds raw output (escape codes and all). Sequences split across chunks are handled. `newlines`
   * is the chunk's count of line feeds and `colourChars` its sgrChars, when the caller has them
   * already (a job scans once for its log and its emulator).
   */
  write(chunk: string, newlines: number = countNewlines(chunk), colourChars?: number): void {
    if (this.lineListeners.some((listener) => listener.wanted())) {
      this.settle();
      this.reader.read(chunk);
      return;
    }
    this.pending.push({ text: chunk, newlines, colourChars });
    this.pendingNewlines += newlines;
    this.pendingChars += chunk.length;
    if (this.mayRelease()) this.quietly(() => this.release());
  }

  /**
   * Whether the oldest pending chunk may go: the lines after it will push it out, and COUNT_RUN_LINES
   * more wait (a run is counted), or too much is pending.
   */
  private mayRelease(): boolean {
    const front = this.pending[this.pendingHead];
    if (!front) return false;
    return this.pendingChars > this.maxChars || this.pendingNewlines - front.newlines >= this.maxLines + this.countRunLines;
  }

  /**
   * Lets pending chunks go, oldest first: those the lines after them push out are counted, in one
   * run; one that goes only because too much is pending is read.
   */
  private release(): void {
    const run: PendingOutput[] = [];
    while (this.pendingHead < this.pending.length) {
      const front = this.pending[this.pendingHead]!;
      const after = this.pendingNewlines - front.newlines;
      const tooMuch = this.pendingChars > this.maxChars;
      if (after < this.maxLines && !tooMuch) break;
      this.takePending();
      if (after >= this.maxLines) {
        run.push(front);
      } else {
        this.countRun(run);
        this.reader.read(front.text);
      }
    }
    this.countRun(run);
  }

  /** Counts chunks that went from pending together, as one stretch (emptying `run`). */
  private countRun(run: PendingOutput[]): void {
    if (run.length === 0) return;
    // A line runs over two chunks at most when every chunk ends one; then no line is longer than
    // the log wraps if no two neighbours together are.
    let newlines = 0;
    let shortLines = true;
    const chunks: string[] = [];
    const colourChars: Array<number | undefined> = [];
    for (let i = 0; i < run.length; i++) {
      newlines += run[i]!.newlines;
      shortLines &&= run[i]!.newlines > 0 && run[i]!.text.length + (run[i + 1]?.text.length ?? 0) <= this.maxLineChars;
      chunks.push(run[i]!.text);
      colourChars.push(run[i]!.colourChars);
    }
    run.length = 0;
    this.count(chunks, newlines, shortLines, colourChars);
  }

  /** Reads all pending output: before anything is asked of the log, or a listener is added. */
  private settle(): void {
    if (this.pendingHead === this.pending.length) return;
    this.quietly(() => {
      while (this.pendingHead < this.pending.length) this.reader.read(this.takePending().text);
    });
  }

  /** Pending output was written while no one listened: reading it tells no one. */
  private quietly(work: () => void): void {
    this.muted = true;
    try {
      work();
    } finally {
      this.muted = false;
    }
  }

  private takePending(): PendingOutput {
    const front = this.pending[this.pendingHead]!;
    this.pending[this.pendingHead++] = EMPTY_PENDING;
    this.pendingNewlines -= front.newlines;
    this.pendingChars -= front.text.length;
    if (this.pendingHead === this.pending.length) {
      this.pending = [];
      this.pendingHead = 0;
    } else if (this.pendingHead > 1024) {
      this.pending = this.pending.slice(this.pendingHead);
      this.pendingHead = 0;
    }
    return front;
  }

  /**
   * Output that enough later lines push out of memory, in consecutive chunks: counted when it
   * allows, else read. `newlines`: theirs in all; `shortLines`: no line of theirs is longer than
   * the log wraps (the caller knows it); `colourChars`: each chunk's sgrChars, where known.
   */
  private count(chunks: readonly string[], newlines: number, shortLines: boolean, colourChars: ReadonlyArray<number | undefined>): void {
    let first = 0;
    let from = 0;
    let lines = newlines;
    if (!this.reader.atLineStart) {
      // Its first line finishes the line under way: read as usual.
      let firstEnd = chunks[0]!.indexOf("\n");
      for (; firstEnd === -1; firstEnd = chunks[first]!.indexOf("\n")) {
        this.reader.read(chunks[first]!);
        if (++first === chunks.length) return;
      }
      this.reader.read(chunks[first]!.slice(0, firstEnd + 1));
      from = firstEnd + 1;
      lines--;
    }
    // Every line feed of the chunks but the one that finished the line under way lies before `end` in chunks[last].
    let last = chunks.length - 1;
    let end = chunks[last]!.lastIndexOf("\n") + 1;
    for (; end === 0 && last > first; end = chunks[last]!.lastIndexOf("\n") + 1) last--;
    const run = { chunks, first, from, last, end, colourChars };
    let runChars = end - from;
    for (let i = first; i < last; i++) runChars += chunks[i]!.length;
    const counted = this.headFull && this.reader.atLineStart && runChars > 0 ? countableRun(run, this.maxLineChars, shortLines || runChars <= this.maxLineChars ? lines : undefined) : undefined;
    if (!counted) {
      this.reader.read(from === 0 ? chunks[first]! : chunks[first]!.slice(from));
      for (let i = first + 1; i < chunks.length; i++) this.reader.read(chunks[i]!);
      return;
    }
    this.completed += counted.lines;
    this.committedChars += counted.chars;
    this.countedValue += counted.lines;
    // Every line kept so far is older than these, and the lines after them push those out too.
    this.lines = [];
    this.start = 0;
    this.keptChars = 0;
    this.firstKept = this.completed + 1;
    if (end < chunks[last]!.length) this.reader.read(chunks[last]!.slice(end));
    for (let i = last + 1; i < chunks.length; i++) this.reader.read(chunks[i]!);
  }

  /** Copies the last `count` kept lines (see detach). */
  private detachLast(count: number): void {
    for (let i = Math.max(this.start, this.lines.length - count); i < this.lines.length; i++) this.lines[i] = detach(this.lines[i]!);
  }

  /** Completes a line the log may keep as it is (see detach). */
  private commitLine(text: string): void {
    this.completed++;
    this.committedChars += text.length + 1;
    if (!this.headFull) {
      const room = this.headChars - this.head.length;
      if (text.length + 1 <= room) {
        this.head += text + "\n";
        this.headLines++;
      } else {
        // The first line alone may be longer than the head budget: keep its start.
        if (this.headLines === 0 && room > 0) this.head += text.slice(0, room);
        this.headFull = true;
        this.head = detach(this.head);
      }
    }
    this.lines.push(text);
    this.keptChars += text.length + 1;
    while (this.lines.length - this.start > 1 && (this.lines.length - this.start > this.maxLines || this.keptChars > this.maxChars)) {
      this.keptChars -= (this.lines[this.start] as string).length + 1;
      this.lines[this.start] = "";
      this.start++;
      this.firstKept++;
    }
    if (this.start > 1024 && this.start * 2 > this.lines.length) {
      this.lines = this.lines.slice(this.start);
      this.start = 0;
    }
    if (this.muted) return;
    for (const listener of this.lineListeners) listener.call(text, this.completed);
  }

  /**
   * Called with each line as it completes, from the next output on. `wanted` says whether the
   * listener wants lines now: while none does, lines are only counted when they can be (a listener
   * that only sometimes acts, a watch with no trigger, passes it).
   */
  onLine(listener: (line: string, lineNumber: number) => void, wanted: () => boolean = () => true): () => void {
    this.settle();
    const entry: LineListener = { call: listener, wanted };
    this.lineListeners = [...this.lineListeners, entry];
    return () => {
      this.lineListeners = this.lineListeners.filter((other) => other !== entry);
    };
  }

  /** Lines that were only counted, never read (see log-skip.ts). */
  get countedLines(): number {
    return this.countedValue;
  }

  /** Completed lines so far, including those no longer in memory. */
  get lineCount(): number {
    this.settle();
    return this.completed;
  }

  /** The absolute (1-based) number of the oldest completed line still in memory. */
  get firstKeptLine(): number {
    this.settle();
    return this.firstKept;
  }

  /** Nothing is half written: no partial line, no escape sequence under way. */
  get atLineStart(): boolean {
    this.settle();
    return this.reader.atLineStart;
  }

  /** The line being written (no newline yet), as it currently reads. */
  get partialLine(): string {
    this.settle();
    return this.reader.partial;
  }

  /** Characters of plain text produced so far, newlines included (kept or not). */
  get totalChars(): number {
    this.settle();
    return this.committedChars + this.reader.partial.length;
  }

  /** Characters held in memory: kept lines, the head, the partial line and output not read yet. */
  get retainedChars(): number {
    return this.keptChars + this.head.length + this.reader.partial.length + this.pendingChars;
  }

  /** True once any completed line has been dropped from memory. */
  get dropped(): boolean {
    this.settle();
    return this.firstKept > 1;
  }

  /** Completed line `lineNumber` (1-based) when still in memory. */
  lineAt(lineNumber: number): string | undefined {
    this.settle();
    if (lineNumber < this.firstKept || lineNumber > this.completed) return undefined;
    return this.lines[this.start + (lineNumber - this.firstKept)];
  }

  /** Kept completed lines with numbers in [from, to), clipped to what is in memory. */
  range(from: number, to: number): string[] {
    this.settle();
    const lo = Math.max(from, this.firstKept);
    const hi = Math.min(to, this.completed + 1);
    if (hi <= lo) return [];
    return this.lines.slice(this.start + (lo - this.firstKept), this.start + (hi - this.firstKept));
  }

  /** The last `count` lines, the partial line included as the last one when there is one. */
  tail(count: number): string[] {
    this.settle();
    if (count <= 0) return [];
    const partial = this.reader.partial.length > 0 ? [this.reader.partial] : [];
    const fromCompleted = count - partial.length;
    const lines = fromCompleted > 0 ? this.range(this.completed - fromCompleted + 1, this.completed + 1) : [];
    return [...lines, ...partial];
  }

  /** Everything in memory as text: kept lines joined, then the partial line. */
  keptText(): string {
    this.settle();
    const lines = this.range(this.firstKept, this.completed + 1);
    const body = lines.length > 0 ? lines.join("\n") + "\n" : "";
    return body + this.reader.partial;
  }

  /**
   * The whole output capped to `maxChars` characters and `maxBytes` bytes (by default a tool's body:
   * output-cap.ts), head and tail kept and the omission stated. When lines have already left
   * memory, the head comes from the kept beginning of the output.
   */
  capped(maxChars: number, maxBytes = bodyByteCapFor(maxChars)): CappedOutput {
    this.settle();
    if (!this.dropped) {
      const text = this.keptText();
      return capOutput(text.endsWith("\n") ? text.slice(0, -1) : text, maxChars, maxBytes);
    }
    return withinBytes(maxChars, maxBytes, (chars) => this.keptHeadAndTail(chars));
  }

  /** The kept beginning of the output and its newest lines, within `maxChars` characters. */
  private keptHeadAndTail(maxChars: number): CappedOutput {
    const headBudget = Math.floor(maxChars * 0.4);
    let head = this.head.slice(0, headBudget);
    const cut = head.lastIndexOf("\n");
    if (cut > headBudget * 0.5) head = head.slice(0, cut + 1);
    const headLineCount = countNewlines(head);
    const tailBudget = maxChars - head.length;
    const tailLines: string[] = [];
    let tailChars = 0;
    if (this.reader.partial.length > 0) {
      tailLines.push(this.reader.partial.slice(-tailBudget));
      tailChars += tailLines[0]!.length;
    }
    for (let n = this.completed; n >= this.firstKept && n > headLineCount; n--) {
      const text = this.lineAt(n) as string;
      if (tailChars + text.length + 1 > tailBudget) break;
      tailLines.unshift(text);
      tailChars += text.length + 1;
    }
    const total = this.totalChars;
    const omittedChars = Math.max(0, total - head.length - tailChars);
    const lastLineNumber = this.completed + (this.reader.partial.length > 0 ? 1 : 0);
    const omittedLines = Math.max(0, lastLineNumber - headLineCount - tailLines.length);
    const marker = `... [${omittedChars} characters, ${omittedLines} lines omitted] ...\n`;
    return {
      text: head + marker + tailLines.join("\n"),
      truncated: true,
      omittedChars,
      omittedLines,
      totalChars: total,
    };
  }
}

