// Streams a text file line by line with bounded memory: each line arrives as its first `keepChars`
// characters plus its full length, so a 50 MB minified line costs no more than a short one. Once
// the caller has the lines it wants, the rest is only counted, in raw bytes: a line feed is one
// byte in UTF-8 and never part of another character, and decoding the rest of a large file cost
// ten times what counting it does.
import { createReadStream } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { countNewlines } from "./output-cap.js";

export interface ScannedLine {
  /** 1-based. */
  number: number;
  /** At most `keepChars` characters, without the line ending (LF or CRLF). */
  text: string;
  /** Full length in characters, without the line ending. */
  length: number;
}

const LF = 0x0a;

/**
 * Calls `onLine` for every line of `path` while it returns true, and resolves to the number of
 * lines (a final line without a newline counts; an empty file has 0). A leading UTF-8 byte-order
 * mark is dropped. Rejects with the stream's AbortError when `signal` fires.
 */
export async function scanLines(
  path: string,
  keepChars: number,
  onLine: (line: ScannedLine) => boolean,
  signal?: AbortSignal,
): Promise<number> {
  const stream = createReadStream(path, { highWaterMark: 256 * 1024, signal });
  const decoder = new StringDecoder("utf8");
  let kept = "";
  let length = 0;
  let lastChar = "";
  let lineNumber = 0;
  let first = true;
  /** Set once onLine wants no more: from then on, lines are counted in raw bytes. */
  let counting = false;
  /** While counting: something follows the last line feed (a last line without one). */
  let tail = false;
  const emit = (): void => {
    lineNumber++;
    let text = kept;
    let full = length;
    if (lastChar === "\r") {
      full--;
      if (text.length > full) text = text.slice(0, full);
    }
    counting = !onLine({ number: lineNumber, text, length: full });
    kept = "";
    length = 0;
    lastChar = "";
  };
  /** Reads decoded text into lines until onLine wants no more; then counts the rest of it. */
  const readText = (text: string): void => {
    let chunk = text;
    if (first && chunk.length > 0) {
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
      if (counting) {
        lineNumber += countNewlines(chunk.slice(start));
        // An incomplete character the decoder holds is part of the last line too.
        tail = chunk.lastIndexOf("\n") + 1 < chunk.length || decoder.end().length > 0;
        return;
      }
    }
  };
  for await (const bytes of stream as AsyncIterable<Buffer>) {
    if (!counting) {
      readText(decoder.write(bytes));
      continue;
    }
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) lineNumber++;
    if (bytes.length > 0) tail = bytes[bytes.length - 1] !== LF;
  }
  if (!counting) readText(decoder.end());
  if (counting) return lineNumber + (tail ? 1 : 0);
  if (length > 0) emit();
  return lineNumber;
}
