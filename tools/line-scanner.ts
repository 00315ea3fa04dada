// Streams a text file line by line with bounded memory: each line arrives as its first `keepChars`
// characters plus its full length, so a 50 MB minified line costs no more than a short one.
import { createReadStream } from "node:fs";

export interface ScannedLine {
  /** 1-based. */
  number: number;
  /** At most `keepChars` characters, without the line ending (LF or CRLF). */
  text: string;
  /** Full length in characters, without the line ending. */
  length: number;
}

/**
 * Calls `onLine` for every line of `path` and resolves to the number of lines (a final line without
 * a newline counts; an empty file has 0). A leading UTF-8 byte-order mark is dropped. Rejects with
 * the stream's AbortError when `signal` fires.
 */
export async function scanLines(
  path: string,
  keepChars: number,
  onLine: (line: ScannedLine) => void,
  signal?: AbortSignal,
): Promise<number> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: 256 * 1024, signal });
  let kept = "";
  let length = 0;
  let lastChar = "";
  let lineNumber = 0;
  let first = true;
  const emit = (): void => {
    lineNumber++;
    let text = kept;
    let full = length;
    if (lastChar === "\r") {
      full--;
      if (text.length > full) text = text.slice(0, full);
    }
    onLine({ number: lineNumber, text, length: full });
    kept = "";
    length = 0;
    lastChar = "";
  };
  for await (const raw of stream as AsyncIterable<string>) {
    let chunk = raw;
    if (first) {
      first = false;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf("\n", start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) {
        if (kept.length < keepChars) kept += chunk.slice(start, Math.min(end, start + keepChars - kept.length));
        length += end - start;
        lastChar = chunk[end - 1] ?? "";
      }
      if (newline === -1) break;
      emit();
      start = newline + 1;
    }
  }
  if (length > 0) emit();
  return lineNumber;
}
