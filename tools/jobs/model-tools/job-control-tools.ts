// The tools that act on one running job: poll_process (read what is new, or the final result),
// write_stdin (type into it) and kill_process (stop it).
import { Type } from "@sinclair/typebox";
import { capOutput } from "../../output-cap.js";
import { commandEnd, completedDetails, fenceNote, lastLinesText, nextStep, runningDetails, statusHeader, type JobDetails } from "./job-result.js";
import { failed } from "../format.js";
import { readSince } from "../log/job-output-reader.js";
import { digestOfLines, digestReason, logLines, wantsDigest } from "../digest/job-log-digest.js";
import { clamp, MAX_STDIN_BYTES, type JobSettings } from "../settings.js";
import { waitForJob } from "./job-wait.js";
import type { Job } from "../process/job.js";
import type { AgentTool, ToolCallContext, ToolDefinition, ToolResult } from "../../tool.js";
import type { ToolJobs } from "./tool-jobs.js";

export const DEFAULT_DRAIN_MS = 1_000;
export const MAX_DRAIN_MS = 120_000;
/** After the first new output, how long to keep gathering the rest of the burst. */
const SETTLE_MS = 150;
/** write_stdin waits this long for the job's answer. */
const WRITE_ANSWER_MS = 1_000;

const jobId = Type.String({ description: 'The job id bash_stream or list_processes gave, e.g. "3".' });

export const digestParameter = Type.Optional(
  Type.Boolean({
    description:
      "true: return the new output as a digest (errors and warnings first, stack traces whole, repeated and similar lines folded, line numbers to fetch the raw text). false: raw text, head and tail when over the cap. Default: raw when it fits the cap, a digest when it does not.",
  }),
);

/** Waits up to `waitMs` for output past the job's poll cursor, or its exit; the job is left alone. */
async function waitForNewOutput(job: Job, waitMs: number, signal: AbortSignal, context: ToolCallContext): Promise<void> {
  if (!job.running || waitMs <= 0) return;
  await waitForJob(job, {
    timeoutMs: waitMs,
    signal,
    yieldSignal: context.yieldSignal,
    newOutputAfter: job.pollCursor,
    settleMs: SETTLE_MS,
  });
}

/**
 * What is new past the job's poll cursor (advancing it), with the job's status; a finished job's
 * result carries its final status and is marked delivered.
 */
export function readNewOutput(job: Job, maxChars: number, digest?: boolean): ToolResult<JobDetails> {
  const hadEarlier = job.pollCursor.line > 1 || job.pollCursor.partial.length > 0;
  const fresh = readSince(job.log, job.pollCursor);
  job.pollCursor = fresh.cursor;
  const parts = [statusHeader(job)];
  if (fresh.missedLines > 0) {
    parts.push(`[${fresh.missedLines} lines were printed and dropped from memory before this read.]`);
  }
  if (fresh.text.length > 0) {
    const where = fresh.fromLine === fresh.toLine ? `line ${fresh.fromLine}` : `lines ${fresh.fromLine}–${fresh.toLine}`;
    if (wantsDigest(digest, fresh.text.length, maxChars)) {
      parts.push(`New output (${where}, ${digestReason(digest, fresh.text.length, maxChars)}):\n${digestOfLines(logLines(job.log, fresh.fromLine, fresh.toLine), job.id, fresh.fromLine, fresh.toLine, maxChars)}`);
    } else {
      const capped = capOutput(fresh.text.replace(/\n$/, ""), maxChars);
      parts.push(`New output (${where}):\n${capped.text}`);
      if (capped.truncated) parts.push(`[Cut to head and tail. get_process_log with jobId "${job.id}" reads any line still in memory.]`);
    }
  } else {
    parts.push(hadEarlier ? "No new output since the last read." : "No output yet.");
  }
  const fenced = fenceNote(job);
  if (fenced) parts.push(fenced.slice(1));
  if (job.running) {
    parts.push(nextStep(job));
    return { content: parts.join("\n"), details: runningDetails(job) };
  }
  job.finalDelivered = true;
  if (hadEarlier) parts.push(`Earlier output was returned before; get_process_log with jobId "${job.id}" shows the whole log.`);
  return { content: parts.join("\n"), details: completedDetails(job, maxChars), command: commandEnd(job), isError: failed(job.info) };
}

function lookup(registry: ToolJobs, id: string): Job {
  const job = registry.get(id);
  if (job) return job;
  const known = registry.list().map((j) => j.id);
  throw new Error(`No job with id "${id}". ${known.length > 0 ? `Known jobs: ${known.join(", ")}.` : "There are no jobs."} list_processes shows them.`);
}

export const pollParameters = Type.Object({
  jobId,
  killIf: Type.Optional(
    Type.Union([Type.Literal("always"), Type.Literal("timeout")], {
      description: '"always": stop the job after reading. "timeout": stop it if it is still running when the wait ends.',
    }),
  ),
  maxDrainMs: Type.Optional(
    Type.Number({ description: `How long to wait for new output when there is none yet (ms, 0–${MAX_DRAIN_MS}, default ${DEFAULT_DRAIN_MS}).` }),
  ),
  digest: digestParameter,
});

export function pollProcessDefinition(settings: JobSettings): ToolDefinition<typeof pollParameters> {
  return {
    name: "poll_process",
    label: "Poll job",
    description: [
      "Read what a background job printed since the last read (poll_process or write_stdin), or its final status, exit code and output once it has exited.",
      `When nothing new is there yet it waits up to maxDrainMs (default ${DEFAULT_DRAIN_MS} ms, up to ${MAX_DRAIN_MS} ms) and returns as soon as output appears or the job exits: to wait for a slow step, pass a larger maxDrainMs instead of polling in a loop.`,
      `New output is plain text; past ${settings.maxOutputChars} characters it comes as a digest (errors and warnings first, stack traces whole, repeats folded, with line numbers for get_process_log) unless digest is false (then head and tail). killIf "always" stops the job after reading; killIf "timeout" stops it if it is still running when the wait ends.`,
    ].join("\n"),
    parameters: pollParameters,
  };
}

export function createPollProcessTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof pollParameters, JobDetails> {
  return {
    ...pollProcessDefinition(settings),
    async execute(_toolCallId, params, signal, _onUpdate, context) {
      const job = lookup(registry, params.jobId);
      const waitMs = clamp(Math.floor(params.maxDrainMs ?? DEFAULT_DRAIN_MS), 0, MAX_DRAIN_MS);
      if (params.killIf !== "always") await waitForNewOutput(job, waitMs, signal, context);
      let note = "";
      if (params.killIf !== undefined && job.running) {
        await registry.kill(job.id, { by: "agent" });
        note = params.killIf === "always" ? "Stopped as asked (killIf \"always\").\n" : "Still running when the wait ended, so it was stopped (killIf \"timeout\").\n";
      }
      const result = readNewOutput(job, settings.maxOutputChars, params.digest);
      return { ...result, content: note + result.content };
    },
  };
}

export const writeStdinParameters = Type.Object({
  jobId,
  data: Type.String({
    description: 'Text to send as typed. End a line with "\\n". Control keys pass through as escape codes, e.g. "\\u0003" for Ctrl+C in a pty job.',
  }),
  eof: Type.Optional(Type.Boolean({ description: "After the data, end the input: closes stdin (pipe) or sends Ctrl+D (pty)." })),
});

export function writeStdinDefinition(): ToolDefinition<typeof writeStdinParameters> {
  return {
    name: "write_stdin",
    label: "Type into job",
    description: [
      "Send input to a running background job, as if typed: answers to prompts (y/n, a 2FA code), commands for a REPL, or Ctrl+C (\"\\u0003\") to a pty job. eof: true ends the input afterwards.",
      `Waits up to ${WRITE_ANSWER_MS} ms for the job's answer and returns the new output like poll_process. A job takes at most ${MAX_STDIN_BYTES / 1024} KiB of input over its life; feed more through a file. Fails for an unknown or finished job.`,
    ].join("\n"),
    parameters: writeStdinParameters,
  };
}

export function createWriteStdinTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof writeStdinParameters, JobDetails> {
  return {
    ...writeStdinDefinition(),
    async execute(_toolCallId, params, signal, _onUpdate, context) {
      const job = lookup(registry, params.jobId);
      registry.write(job.id, params.data, { eof: params.eof ?? false, by: "agent" });
      const bytes = Buffer.byteLength(params.data, "utf8");
      const sent = `Sent ${bytes} bytes to job ${job.id}${params.eof ? " and ended its input" : ""}.`;
      await waitForNewOutput(job, WRITE_ANSWER_MS, signal, context);
      const result = readNewOutput(job, settings.maxOutputChars);
      return { ...result, content: `${sent}\n${result.content}` };
    },
  };
}

const signalNames = ["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"] as const;

export const killParameters = Type.Object({
  jobId,
  signal: Type.Optional(
    Type.Union(
      signalNames.map((name) => Type.Literal(name)),
      { description: "Send only this signal to the job's process group instead of TERM-then-KILL." },
    ),
  ),
});

export function killProcessDefinition(settings: JobSettings): ToolDefinition<typeof killParameters> {
  return {
    name: "kill_process",
    label: "Stop job",
    description: `Stop a background job: TERM to its whole process group, then KILL after ${settings.killGraceMs} ms if anything is left. With signal, sends only that signal (e.g. SIGINT for a graceful stop) and reports whether the job ended. Returns the final status and last lines.`,
    parameters: killParameters,
  };
}

export function createKillProcessTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof killParameters, JobDetails> {
  return {
    ...killProcessDefinition(settings),
    async execute(_toolCallId, params) {
      const job = lookup(registry, params.jobId);
      const wasRunning = job.running;
      const info = await registry.kill(job.id, { ...(params.signal !== undefined ? { signal: params.signal } : {}), by: "agent" });
      const header = statusHeader(job);
      if (info.status === "running") {
        return {
          content: `${header}\nIt is still running after ${params.signal}. Call kill_process without signal to stop it for sure.\n${lastLinesText(job)}`,
          details: runningDetails(job),
        };
      }
      job.finalDelivered = true;
      const note = wasRunning ? "" : "\nIt had already ended before this call.";
      return {
        content: `${header}${note}\n${lastLinesText(job)}`,
        details: completedDetails(job, settings.maxOutputChars),
        command: commandEnd(job),
      };
    },
  };
}
