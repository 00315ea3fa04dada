// watch_process: sets, removes and lists watch triggers on a background job, so the model hears of
// a red test run or a stack trace as it happens instead of polling for it. The engine is in watch/.
import { Type } from "@sinclair/typebox";
import { shortCommand } from "../format.js";
import { MAX_TRIGGERS_PER_JOB, WatchError } from "../watch/trigger-spec.js";
import { addWatchEntries, checkWatchEntries, describeTrigger, watchList } from "../watch/watch-params.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import type { TriggerInfo } from "../events.js";
import type { JobSettings } from "../settings.js";
import type { ToolJobs } from "./tool-jobs.js";

export const watchParameters = Type.Object({
  jobId: Type.String({ description: 'The job id, e.g. "3".' }),
  add: Type.Optional(watchList),
  remove: Type.Optional(
    Type.Union([Type.Array(Type.Number()), Type.Literal("all")], { description: 'Trigger ids to remove (as listed), or "all".' }),
  ),
});

export interface WatchDetails {
  jobId: string;
  triggers: TriggerInfo[];
  added: TriggerInfo[];
  removed: TriggerInfo[];
}

export function watchProcessDefinition(settings: JobSettings): ToolDefinition<typeof watchParameters> {
  return {
    name: "watch_process",
    label: "Watch job",
    description: [
      "Set, remove or list watch triggers on a background job. A trigger tests each new line the job prints against its pattern; on a match you get the matching lines with 3 lines of context around each (numbered as in get_process_log), without polling: e.g. watch a test watcher for FAIL, a dev server for Error|panic, a build for \"compiled successfully\".",
      `Without add or remove it lists the job's triggers. A trigger fires at most once per ${Math.round(settings.watchDebounceMs / 1000)} s (debounceMs changes that); matching lines that arrive meanwhile come batched with the next firing. At most ${MAX_TRIGGERS_PER_JOB} triggers per job; they stay when the job is restarted and go when it is removed. bash_stream takes the same triggers as watch.`,
    ].join("\n"),
    parameters: watchParameters,
  };
}

export function createWatchProcessTool(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool<typeof watchParameters, WatchDetails> {
  return {
    ...watchProcessDefinition(settings),
    async execute(_toolCallId, params) {
      const job = registry.get(params.jobId);
      if (!job) {
        const known = registry.list().map((j) => j.id);
        throw new Error(`No job with id "${params.jobId}". ${known.length ? `Known jobs: ${known.join(", ")}.` : "There are no jobs."} list_processes shows them.`);
      }
      const watches = registry.watches;
      let removed: TriggerInfo[] = [];
      let added: TriggerInfo[] = [];
      try {
        if (params.remove !== undefined) {
          const ids = params.remove === "all" ? [undefined] : params.remove;
          removed = ids.flatMap((id) => watches.remove(job.id, id, "agent"));
        }
        if (params.add?.length) {
          if (!job.running) throw new WatchError(`Job ${job.id} has ended: it prints nothing more, so there is nothing to watch. Start the command again with bash_stream and give the triggers as its watch.`);
          checkWatchEntries(params.add, watches.list(job.id).length);
          added = addWatchEntries(watches, job.id, params.add, "agent");
        }
      } catch (error) {
        if (!(error instanceof WatchError)) throw error;
        const done = removed.length ? ` (removed before the error: ${removed.map((t) => `#${t.id}`).join(", ")})` : "";
        return { content: `${error.message} No trigger was added${done}.`, isError: true };
      }
      const triggers = watches.list(job.id);
      const lines = [`Job ${job.id} (${job.running ? "running" : "ended"}): ${shortCommand(job.command)}`];
      if (added.length) lines.push(`Added: ${added.map((t) => `#${t.id}`).join(", ")}.`);
      if (removed.length) lines.push(`Removed: ${removed.map((t) => `#${t.id}`).join(", ")}.`);
      lines.push(triggers.length ? `Triggers (${triggers.length} of at most ${MAX_TRIGGERS_PER_JOB}):\n${triggers.map((t) => `  ${describeTrigger(t)}`).join("\n")}` : "No triggers.");
      return { content: lines.join("\n"), details: { jobId: job.id, triggers, added, removed } };
    },
  };
}
