// The seven model-facing job tools, offered beside the coding tools in every mode. They all work on one
// registry, the same one the jobs pane uses, so the model and the person see the same jobs. Their
// definitions (what the model is shown) are apart from how they run: a client of the job host shows
// the same definitions and has the host run them, where the logs are.
import { bashStreamDefinition, createBashStreamTool } from "./bash-stream-tool.js";
import { createKillProcessTool, createPollProcessTool, createWriteStdinTool, killProcessDefinition, pollProcessDefinition, writeStdinDefinition } from "./job-control-tools.js";
import { createGetProcessLogTool, createListProcessesTool, getProcessLogDefinition, listProcessesDefinition } from "./job-listing-tools.js";
import type { ToolJobs } from "./tool-jobs.js";
import { createWatchProcessTool, watchProcessDefinition } from "./watch-process-tool.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import type { JobSettings } from "../settings.js";

export const JOB_TOOL_NAMES = ["bash_stream", "poll_process", "write_stdin", "kill_process", "list_processes", "get_process_log", "watch_process"] as const;
export type JobToolName = (typeof JOB_TOOL_NAMES)[number];

export function isJobToolName(name: string): name is JobToolName {
  return (JOB_TOOL_NAMES as readonly string[]).includes(name);
}

/** The tools take their limits from `settings` (the registry's, unless a client of the host brings its own). */
export function createJobTools(registry: ToolJobs, settings: JobSettings = registry.settings): AgentTool[] {
  return [
    createBashStreamTool(registry, settings),
    createPollProcessTool(registry, settings),
    createWriteStdinTool(registry, settings),
    createKillProcessTool(registry, settings),
    createListProcessesTool(registry, settings),
    createGetProcessLogTool(registry, settings),
    createWatchProcessTool(registry, settings),
  ];
}

/** What the model is shown of the seven tools, in the order of JOB_TOOL_NAMES. */
export function jobToolDefinitions(settings: JobSettings): ToolDefinition[] {
  return [
    bashStreamDefinition(settings),
    pollProcessDefinition(settings),
    writeStdinDefinition(),
    killProcessDefinition(settings),
    listProcessesDefinition(settings),
    getProcessLogDefinition(settings),
    watchProcessDefinition(settings),
  ];
}
