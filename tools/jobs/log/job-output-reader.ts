// Reads what a job printed since a reader last looked: poll_process and write_stdin each advance one
// cursor per job so the model never reads the same lines twice. A line delivered while it was still
// being written (a prompt without a newline) continues from where it was cut, unless it has since
// been overwritten (a `\r` progress line), in which case it is given again as it now reads.
import type { PlainTextLog } from "./plain-text-log.js";

/** Where a reader has got to in a job's plain-text log (see poll_process). */
export interface LogCursor {
  /** The next completed line not yet delivered. */
  line: number;
  /** What was delivered of that line while it was still partial. */
  partial: string;
}

export interface NewOutput {
  text: string;
  /** Where the next read starts. */
  cursor: LogCursor;
  /** Completed lines the reader missed because they left memory before it looked. */
  missedLines: number;
  /** The first and last line numbers covered (0 when nothing new). */
  fromLine: number;
  toLine: number;
}

export function readSince(log: PlainTextLog, cursor: LogCursor): NewOutput {
  const completed = log.lineCount;
  const partial = log.partialLine;
  let line = cursor.line;
  let missedLines = 0;
  if (line < log.firstKeptLine) {
    missedLines = log.firstKeptLine - line;
    line = log.firstKeptLine;
  }
  const pieces: string[] = [];
  let fromLine = 0;
  let toLine = 0;
  if (line <= completed) {
    const lines = log.range(line, completed + 1);
    if (missedLines === 0 && cursor.partial.length > 0 && lines.length > 0 && lines[0]!.startsWith(cursor.partial)) {
      lines[0] = lines[0]!.slice(cursor.partial.length);
    }
    pieces.push(lines.join("\n") + "\n");
    fromLine = line;
    toLine = completed;
  }
  let nextPartial = "";
  if (partial.length > 0) {
    const samePartialLine = line > completed && missedLines === 0;
    if (samePartialLine && cursor.partial.length > 0 && partial.startsWith(cursor.partial)) {
      if (partial.length > cursor.partial.length) pieces.push(partial.slice(cursor.partial.length));
    } else {
      pieces.push(partial);
    }
    if (pieces.length > 0 && fromLine === 0) fromLine = completed + 1;
    if (pieces.length > 0) toLine = completed + 1;
    nextPartial = partial;
  }
  return {
    text: pieces.join(""),
    cursor: { line: completed + 1, partial: nextPartial },
    missedLines,
    fromLine,
    toLine,
  };
}

/** True when something was printed after `cursor`. */
export function hasNewOutput(log: PlainTextLog, cursor: LogCursor): boolean {
  return log.lineCount + 1 > cursor.line || log.partialLine !== cursor.partial;
}

/** A cursor past everything printed so far. */
export function endCursor(log: PlainTextLog): LogCursor {
  return { line: log.lineCount + 1, partial: log.partialLine };
}
