// The tool sets the agent is given: the default coding set (read, write, edit, bash) and a read-only
// set for restricted runs (read, grep, find, ls). Every tool is made for one working directory;
// nothing here is bound to process.cwd().
import type { AgentTool } from "./tool.js";
import { type BashOwnOptions, createBashTool } from "./jobs/index.js";
import { createEditTool } from "./edit-tool.js";
import { createFindTool } from "./find-tool.js";
import { createGrepTool } from "./grep-tool.js";
import { createLsTool } from "./ls-tool.js";
import { createReadTool } from "./read-tool.js";
import { createWriteTool } from "./write-tool.js";
import type { ToolSettings } from "./tool-settings.js";

export const CODING_TOOL_NAMES = ["read", "write", "edit", "bash"] as const;
export const READ_ONLY_TOOL_NAMES = ["read", "grep", "find", "ls"] as const;
/** Every tool this module can build, in a stable order. */
export const TOOL_NAMES = ["read", "write", "edit", "bash", "grep", "find", "ls"] as const;

export type ToolName = (typeof TOOL_NAMES)[number];

export function isToolName(name: string): name is ToolName {
  return (TOOL_NAMES as readonly string[]).includes(name);
}

export interface ToolSetOptions {
  /** The environment and output cap of bash and grep; the defaults when left out. */
  settings?: Partial<ToolSettings>;
  /** bash's own options beyond the settings. */
  bash?: BashOwnOptions;
}

/** A new instance of the named tool, working in `cwd`. */
export function createToolByName(cwd: string, name: ToolName, options: ToolSetOptions = {}): AgentTool {
  switch (name) {
    case "read":
      return createReadTool(cwd);
    case "write":
      return createWriteTool(cwd);
    case "edit":
      return createEditTool(cwd);
    case "bash":
      return createBashTool(cwd, { ...options.settings, ...options.bash });
    case "grep":
      return createGrepTool(cwd, options.settings);
    case "find":
      return createFindTool(cwd);
    case "ls":
      return createLsTool(cwd);
  }
}

/** read, write, edit, bash: what the agent uses by default. */
export function createCodingTools(cwd: string, options: ToolSetOptions = {}): AgentTool[] {
  return CODING_TOOL_NAMES.map((name) => createToolByName(cwd, name, options));
}

/** read, grep, find, ls: nothing that changes files or runs commands. */
export function createReadOnlyTools(cwd: string, options: ToolSetOptions = {}): AgentTool[] {
  return READ_ONLY_TOOL_NAMES.map((name) => createToolByName(cwd, name, options));
}
