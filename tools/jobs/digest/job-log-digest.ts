// The digest of a stretch of a job's plain-text log, as poll_process and get_process_log return it:
// when asked to (`digest: true`), and by default when the raw text would not fit the output cap.
import type { PlainTextLog } from "../log/plain-text-log.js";
import { byteCapFor } from "../../output-cap.js";
import { buildDigest } from "./log-digest.js";

/** Room kept for what a tool says around the digest (status header, next step). */
const FRAME_CHARS = 600;

/** The job tools' `digest` parameter's meaning: asked for, refused, or decided by size. */
export function wantsDigest(asked: boolean | undefined, rawChars: number, maxChars: number): boolean {
  return asked ?? rawChars > maxChars;
}

/** Lines from…to of the log, the line being written counting as the one after the last completed line. */
export function logLines(log: PlainTextLog, from: number, to: number): string[] {
  const lines = log.range(from, Math.min(to, log.lineCount) + 1);
  if (to > log.lineCount && log.partialLine.length > 0) lines.push(log.partialLine);
  return lines;
}

/** A digest of log lines from…to (`lines`), followed by how to read them raw. */
export function digestOfLines(lines: readonly string[], jobId: string, from: number, to: number, maxChars: number): string {
  // Within the character cap and, for text of wide characters, the byte cap every result keeps.
  const byteCap = byteCapFor(maxChars) - FRAME_CHARS * 4;
  let budget = Math.max(1_000, maxChars - FRAME_CHARS);
  let digest = buildDigest(lines, { firstLine: from, maxChars: budget });
  for (let tries = 0; tries < 3 && budget > 1_000; tries++) {
    const bytes = Buffer.byteLength(digest.text);
    if (bytes <= byteCap) break;
    budget = Math.max(1_000, Math.floor((budget * byteCap) / bytes) - 200);
    digest = buildDigest(lines, { firstLine: from, maxChars: budget });
  }
  return `${digest.text}\n[Raw lines: get_process_log with jobId "${jobId}", offset and limit read lines ${from}–${to} as printed; digest: false asks for raw text instead of a digest.]`;
}

/** Why the text is a digest: asked for, or too long for the cap. */
export function digestReason(asked: boolean | undefined, rawChars: number, maxChars: number): string {
  return asked ? "as a digest" : `${rawChars.toLocaleString("en-US")} characters, more than the ${maxChars}-character cap, so as a digest`;
}

/** The digest of everything a job printed that is still in memory (bash_stream's result past the cap). */
export function digestOfLog(log: PlainTextLog, jobId: string, asked: boolean | undefined, maxChars: number): string {
  const from = log.firstKeptLine;
  const to = log.lineCount + (log.partialLine.length > 0 ? 1 : 0);
  const gone = from > 1 ? ` Lines 1–${from - 1} had already left memory.` : "";
  return `(${digestReason(asked, log.totalChars, maxChars)}.${gone})\n${digestOfLines(logLines(log, from, to), jobId, from, to, maxChars)}`;
}
