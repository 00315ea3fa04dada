// The file tools (read, write, edit, ls, find, grep) as a job host runs them for a remote client:
// the very tools a local pitwall runs, made for the host's folder, so every guarantee they keep
// (atomic replace, special files refused, bytes and line endings kept, .gitignore-aware search, byte
// caps, the deadline on a pattern) holds on the remote because it is the same code running there.
// A whole call crosses the link once (one round trip), not one operation at a time.
import { createEditTool } from "../../edit-tool.js";
import { createFindTool } from "../../find-tool.js";
import { createGrepTool } from "../../grep-tool.js";
import { createLsTool } from "../../ls-tool.js";
import { createReadTool } from "../../read-tool.js";
import type { AgentTool, ToolDefinition } from "../../tool.js";
import { createWriteTool } from "../../write-tool.js";

export const FILE_TOOL_NAMES = ["read", "write", "edit", "ls", "find", "grep"] as const;
export type FileToolName = (typeof FILE_TOOL_NAMES)[number];

export function isFileToolName(name: string): name is FileToolName {
  return (FILE_TOOL_NAMES as readonly string[]).includes(name);
}

/** The file tool `name` working in `cwd`, with the client's output cap (grep's). */
export function createFileTool(cwd: string, name: FileToolName, maxOutputChars: number): AgentTool {
  switch (name) {
    case "read":
      return createReadTool(cwd) as AgentTool;
    case "write":
      return createWriteTool(cwd) as AgentTool;
    case "edit":
      return createEditTool(cwd) as AgentTool;
    case "ls":
      return createLsTool(cwd) as AgentTool;
    case "find":
      return createFindTool(cwd) as AgentTool;
    case "grep":
      return createGrepTool(cwd, { maxOutputChars }) as AgentTool;
  }
}

/** What the model is shown of each file tool (the same as locally; where it runs does not change it). */
export function fileToolDefinitions(maxOutputChars: number): ToolDefinition[] {
  return FILE_TOOL_NAMES.map((name) => {
    const { execute, ...definition } = createFileTool("/", name, maxOutputChars);
    void execute;
    return definition;
  });
}
