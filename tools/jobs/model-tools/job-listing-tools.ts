// The tools that look at jobs without touching them: list_processes (every job, running or recently
// finished) and get_process_log (a job's plain-text log, paged by lines).
import { Type } from "@sinclair/typebox";
import { bodyByteCapFor, capOutput, quoteCap } from "../../output-cap.js";
import type { JobInfo, JobStarter, TriggerInfo } from "../events.js";
import { describeStatus, formatDuration, lastLines, runtime, shortCommand } from "../format.js";
import { clamp, type JobSettings } from "../settings.js";
import { digestOfLines, digestReason, logLines, wantsDigest } from "../digest/job-log-digest.js";
import { describeTrigger } from "../watch/watch-params.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import type { ToolJobs } from "./tool-jobs.js";

export interface JobListDetails {
  jobs: (JobInfo & { runtimeMs: number; lastLine: string; triggers: TriggerInfo[] })[];
}

export const listParameters = Type.Object({});

export function listProcessesDefinition(settings: JobSettings): ToolDefinition<typeof listParameters> {
  return {
    name: "list_processes",
    label: "List jobs",
    description: `List background jobs: running ones and those finished in the last ${formatDuration(settings.ttlMs)}, with id, status, exit code or signal, runtime, who started it (you, the person, or another agent of the dashboard: you may read its jobs, not stop them), command, last output line and watch triggers.`,
    parameters: listParameters,
  };
}

export function createListProcessesTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof listParameters, JobListDetails> {
  return {
    ...listProcessesDefinition(settings),
    async execute() {
      const jobs = registry.list();
      if (jobs.length === 0) return { content: "No background jobs.", details: { jobs: [] } };
      const now = Date.now();
      const rows = jobs.map((job) => {
        const info = job.info;
        const last = lastLines(job.log, 1, 160)[0] ?? "";
        return { info, last, runtimeMs: runtime(info, now), triggers: registry.watches.list(job.id) };
      });
      const lines = rows.map(({ info, last, runtimeMs, triggers }) => {
        const owner = registry.ownerLabel?.(info.owner) ?? "you";
        const who = (by: JobStarter): string => (by === "person" ? "the person" : owner === "you" ? "you" : owner);
        const others = owner === "you" || info.owner === undefined ? "" : info.startedBy === "person" ? ` (owner ${owner}: read it, do not stop it)` : " (read it, do not stop it)";
        const restarts = info.restarts > 0 ? `, restarted ${info.restarts}×${info.restartedBy ? ` (last by ${who(info.restartedBy)})` : ""}` : "";
        const tail = last ? `\n    last: ${last}` : "";
        const watching = triggers.length ? `\n    watching: ${triggers.map(describeTrigger).join("; ")}` : "";
        const sandbox = info.sandbox === undefined ? "" : `, sandbox ${info.unfenced ? `${info.sandbox} (unfenced: none can be made here)` : info.sandbox}${info.fenceHits ? ` (stopped ${info.fenceHits} thing${info.fenceHits === 1 ? "" : "s"})` : ""}`;
        return `job ${info.id}: ${describeStatus(info)}, ${formatDuration(runtimeMs)}, started by ${who(info.startedBy)}${others}${restarts}${sandbox}, pid ${info.pid}: ${shortCommand(info.command)}${tail}${watching}`;
      });
      const running = rows.filter((row) => row.info.status === "running").length;
      // Whole entries while they fit the cap (long trigger patterns add up), the rest counted.
      const shownJobs = wholeEntriesWithin(lines, bodyByteCapFor(settings.maxOutputChars));
      const left = rows.slice(shownJobs.length).map((row) => row.info.id);
      const more = left.length > 0 ? `\n[${left.length} more job${left.length === 1 ? "" : "s"} not listed here: ${quoteCap(left.join(", "), 200)}. poll_process or get_process_log reads any of them.]` : "";
      return {
        content: `${running} running, ${rows.length - running} finished:\n${shownJobs.join("\n")}${more}`,
        details: { jobs: rows.map(({ info, last, runtimeMs, triggers }) => ({ ...info, runtimeMs, lastLine: last, triggers })) },
      };
    },
  };
}

export const DEFAULT_LOG_LIMIT = 200;
export const MAX_LOG_LIMIT = 2_000;

export const getLogParameters = Type.Object({
  jobId: Type.String({ description: 'The job id, e.g. "3".' }),
  offset: Type.Optional(Type.Number({ description: "First line to show, 1-based. Without it, the last `limit` lines." })),
  limit: Type.Optional(Type.Number({ description: `Lines to show (default ${DEFAULT_LOG_LIMIT}, at most ${MAX_LOG_LIMIT}; a digest takes any number).` })),
  digest: Type.Optional(
    Type.Boolean({
      description:
        "true: a digest of the lines instead of the raw text (errors and warnings first, stack traces whole, repeated and similar lines folded, each line numbered); without offset and limit it covers every line in memory. false: raw text, head and tail when over the cap. Default: raw when it fits the cap, a digest when it does not.",
    }),
  ),
});

export interface JobLogDetails {
  jobId: string;
  fromLine: number;
  toLine: number;
  totalLines: number;
  firstKeptLine: number;
}

export function getProcessLogDefinition(settings: JobSettings): ToolDefinition<typeof getLogParameters> {
  return {
    name: "get_process_log",
    label: "Job log",
    description: [
      `Read a background job's output as plain text, by line numbers: offset (1-based) and limit (default ${DEFAULT_LOG_LIMIT}, at most ${MAX_LOG_LIMIT}); without offset, the last limit lines.`,
      `Memory keeps the most recent lines of each job (about 10 000); older ones are dropped and the reply says which. Past ${settings.maxOutputChars} characters the lines come as a digest unless digest is false; digest: true without offset and limit digests the whole log in memory (the way to see a long log at a glance). Reading the log does not affect what poll_process returns next.`,
    ].join("\n"),
    parameters: getLogParameters,
  };
}

export function createGetProcessLogTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof getLogParameters, JobLogDetails> {
  return {
    ...getProcessLogDefinition(settings),
    async execute(_toolCallId, params) {
      const job = registry.get(params.jobId);
      if (!job) {
        throw new Error(`No job with id "${params.jobId}". list_processes shows the jobs there are (finished jobs are forgotten after ${formatDuration(settings.ttlMs)}).`);
      }
      const log = job.log;
      // A digest asked for without a range covers the whole log; its size does not grow with the lines.
      const wholeLog = params.digest === true && params.offset === undefined && params.limit === undefined;
      const maxLimit = params.digest === true ? Number.MAX_SAFE_INTEGER : MAX_LOG_LIMIT;
      const limit = wholeLog ? maxLimit : clamp(Math.floor(params.limit ?? DEFAULT_LOG_LIMIT), 1, maxLimit);
      const partial = log.partialLine.length > 0;
      const total = log.lineCount + (partial ? 1 : 0);
      const first = log.firstKeptLine;
      const label = `Job ${job.id} (${describeStatus(job.info)}): ${shortCommand(job.command)}`;
      if (total === 0) {
        return { content: `${label}\nNo output yet.`, details: { jobId: job.id, fromLine: 0, toLine: 0, totalLines: 0, firstKeptLine: first } };
      }
      let from = params.offset === undefined ? Math.max(1, total - limit + 1) : Math.floor(params.offset);
      if (from > total) {
        return {
          content: `offset ${from} is past the end: job ${job.id} has printed ${total} lines. Use an offset up to ${total}, or omit it for the last lines.`,
          isError: true,
        };
      }
      const notes: string[] = [];
      if (from < first) {
        notes.push(`Lines ${Math.max(1, from)}–${first - 1} are no longer in memory (only recent lines are kept); showing from line ${first}.`);
        from = first;
      }
      from = Math.max(1, from);
      const to = Math.min(total, from + limit - 1);
      const lines = logLines(log, from, to);
      const maxChars = settings.maxOutputChars;
      const rawChars = lines.reduce((sum, line) => sum + line.length + 1, 0);
      if (wantsDigest(params.digest, rawChars, maxChars)) {
        if (to < total) notes.push(`More: offset ${to + 1} continues (lines ${to + 1}–${total}).`);
        const content = [`${label}\nLines ${from}–${to} of ${total}, ${digestReason(params.digest, rawChars, maxChars)}:`, digestOfLines(lines, job.id, from, to, maxChars), ...notes.map((n) => `[${n}]`)].join("\n");
        return { content, details: { jobId: job.id, fromLine: from, toLine: to, totalLines: total, firstKeptLine: first } };
      }
      const capped = capOutput(lines.join("\n"), maxChars);
      if (capped.truncated) notes.push("These lines were cut to head and tail; ask for fewer lines to see them whole.");
      if (to < total) notes.push(`More: offset ${to + 1} continues (lines ${to + 1}–${total}).`);
      const content = [`${label}\nLines ${from}–${to} of ${total}:`, capped.text, ...notes.map((n) => `[${n}]`)].join("\n");
      return { content, details: { jobId: job.id, fromLine: from, toLine: to, totalLines: total, firstKeptLine: first } };
    },
  };
}

/** The first entries that fit `maxBytes` together, one per line. */
function wholeEntriesWithin(entries: readonly string[], maxBytes: number): string[] {
  let used = 0;
  let count = 0;
  while (count < entries.length && used + Buffer.byteLength(entries[count]!) + 1 <= maxBytes) used += Buffer.byteLength(entries[count++]!) + 1;
  return entries.slice(0, count);
}
