// The digest of a stretch of a job's plain-text log, as poll_process and get_process_log return it:
// when asked to (`digest: true`), and by default when the raw text would not fit the output cap.
import type { PlainTextLog } from "../plain-text-log.js";
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
  const digest = buildDigest(lines, { firstLine: from, maxChars: Math.max(1_000, maxChars - FRAME_CHARS) });
  return `${digest.text}\n[Raw lines: get_process_log with jobId "${jobId}", offset and limit read lines ${from}–${to} as printed; digest: false asks for raw text instead of a digest.]`;
}

/** Why the text is a digest: asked for, or too long for the cap. */
export function digestReason(asked: boolean | undefined, rawChars: number, maxChars: number): string {
  return asked ? "as a digest" : `${rawChars.toLocaleString("en-US")} characters, more than the ${maxChars}-character cap, so as a digest`;
}
