// The seven model-facing job tools, offered beside the coding tools in every mode. They all work on one
// registry, the same one the jobs pane uses, so the model and the person see the same jobs.
import { createBashStreamTool } from "./bash-stream-tool.js";
import { createKillProcessTool, createPollProcessTool, createWriteStdinTool } from "./job-control-tools.js";
import { createGetProcessLogTool, createListProcessesTool } from "./job-listing-tools.js";
import type { JobRegistry } from "./job-registry.js";
import { createWatchProcessTool } from "./watch-process-tool.js";
import type { AgentTool } from "../tool.js";

export const JOB_TOOL_NAMES = ["bash_stream", "poll_process", "write_stdin", "kill_process", "list_processes", "get_process_log", "watch_process"] as const;

/** The tools take their limits from the registry's settings (bash_stream's yield window among them). */
export function createJobTools(registry: JobRegistry): AgentTool[] {
  return [
    createBashStreamTool(registry),
    createPollProcessTool(registry),
    createWriteStdinTool(registry),
    createKillProcessTool(registry),
    createListProcessesTool(registry),
    createGetProcessLogTool(registry),
    createWatchProcessTool(registry),
  ];
}
