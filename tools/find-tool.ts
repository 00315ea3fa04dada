// The `find` tool: file paths matching a glob, for exploring a project without a shell (it is part
// of the read-only tool set). Leaves out what git ignores (search-scope.ts), .git and node_modules;
// long lists are capped with the next step.
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted, ToolAbortedError } from "./aborted.js";
import { capHeadBytes, MAX_QUOTED_CALL, MAX_RESULT_BYTES, NOTICE_ROOM_BYTES } from "./output-cap.js";
import { displayPath } from "./resolve-path.js";
import { anyDepth, ignoredNote, listFiles, resolveSearchRoot } from "./search-scope.js";
import type { AgentTool } from "./tool.js";

export const FIND_DEFAULT_LIMIT = 1000;
export const FIND_MAX_LIMIT = 5000;

export const findToolSchema = Type.Object({
  pattern: Type.String({
    minLength: 1,
    description: 'Glob, e.g. "*.ts" (any depth), "src/**/*.test.ts", "{package,tsconfig}.json".',
  }),
  path: Type.Optional(Type.String({ description: "Folder to search, relative to the working directory. Default: it." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: FIND_MAX_LIMIT, description: `Most paths to return (default ${FIND_DEFAULT_LIMIT}).` }),
  ),
  include_ignored: Type.Optional(
    Type.Boolean({ description: "Also search what .gitignore, .ignore and git's excludes leave out, and node_modules." }),
  ),
});

export type FindToolParams = Static<typeof findToolSchema>;

export interface FindToolDetails {
  /** Absolute path of the folder searched. */
  path: string;
  totalMatches: number;
  shown: number;
  truncated: boolean;
  /** Folders and files left out by ignore rules. */
  ignored: number;
}

const description = [
  "Find files by glob pattern. A pattern without a slash matches file names at any depth (\"*.ts\");",
  "with a slash it is matched against the path from the search folder (\"src/**/*.ts\").",
  "Paths come back sorted, relative to the working directory. Files ignored by .gitignore, .ignore or git's",
  "excludes are left out (include_ignored: true includes them), as are node_modules and .git, unless the",
  `pattern names them ("dist/**/*.js"). At most ${FIND_DEFAULT_LIMIT} paths by default (limit up to ${FIND_MAX_LIMIT}) and ${MAX_RESULT_BYTES / 1024} KB;`,
  "when there are more, the result says how many and what to call next.",
].join(" ");

export function createFindTool(cwd: string): AgentTool<typeof findToolSchema, FindToolDetails> {
  return {
    name: "find",
    label: "Find Files",
    description,
    parameters: findToolSchema,
    async execute(_toolCallId, params, signal) {
      const abortMessage = `Finding ${params.pattern} was aborted.`;
      throwIfAborted(signal, abortMessage);
      const root = await resolveSearchRoot(cwd, params.path);
      if (!root.isDirectory) {
        throw new Error(`${root.shownPath} is a file, not a folder. Read it with read, or give find a folder.`);
      }
      let files: string[];
      let ignored: number;
      try {
        ({ files, ignored } = await listFiles(root.absolutePath, anyDepth(params.pattern), { signal, includeIgnored: params.include_ignored }));
      } catch (error) {
        if (signal.aborted) throw new ToolAbortedError(abortMessage);
        throw error;
      }
      throwIfAborted(signal, abortMessage);
      const limit = params.limit ?? FIND_DEFAULT_LIMIT;
      const shown = files.slice(0, limit).map((file) => displayPath(cwd, join(root.absolutePath, file)));
      const details: FindToolDetails = {
        path: root.absolutePath,
        totalMatches: files.length,
        shown: shown.length,
        truncated: files.length > limit,
        ignored,
      };
      if (files.length === 0) {
        return { content: `No files match ${params.pattern} under ${root.spokenPath}.${ignoredNote(ignored)}`, details };
      }
      const cut = capHeadBytes(shown.join("\n"), MAX_RESULT_BYTES - NOTICE_ROOM_BYTES);
      let content = cut.text;
      if (cut.truncated) {
        details.truncated = true;
        details.shown = cut.shownLines;
        content += `\n\n[Showing ${cut.shownLines} of ${files.length} paths: one result holds at most ${MAX_RESULT_BYTES / 1024} KB. Narrow the pattern or path]`;
      } else if (details.truncated) {
        const pathPart = params.path === undefined ? "" : `, path=${JSON.stringify(params.path)}`;
        const raised = Math.min(files.length, FIND_MAX_LIMIT);
        const call = `find(pattern=${JSON.stringify(params.pattern)}${pathPart}, limit=${raised})`;
        // A call too long to repeat in a notice is named by its limit alone.
        const next = limit >= FIND_MAX_LIMIT ? "" : call.length <= MAX_QUOTED_CALL ? ` or raise the limit: ${call}` : ` or call find again with limit=${raised}`;
        content += `\n\n[Showing ${shown.length} of ${files.length} paths. Narrow the pattern or path${next}]`;
      }
      return { content, details };
    },
  };
}
