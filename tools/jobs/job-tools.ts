// The six model-facing job tools, offered beside the coding tools in every mode. They all work on one
// registry, the same one the jobs pane uses, so the model and the person see the same jobs.
import { createBashStreamTool } from "./bash-stream-tool.js";
import { createKillProcessTool, createPollProcessTool, createWriteStdinTool } from "./job-control-tools.js";
import { createGetProcessLogTool, createListProcessesTool } from "./job-listing-tools.js";
import type { JobRegistry } from "./job-registry.js";
import type { AgentTool } from "../tool.js";

export const JOB_TOOL_NAMES = ["bash_stream", "poll_process", "write_stdin", "kill_process", "list_processes", "get_process_log"] as const;

/** `defaultYieldMs` (from --bash-yield-ms) overrides the registry's PI_BASH_YIELD_MS default; it is clamped to 1 s–120 s. */
export function createJobTools(registry: JobRegistry, options: { defaultYieldMs?: number } = {}): AgentTool[] {
  return [
    createBashStreamTool(registry, options),
    createPollProcessTool(registry),
    createWriteStdinTool(registry),
    createKillProcessTool(registry),
    createListProcessesTool(registry),
    createGetProcessLogTool(registry),
  ];
}
