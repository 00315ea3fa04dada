// The full output of a command, saved to a file of bounded size: the first half of the budget as it
// arrives, the last half as a rolling tail in memory written at the end, and between them one line
// saying how much was dropped. A `yes` left running for an hour costs the same 8 MB as one that ran
// for a second.
import { closeSync, openSync, writeSync } from "node:fs";
import { countNewlines } from "./output-cap.js";

export const DEFAULT_OUTPUT_FILE_MAX_CHARS = 8 * 1024 * 1024;

export class BoundedOutputFile {
  private fd: number | undefined;
  private headLeft: number;
  private readonly tailMax: number;
  private tail: string[] = [];
  private tailChars = 0;
  private droppedChars = 0;
  private droppedLines = 0;
  private errorMessage: string | undefined;

  /** Opens (creates, mode 0600) `path`; check `error` afterwards. */
  constructor(
    readonly path: string,
    private readonly maxChars: number = DEFAULT_OUTPUT_FILE_MAX_CHARS,
  ) {
    this.headLeft = Math.floor(maxChars / 2);
    this.tailMax = maxChars - this.headLeft;
    try {
      this.fd = openSync(path, "w", 0o600);
    } catch (error) {
      this.errorMessage = (error as Error).message;
    }
  }

  /** Why the file could not be written, if it could not. */
  get error(): string | undefined {
    return this.errorMessage;
  }

  write(text: string): void {
    if (this.fd === undefined || text.length === 0) return;
    if (this.headLeft > 0) {
      const head = text.slice(0, this.headLeft);
      this.headLeft -= head.length;
      this.writeNow(head);
      text = text.slice(head.length);
      if (text.length === 0) return;
    }
    this.tail.push(text);
    this.tailChars += text.length;
    while (this.tailChars > this.tailMax) {
      const first = this.tail[0]!;
      const excess = this.tailChars - this.tailMax;
      let dropped: string;
      if (excess >= first.length) {
        dropped = first;
        this.tail.shift();
      } else {
        dropped = first.slice(0, excess);
        this.tail[0] = first.slice(excess);
      }
      this.tailChars -= dropped.length;
      this.droppedChars += dropped.length;
      this.droppedLines += countNewlines(dropped);
    }
  }

  /** Writes the tail (after a line naming what was dropped) and closes the file. */
  close(): void {
    if (this.fd === undefined) return;
    if (this.droppedChars > 0) {
      this.writeNow(
        `\n[... pitwall dropped ${this.droppedChars} characters (${this.droppedLines} line breaks) here to keep this file to about ${(this.maxChars / 1024 / 1024).toFixed(0)} MB: the start and the end of the output are kept ...]\n`,
      );
    }
    for (const piece of this.tail) this.writeNow(piece);
    this.tail = [];
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // Closing a file we wrote can only fail if it is already closed.
      }
      this.fd = undefined;
    }
  }

  private writeNow(text: string): void {
    if (this.fd === undefined) return;
    try {
      writeSync(this.fd, text);
    } catch (error) {
      this.errorMessage = (error as Error).message;
      try {
        closeSync(this.fd);
      } catch {
        // Already closed.
      }
      this.fd = undefined;
    }
  }
}
