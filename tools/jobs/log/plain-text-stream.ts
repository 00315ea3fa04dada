// A command's raw output as the plain text a terminal would leave, streamed: escape sequences
// dropped, `\r` frames of a progress bar collapsed to their last state, backspace and erase-line
// honoured. It is the renderer of the job logs (jobs/plain-text-log.ts), so a bash result reads the
// same as bash_stream's, and as what the person saw. Nothing is kept but the line being written.
import { PlainTextLog } from "./plain-text-log.js";

/** Anything but printable text and LF (CR included): such a chunk needs the renderer. */
const NOT_PLAIN = /[\x00-\x09\x0b-\x1f\x7f-\x9f]/;
/** A line this long is broken, as the job logs break theirs, so an endless one stays bounded. */
const MAX_LINE_CHARS = 1 << 20;

export class PlainTextStream {
  private readonly log = new PlainTextLog({ maxLines: 1, maxChars: 1, headChars: 0, maxLineChars: MAX_LINE_CHARS });
  private lines: string[] = [];

  /** `sink` gets the text of whole lines (newlines included) as they complete, then the unfinished last line at `end()`. */
  constructor(private readonly sink: (text: string) => void) {
    this.log.onLine((line) => this.lines.push(line));
  }

  write(chunk: string): void {
    if (NOT_PLAIN.test(chunk)) {
      this.log.write(chunk);
      this.flushLines();
      return;
    }
    // The common case of a flood: plain lines. Only the line the last chunk left unfinished goes
    // through the renderer (it may hold a \r frame); whole lines after it are already plain.
    let start = 0;
    if (!this.log.atLineStart) {
      const firstNewline = chunk.indexOf("\n");
      if (firstNewline === -1) {
        this.log.write(chunk);
        return;
      }
      this.log.write(chunk.slice(0, firstNewline + 1));
      this.flushLines();
      start = firstNewline + 1;
    }
    const lastNewline = chunk.lastIndexOf("\n");
    if (lastNewline >= start) this.sink(chunk.slice(start, lastNewline + 1));
    if (Math.max(lastNewline + 1, start) < chunk.length) this.log.write(chunk.slice(Math.max(lastNewline + 1, start)));
  }

  private flushLines(): void {
    if (this.lines.length === 0) return;
    this.sink(`${this.lines.join("\n")}\n`);
    this.lines = [];
  }

  /** The output has ended: the line still being written, if it has text, goes out as it stands. */
  end(): void {
    const partial = this.log.partialLine;
    if (partial !== "") this.sink(partial);
  }
}
