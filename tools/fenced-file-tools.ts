// The tools that touch files in pitwall's own process, held to the sandbox's profile: write and edit
// refuse a path the fence keeps read-only, read (and the searches, at their root) refuse a hidden one.
// The refusal is an error result that names the profile and what the person can do, with the hit in
// `details.fence` for the UI. The path is checked as it resolves when the call starts (symlinks and
// `..` included); the tools themselves are unchanged.
import { displayPath, resolvePath } from "./resolve-path.js";
import { FenceError, type FileFence } from "./sandbox/index.js";
import type { AgentTool } from "./tool.js";

/** Which parameter names the path, and what the fence checks for each tool. */
const CHECKS: Record<string, { param: string; check: "write" | "edit" | "read"; fallback?: string }> = {
  write: { param: "file_path", check: "write" },
  edit: { param: "file_path", check: "edit" },
  read: { param: "file_path", check: "read" },
  grep: { param: "path", check: "read", fallback: "." },
  find: { param: "path", check: "read", fallback: "." },
  ls: { param: "path", check: "read", fallback: "." },
};

export function fenceFileTool(tool: AgentTool, cwd: string, fence: FileFence): AgentTool {
  const rule = CHECKS[tool.name];
  if (rule === undefined || fence.profile === "off") return tool;
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, context) {
      const named = (params as Record<string, unknown>)[rule.param] ?? rule.fallback;
      if (typeof named === "string") {
        const path = resolvePath(cwd, named);
        const shown = displayPath(cwd, path);
        try {
          if (rule.check === "read") fence.checkRead(path, shown);
          else fence.checkWrite(path, shown, rule.check);
        } catch (error) {
          if (error instanceof FenceError) return { content: error.message, isError: true, details: { fence: [error.hit] } };
          throw error;
        }
      }
      return tool.execute(toolCallId, params, signal, onUpdate, context);
    },
  };
}
