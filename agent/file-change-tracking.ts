// Wraps the tools that change files (write, edit) so that a rewind can undo what they did: before the
// call the file's content is captured (kept in the session's snapshot folder), after a call that
// changed it its new state is hashed, and a `file_change` event names both and the call; the session
// records it. The tools themselves know nothing of sessions. Without a session nothing is captured.
import type { AgentTool } from "../tools/tool.js";
import { resolvePath } from "../tools/resolve-path.js";
import type { PitwallEvent } from "./events.js";
import type { FileSnapshots } from "./sessions/file-snapshots.js";

/** The tools whose changes are recorded. Changes made by bash (or jobs) are not. */
export const FILE_CHANGING_TOOLS: ReadonlySet<string> = new Set(["write", "edit"]);

export interface FileChangeSink {
  /** Where contents are kept: the current session's folder, or none. */
  snapshots(): FileSnapshots | undefined;
  emit(event: PitwallEvent): void;
}

export function trackFileChanges(tool: AgentTool, cwd: string, sink: FileChangeSink): AgentTool {
  return {
    ...tool,
    async execute(toolCallId, params, signal, onUpdate, context) {
      const snapshots = sink.snapshots();
      const filePath = (params as { file_path?: unknown }).file_path;
      if (!snapshots || typeof filePath !== "string") return tool.execute(toolCallId, params, signal, onUpdate, context);
      const path = resolvePath(cwd, filePath);
      const before = await snapshots.capture(path);
      const result = await tool.execute(toolCallId, params, signal, onUpdate, context);
      const file = result.file;
      if (result.isError || before === undefined || !file || file.kind === "read" || file.path !== path) return result;
      const after = await snapshots.stateOf(path).catch(() => null);
      if (after === null || after === "other" || after.hash === before?.hash) return result;
      sink.emit({ type: "file_change", toolCallId, path, before, after });
      return result;
    },
  };
}
