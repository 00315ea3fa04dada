// bash_stream: runs a command as a background job and waits a while for it. A short command comes
// back finished, like bash; a server or watcher comes back "running" with a job id once it prints its
// ready line or the wait window ends, and keeps running for the other job tools.
import { Type, type Static } from "@sinclair/typebox";
import { finalResult, runningResult, tailText, type JobDetails } from "./job-result.js";
import { endCursor } from "../log/job-output-reader.js";
import { clampYieldMs, MAX_YIELD_MS, MIN_YIELD_MS, type JobSettings } from "../settings.js";
import { waitForJob, type WaitResult } from "./job-wait.js";
import type { Job } from "../process/job.js";
import { yieldCauseText, type AgentTool, type ToolDefinition, type ToolUpdate } from "../../tool.js";
import { compileSearchPattern, type LineMatcher } from "../../search-pattern.js";
import { watchAfterWait, watchList, watchProblem } from "../watch/watch-params.js";
import type { ToolJobs } from "./tool-jobs.js";
import { sandboxParameter } from "./bash-schema.js";
import { fenceForModel, SANDBOX_SENTENCE } from "./model-fence.js";

export const bashStreamParameters = Type.Object({
  command: Type.String({ description: "The shell command (bash -c)." }),
  workdir: Type.Optional(Type.String({ description: "Working directory; relative paths resolve against the project folder." })),
  env: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "Extra environment variables." })),
  yieldMs: Type.Optional(
    Type.Number({ description: `How long to wait before returning while the job runs on (ms, ${MIN_YIELD_MS}–${MAX_YIELD_MS}).` }),
  ),
  stdinMode: Type.Optional(
    Type.Union([Type.Literal("pty"), Type.Literal("pipe")], {
      description: '"pty" (default): a real terminal, as programs expect interactively. "pipe": no terminal, stdout and stderr kept apart.',
    }),
  ),
  readyPattern: Type.Optional(
    Type.String({
      description: 'A regular expression (RE2 syntax: JavaScript\'s without lookaround and backreferences; case-insensitive) tested against each output line; the wait ends when it matches, e.g. "listening on|ready in".',
    }),
  ),
  watch: Type.Optional(watchList),
  digest: Type.Optional(
    Type.Boolean({
      description: "true: the output as a digest (errors and warnings first, stack traces whole, repeats folded, numbered lines). false: raw, head and tail when over the cap. Default: a digest only past the cap.",
    }),
  ),
  sandbox: sandboxParameter,
});

export type BashStreamParams = Static<typeof bashStreamParameters>;

/** Live plain-text lines for the call's own output view, capped so a flood cannot pile up there. */
function liveLines(job: Job, onUpdate: (update: ToolUpdate) => void, maxChars: number): () => void {
  let buffered: string[] = [];
  let sent = 0;
  let capped = false;
  const flush = (): void => {
    if (buffered.length === 0 || capped) return;
    let chunk = buffered.join("\n") + "\n";
    buffered = [];
    if (sent + chunk.length > maxChars) {
      chunk = chunk.slice(0, Math.max(0, maxChars - sent)) + `\n[live output continues in job ${job.id}]\n`;
      capped = true;
    }
    sent += chunk.length;
    onUpdate({ chunk });
  };
  const timer = setInterval(flush, 100);
  const stop = job.log.onLine((line) => {
    if (!capped) buffered.push(line);
  });
  return () => {
    clearInterval(timer);
    stop();
    flush();
  };
}

function whyStillRunning(wait: WaitResult, yieldMs: number, yieldSignal: AbortSignal): string {
  switch (wait.end) {
    case "ready":
      return `The ready pattern matched: ${JSON.stringify(wait.match ?? "")}.`;
    case "steering":
      return `Stopped waiting because ${yieldCauseText(yieldSignal)}.`;
    case "aborted":
      return "The call was aborted; the job was not stopped.";
    default:
      return `Still running after the ${Math.round(yieldMs / 1000)} s wait.`;
  }
}

export function bashStreamDefinition(settings: JobSettings): ToolDefinition<typeof bashStreamParameters> {
  return {
    name: "bash_stream",
    label: "Background shell",
    description: [
      "Run a shell command as a background job and wait for it a while. Use it for dev servers, file watchers, test watchers, builds and anything that may take more than a minute or must keep running; use bash for quick commands.",
      `It waits up to yieldMs (default ${Math.round(settings.defaultYieldMs / 1000)} s, ${settings.minYieldMs / 1000}–${MAX_YIELD_MS / 1000} s). If the command finishes in that time you get its status, exit code and output. Otherwise you get status "running" with a job id and the output so far, and the job keeps running: read it with poll_process, type into it with write_stdin, stop it with kill_process, see all jobs with list_processes, page its log with get_process_log.`,
      "Give readyPattern (e.g. \"listening on|ready in\") to return as soon as a server says it is up. When a job exits on its own later, you are told with its exit code and last lines, so you need not poll just to notice a crash.",
      "Give watch (e.g. [{\"pattern\": \"FAIL|Error\", \"action\": \"wake\"}]) to be told, with the matching lines and their context, when the job prints a line that matches after this call returns: no polling needed for a test watcher turning red or a server logging a stack trace (watch_process changes them later).",
      `Output shown to you is plain text (colours and progress-bar redraws resolved); past ${settings.maxOutputChars} characters it comes as a digest (errors and warnings first, stack traces whole, repeats folded, line numbers for get_process_log) unless digest is false (then head and tail). At most ${settings.maxJobs} jobs run at once. Runs under a terminal (stdinMode "pty") unless stdinMode is "pipe".`,
      SANDBOX_SENTENCE,
    ].join("\n"),
    parameters: bashStreamParameters,
  };
}

/** `settings`: the caller's limits (a client of the job host has its own output cap and yield window). */
export function createBashStreamTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof bashStreamParameters, JobDetails> {
  const maxChars = settings.maxOutputChars;
  return {
    ...bashStreamDefinition(settings),
    async execute(toolCallId, params, signal, onUpdate, context) {
      let readyPattern: LineMatcher | undefined;
      if (params.readyPattern !== undefined && params.readyPattern !== "") {
        try {
          readyPattern = compileSearchPattern(params.readyPattern, { ignoreCase: true });
        } catch (error) {
          return { content: `readyPattern: ${(error as Error).message} Nothing was started; fix the pattern and call bash_stream again.`, isError: true };
        }
      }
      const badWatch = watchProblem(params.watch);
      if (badWatch !== undefined) return { content: `watch: ${badWatch} Nothing was started; fix the trigger and call bash_stream again.`, isError: true };
      if (signal.aborted) throw new Error("The call was aborted before the job started; nothing was run.");
      const fenced = await fenceForModel(registry.modelFence, params.sandbox, params.workdir);
      if ("refused" in fenced) return fenced.refused;
      if (signal.aborted) throw new Error("The call was aborted before the job started; nothing was run.");
      const job = registry.start({
        command: params.command,
        ...(params.workdir !== undefined ? { cwd: params.workdir } : {}),
        ...(params.env !== undefined ? { env: params.env } : {}),
        stdinMode: params.stdinMode ?? "pty",
        startedBy: "agent",
        toolCallId,
        ...(fenced.fence ? { fence: fenced.fence } : {}),
      });
      const yieldMs = clampYieldMs(params.yieldMs, settings.defaultYieldMs, settings.minYieldMs);
      const stopLive = liveLines(job, onUpdate, maxChars);
      const wait = await waitForJob(job, {
        timeoutMs: yieldMs,
        signal,
        yieldSignal: context.yieldSignal,
        ...(readyPattern ? { readyPattern } : {}),
      });
      stopLive();
      job.pollCursor = endCursor(job.log);
      const watching = watchAfterWait(registry.watches, job, params.watch);
      const withWatching = <R extends { content: string }>(result: R): R => (watching ? { ...result, content: `${result.content}\n${watching}` } : result);
      if (!job.running) return withWatching(finalResult(job, maxChars, params.digest));
      registry.reportYield(toolCallId, job, tailText(job.log));
      return withWatching(runningResult(job, maxChars, whyStillRunning(wait, yieldMs, context.yieldSignal), params.digest));
    },
  };
}
