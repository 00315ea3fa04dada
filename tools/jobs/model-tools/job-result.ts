// How the job tools report a job to the model: a short header (status, id, pid, exit code,
// duration), the capped plain-text output, and, while the job runs on, the exact next step. `details`
// carries the streaming-exec seed's structured object for the UI and the session file.
import type { Job } from "../process/job.js";
import { describeStatus, failed, formatDuration, lastLines, runtime, shortCommand } from "../format.js";
import type { ToolResult } from "../../tool.js";
import type { CommandEnd } from "../../command-end.js";
import type { PlainTextLog } from "../log/plain-text-log.js";
import { digestOfLog, wantsDigest } from "../digest/job-log-digest.js";
import { bodyByteCapFor } from "../../output-cap.js";
import { fenceNoteForModel } from "../../sandbox/index.js";

export interface CompletedJobDetails {
  status: "completed" | "failed";
  jobId: string;
  pid: number;
  /** null when a signal ended the job. */
  exitCode: number | null;
  signal?: string;
  /** Capped like the model's view; in pty mode both streams arrive as one, so all of it is stdout. */
  stdout: string;
  stderr: string;
  aggregated: string;
  durationMs: number;
  /** True when any of the strings above was cut. */
  truncated: boolean;
}

export interface RunningJobDetails {
  status: "running";
  jobId: string;
  pid: number;
  startedAt: number;
  /** The last lines of plain-text output. */
  tail: string;
}

export type JobDetails = CompletedJobDetails | RunningJobDetails;

const TAIL_LINES = 20;
const TAIL_CHARS = 2_000;

/** The last lines of a job's output, at most about 2 000 characters. */
export function tailText(log: PlainTextLog): string {
  const text = log.tail(TAIL_LINES).join("\n");
  return text.length > TAIL_CHARS ? "…" + text.slice(text.length - TAIL_CHARS) : text;
}

/** "Job 3 (pid 4242) exited with code 1 after 4.2s: npm test" */
export function statusHeader(job: Job): string {
  const info = job.info;
  const when = info.status === "running" ? `has been running for ${formatDuration(runtime(info))}` : `${describeStatus(info)} after ${formatDuration(runtime(info))}`;
  return `Job ${job.id} (pid ${job.pid}) ${when}: ${shortCommand(job.command)}`;
}

/** What the fence stopped the job doing that the model has not been told yet, as a paragraph ("" when nothing). */
export function fenceNote(job: Job): string {
  const hits = job.takeUntoldFenceHits();
  return hits.length > 0 ? `\n${fenceNoteForModel(hits)}` : "";
}

/** A note the model can act on when lines were cut or have left memory. */
export function pagingHint(job: Job, truncated: boolean): string {
  if (!truncated && !job.log.dropped) return "";
  const first = job.log.firstKeptLine;
  const last = job.log.lineCount + (job.log.partialLine.length > 0 ? 1 : 0);
  const kept = first > 1 ? ` Lines ${first}–${last} are in memory; earlier lines were dropped.` : "";
  return `\n[Output was cut to head and tail.${kept} Use get_process_log with jobId "${job.id}" and offset/limit to read specific lines.]`;
}

export function completedDetails(job: Job, maxOutputChars: number): CompletedJobDetails {
  const info = job.info;
  const aggregated = job.log.capped(maxOutputChars);
  const stdout = job.stdoutLog ? job.stdoutLog.capped(maxOutputChars) : aggregated;
  const stderr = job.stderrLog ? job.stderrLog.capped(maxOutputChars) : undefined;
  const details: CompletedJobDetails = {
    status: failed(info) ? "failed" : "completed",
    jobId: job.id,
    pid: job.pid,
    exitCode: info.status === "exited" ? (info.exitCode ?? 0) : null,
    stdout: stdout.text,
    stderr: stderr?.text ?? "",
    aggregated: aggregated.text,
    durationMs: runtime(info),
    truncated: aggregated.truncated || stdout.truncated || (stderr?.truncated ?? false),
  };
  if (info.signal !== undefined) details.signal = info.signal;
  return details;
}

/**
 * The whole output, as a digest past the cap (unless `digest` is false); else capped: a pipe job's
 * shows stdout and stderr apart (each with half the budget when both printed), a pty job has one
 * stream. The hint says how to read what was cut.
 */
function outputText(job: Job, maxOutputChars: number, digest: boolean | undefined): { body: string; hint: string } {
  if (wantsDigest(digest, job.log.totalChars, maxOutputChars)) return { body: digestOfLog(job.log, job.id, digest, maxOutputChars), hint: "" };
  const { body, truncated } = outputBody(job, maxOutputChars);
  return { body, hint: pagingHint(job, truncated) };
}

function outputBody(job: Job, maxOutputChars: number): { body: string; truncated: boolean } {
  if (job.stdoutLog && job.stderrLog && job.stderrLog.totalChars > 0) {
    // Each stream gets half of the characters and half of the bytes when both printed.
    const both = job.stdoutLog.totalChars > 0;
    const budget = both ? Math.floor(maxOutputChars / 2) : maxOutputChars;
    const bytes = both ? Math.floor(bodyByteCapFor(maxOutputChars) / 2) : bodyByteCapFor(maxOutputChars);
    const out = job.stdoutLog.capped(budget, bytes);
    const err = job.stderrLog.capped(budget, bytes);
    const parts = [];
    if (job.stdoutLog.totalChars > 0) parts.push(`stdout:\n${out.text}`);
    parts.push(`stderr:\n${err.text}`);
    return { body: parts.join("\n"), truncated: out.truncated || err.truncated };
  }
  const all = job.log.capped(maxOutputChars);
  return { body: all.text.length > 0 ? all.text : "(no output)", truncated: all.truncated };
}

/** A finished job's full result, as bash_stream returns it. Marks the final status as delivered. */
export function finalResult(job: Job, maxOutputChars: number, digest?: boolean): ToolResult<CompletedJobDetails> {
  job.finalDelivered = true;
  const { body, hint } = outputText(job, maxOutputChars, digest);
  return {
    content: `${statusHeader(job)}\n${body}${hint}${fenceNote(job)}`,
    details: completedDetails(job, maxOutputChars),
    command: commandEnd(job),
    isError: failed(job.info),
  };
}

/** How a finished job ended, for the UI. */
export function commandEnd(job: Job): CommandEnd {
  const info = job.info;
  return { exitCode: info.exitCode ?? null, ...(info.signal !== undefined ? { signal: info.signal } : {}) };
}

export function runningDetails(job: Job): RunningJobDetails {
  return { status: "running", jobId: job.id, pid: job.pid, startedAt: job.startedAt, tail: tailText(job.log) };
}

/** What to do next with a job that runs on. */
export function nextStep(job: Job): string {
  return `Job ${job.id} is still running in the background. Use poll_process with jobId "${job.id}" to read new output or get its final result, write_stdin to type into it, kill_process to stop it.`;
}

/** A job that is still running after bash_stream's wait: everything so far, capped, then the next step. */
export function runningResult(job: Job, maxOutputChars: number, why: string, digest?: boolean): ToolResult<RunningJobDetails> {
  const { body, hint } = outputText(job, maxOutputChars, digest);
  return {
    content: `${statusHeader(job)}\n${why}\nOutput so far:\n${body}${hint}${fenceNote(job)}\n${nextStep(job)}`,
    details: runningDetails(job),
    runningJob: job.id,
  };
}

/** The last lines, for results that only need a reminder of where the job got to. */
export function lastLinesText(job: Job, count = 10): string {
  const lines = lastLines(job.log, count);
  return lines.length > 0 ? `Last lines:\n${lines.join("\n")}` : "It printed nothing.";
}
