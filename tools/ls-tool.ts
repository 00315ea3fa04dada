// The `ls` tool: one folder's entries, sorted, folders marked with a trailing slash. Part of the
// read-only tool set; long listings are capped with the next step.
import { readdir } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted } from "./aborted.js";
import { capHeadBytes, MAX_RESULT_BYTES } from "./output-cap.js";
import { resolveSearchRoot } from "./search-scope.js";
import type { AgentTool } from "./tool.js";

export const LS_DEFAULT_LIMIT = 500;
export const LS_MAX_LIMIT = 5000;

export const lsToolSchema = Type.Object({
  path: Type.Optional(Type.String({ description: "Folder to list, relative to the working directory. Default: it." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LS_MAX_LIMIT, description: `Most entries to return (default ${LS_DEFAULT_LIMIT}).` }),
  ),
});

export type LsToolParams = Static<typeof lsToolSchema>;

export interface LsToolDetails {
  /** Absolute path of the folder listed. */
  path: string;
  totalEntries: number;
  shown: number;
  truncated: boolean;
}

const description = [
  "List a folder's entries (dot files included), sorted by name; folders end with /, symlinks with @.",
  `At most ${LS_DEFAULT_LIMIT} entries by default (limit up to ${LS_MAX_LIMIT}); when there are more the result`,
  "says how many and what to call next. Not recursive: use find for that.",
].join(" ");

export function createLsTool(cwd: string): AgentTool<typeof lsToolSchema, LsToolDetails> {
  return {
    name: "ls",
    label: "List Folder",
    description,
    parameters: lsToolSchema,
    async execute(_toolCallId, params, signal) {
      const abortMessage = "Listing was aborted.";
      throwIfAborted(signal, abortMessage);
      const root = await resolveSearchRoot(cwd, params.path);
      if (!root.isDirectory) throw new Error(`${root.shownPath} is a file, not a folder. Read it with read.`);
      const entries = await readdir(root.absolutePath, { withFileTypes: true });
      throwIfAborted(signal, abortMessage);
      const names = entries
        .map((entry) => entry.name + (entry.isDirectory() ? "/" : entry.isSymbolicLink() ? "@" : ""))
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      const limit = params.limit ?? LS_DEFAULT_LIMIT;
      const shown = names.slice(0, limit);
      const details: LsToolDetails = {
        path: root.absolutePath,
        totalEntries: names.length,
        shown: shown.length,
        truncated: names.length > limit,
      };
      if (names.length === 0) {
        const folder = root.shownPath === "." ? "The working directory" : root.shownPath;
        return { content: `${folder} is empty.`, details };
      }
      const cut = capHeadBytes(shown.join("\n"), MAX_RESULT_BYTES - 300);
      let content = cut.text;
      if (cut.truncated) {
        details.truncated = true;
        details.shown = cut.shownLines;
        content += `\n\n[Showing ${cut.shownLines} of ${names.length} entries: one result holds at most ${MAX_RESULT_BYTES / 1024} KB. Use find with a pattern to narrow.]`;
      } else if (details.truncated) {
        const pathPart = params.path === undefined ? "" : `path=${JSON.stringify(params.path)}, `;
        const next =
          limit < LS_MAX_LIMIT
            ? `Next: ls(${pathPart}limit=${Math.min(names.length, LS_MAX_LIMIT)}), or use find with a pattern to narrow.`
            : "Use find with a pattern to narrow.";
        content += `\n\n[Showing ${shown.length} of ${names.length} entries. ${next}]`;
      }
      return { content, details };
    },
  };
}
