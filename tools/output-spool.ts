// Collects a command's output for the model with bounded memory. Up to the cap everything stays in
// memory; past it the output goes to a temp file in the process's temp folder (written as it
// arrives, bounded to about 8 MB, provider keys redacted) and only the head and a rolling tail stay
// in memory, enough to build the same head+tail view `capOutput` gives.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { bodyByteCapFor, capOutput, countNewlines, headCutIndex, headTailBudgets, joinWithOmission, omittedLineCount, tailCutIndex, withinBytes } from "./output-cap.js";
import { BoundedOutputFile, DEFAULT_OUTPUT_FILE_MAX_CHARS } from "./output-file.js";
import { processTempFolder } from "./process/temp-folder.js";
import { Redactor } from "./redactor.js";

export interface OutputSpoolOptions {
  /** Where the full-output file goes: this process's temp folder by default. */
  dir?: string;
  /** Start of the file's name. */
  filePrefix?: string;
  /** Replaced by [redacted] in the file (the provider keys). */
  secrets?: readonly string[];
  /** The file keeps its first and last halves of this many characters. */
  fileMaxChars?: number;
}

export interface SpooledOutput {
  /** What the model reads: all of it, or head + omission marker + tail. */
  text: string;
  truncated: boolean;
  totalChars: number;
  omittedChars: number;
  omittedLines: number;
  /** 1-based line of the full output where the omitted part starts (when truncated). */
  firstOmittedLine?: number;
  /** The complete output, when it was longer than the cap and could be saved. */
  fullOutputPath?: string;
  /** Why the full output could not be saved, when that failed. */
  fullOutputError?: string;
}

export class OutputSpool {
  private pending: string[] = [];
  private pendingChars = 0;
  private spilled = false;
  private head = "";
  private tail = "";
  private totalChars = 0;
  private totalNewlines = 0;
  private file: BoundedOutputFile | undefined;
  private fileError: string | undefined;
  private readonly redactor: Redactor;

  constructor(
    private readonly maxChars: number,
    private readonly options: OutputSpoolOptions = {},
  ) {
    this.redactor = new Redactor(options.secrets);
  }

  write(chunk: string): void {
    if (chunk.length === 0) return;
    this.totalChars += chunk.length;
    this.totalNewlines += countNewlines(chunk);
    if (!this.spilled) {
      this.pending.push(chunk);
      this.pendingChars += chunk.length;
      if (this.pendingChars > this.maxChars) this.spill();
      return;
    }
    this.writeToFile(chunk);
    this.tail += chunk;
    // Trim now and then rather than on every chunk: keeps at least `maxChars` of tail.
    if (this.tail.length > 2 * this.maxChars) this.tail = this.tail.slice(-this.maxChars);
  }

  /**
   * What is in memory of the output so far, for a job that takes the command over: all of it, or
   * the head and the latest tail with a line naming the file that has the rest.
   */
  textSoFar(): string {
    if (!this.spilled) return this.pending.join("");
    // The head and the tail overlap while the output is shorter than both together.
    const tailLength = Math.min(this.tail.length, this.totalChars - this.head.length);
    const tail = this.tail.slice(this.tail.length - tailLength);
    const omitted = this.totalChars - this.head.length - tailLength;
    if (omitted === 0) return this.head + tail;
    const where = this.file !== undefined && this.fileError === undefined ? `; see ${this.file.path}` : "";
    return `${this.head}\n[... ${omitted} characters not kept here${where} ...]\n${tail}`;
  }

  /** Closes the temp file and returns the view for the model. Call once, after the last write. */
  finish(): SpooledOutput {
    this.closeFile();
    if (!this.spilled) {
      const capped = capOutput(this.pending.join(""), this.maxChars);
      return { text: capped.text, truncated: false, totalChars: this.totalChars, omittedChars: 0, omittedLines: 0 };
    }
    // Wide characters take up to four bytes each: the character budget shrinks until the bytes fit too.
    const view = withinBytes(this.maxChars, bodyByteCapFor(this.maxChars), (chars) => this.headAndTail(chars));
    return {
      ...view,
      truncated: true,
      totalChars: this.totalChars,
      ...(this.file !== undefined && this.fileError === undefined ? { fullOutputPath: this.file.path } : {}),
      ...(this.fileError !== undefined ? { fullOutputError: this.fileError } : {}),
    };
  }

  /** The kept head and tail within `chars` characters, with the marker between them. */
  private headAndTail(chars: number): { text: string; omittedChars: number; omittedLines: number; firstOmittedLine: number } {
    const budgets = headTailBudgets(chars);
    const headEnd = headCutIndex(this.head, budgets.head);
    const tailStartInTail = tailCutIndex(this.tail, budgets.tail);
    const keptHead = this.head.slice(0, headEnd);
    const keptTail = this.tail.slice(tailStartInTail);
    const tailStart = this.totalChars - this.tail.length + tailStartInTail;
    const omittedChars = tailStart - headEnd;
    const headNewlines = countNewlines(keptHead);
    // The left-out part ends at a line end when the kept tail starts a line.
    const endsAtLineEnd = tailStartInTail > 0 && this.tail[tailStartInTail - 1] === "\n";
    const omittedLines = omittedLineCount(this.totalNewlines - headNewlines - countNewlines(keptTail), endsAtLineEnd);
    return { text: joinWithOmission(keptHead, keptTail, omittedChars, omittedLines), omittedChars, omittedLines, firstOmittedLine: headNewlines + 1 };
  }

  /** Closes the temp file without building a result (for error paths). */
  dispose(): void {
    this.closeFile();
  }

  private spill(): void {
    const all = this.pending.join("");
    this.pending = [];
    this.pendingChars = 0;
    this.spilled = true;
    this.head = all.slice(0, this.maxChars);
    this.tail = all.slice(-this.maxChars);
    try {
      const dir = this.options.dir ?? processTempFolder();
      const name = `${this.options.filePrefix ?? "output-"}${Date.now()}-${randomBytes(4).toString("hex")}.log`;
      this.file = new BoundedOutputFile(join(dir, name), this.options.fileMaxChars ?? DEFAULT_OUTPUT_FILE_MAX_CHARS);
      this.fileError = this.file.error;
    } catch (error) {
      this.fileError = (error as Error).message;
      return;
    }
    this.writeToFile(all);
  }

  private writeToFile(text: string): void {
    if (this.file === undefined || this.fileError !== undefined) return;
    this.file.write(this.redactor.push(text));
    this.fileError = this.file.error;
  }

  private closeFile(): void {
    if (this.file === undefined || this.fileError !== undefined) return;
    this.file.write(this.redactor.flush());
    this.file.close();
    this.fileError = this.file.error;
  }
}
