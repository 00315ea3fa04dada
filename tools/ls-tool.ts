// The `ls` tool: one folder's entries, sorted, folders marked with a trailing slash. Part of the
// read-only tool set; entries git ignores are named at the end instead of listed; long listings are
// capped with the next step.
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted } from "./aborted.js";
import { capHeadBytes, MAX_QUOTED_CALL, MAX_RESULT_BYTES, NOTICE_ROOM_BYTES } from "./output-cap.js";
import { IgnoreRules } from "./ignore-rules.js";
import { resolveSearchRoot } from "./search-scope.js";
import type { AgentTool } from "./tool.js";

export const LS_DEFAULT_LIMIT = 500;
export const LS_MAX_LIMIT = 5000;

export const lsToolSchema = Type.Object({
  path: Type.Optional(Type.String({ description: "Folder to list, relative to the working directory. Default: it." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: LS_MAX_LIMIT, description: `Most entries to return (default ${LS_DEFAULT_LIMIT}).` }),
  ),
  include_ignored: Type.Optional(Type.Boolean({ description: "Also list entries that .gitignore, .ignore or git's excludes leave out." })),
});

export type LsToolParams = Static<typeof lsToolSchema>;

export interface LsToolDetails {
  /** Absolute path of the folder listed. */
  path: string;
  totalEntries: number;
  shown: number;
  truncated: boolean;
  /** Entries left out because ignore rules cover them (named at the end of the result). */
  ignored: string[];
}

/** Ignored entries named in the result; past this many, a count. */
const NAMED_IGNORED = 20;
/** The names of ignored entries take at most this many bytes of the notice. */
const NAMED_IGNORED_BYTES = 600;

const description = [
  "List a folder's entries (dot files included), sorted by name; folders end with /, symlinks with @.",
  `At most ${LS_DEFAULT_LIMIT} entries by default (limit up to ${LS_MAX_LIMIT}); when there are more the result`,
  "says how many and what to call next. Entries ignored by .gitignore, .ignore or git's excludes are named",
  "at the end instead (include_ignored: true lists them). Not recursive: use find for that.",
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
      const rules = params.include_ignored ? undefined : await IgnoreRules.forRoot(root.absolutePath);
      throwIfAborted(signal, abortMessage);
      const names: string[] = [];
      const ignored: string[] = [];
      for (const entry of entries) {
        const name = entry.name + (entry.isDirectory() ? "/" : entry.isSymbolicLink() ? "@" : "");
        if (rules?.ignores(join(root.absolutePath, entry.name), entry.isDirectory())) ignored.push(name);
        else names.push(name);
      }
      names.sort(byName);
      ignored.sort(byName);
      const limit = params.limit ?? LS_DEFAULT_LIMIT;
      const shown = names.slice(0, limit);
      const details: LsToolDetails = {
        path: root.absolutePath,
        totalEntries: names.length,
        shown: shown.length,
        truncated: names.length > limit,
        ignored,
      };
      const ignoredLine = ignoredSummary(ignored, params.path);
      if (names.length === 0) {
        const folder = root.shownPath === "." ? "The working directory" : root.shownPath;
        return { content: ignored.length === 0 ? `${folder} is empty.` : `${folder} has only ignored entries.\n\n${ignoredLine}`, details };
      }
      const cut = capHeadBytes(shown.join("\n"), MAX_RESULT_BYTES - NOTICE_ROOM_BYTES);
      let content = cut.text;
      if (cut.truncated) {
        details.truncated = true;
        details.shown = cut.shownLines;
        content += `\n\n[Showing ${cut.shownLines} of ${names.length} entries: one result holds at most ${MAX_RESULT_BYTES / 1024} KB. Use find with a pattern to narrow.]`;
      } else if (details.truncated) {
        const pathPart = params.path === undefined ? "" : `path=${JSON.stringify(params.path)}, `;
        const raised = Math.min(names.length, LS_MAX_LIMIT);
        const call = `ls(${pathPart}limit=${raised})`;
        const next =
          limit >= LS_MAX_LIMIT
            ? "Use find with a pattern to narrow."
            : `Next: ${call.length <= MAX_QUOTED_CALL ? call : `ls with limit=${raised}`}, or use find with a pattern to narrow.`;
        content += `\n\n[Showing ${shown.length} of ${names.length} entries. ${next}]`;
      }
      if (ignored.length > 0) content += `\n\n${ignoredLine}`;
      return { content, details };
    },
  };
}

function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function ignoredSummary(ignored: string[], path: string | undefined): string {
  // At most NAMED_IGNORED names, and no more than fit the room a notice has.
  let count = 0;
  let bytes = 0;
  while (count < Math.min(ignored.length, NAMED_IGNORED) && bytes + Buffer.byteLength(ignored[count]!) + 2 <= NAMED_IGNORED_BYTES) bytes += Buffer.byteLength(ignored[count++]!) + 2;
  const named = count === 0 ? `${ignored.length} entries` : `${ignored.slice(0, count).join(", ")}${ignored.length > count ? ` and ${ignored.length - count} more` : ""}`;
  const call = `ls(${path === undefined ? "" : `path=${JSON.stringify(path)}, `}include_ignored=true)`;
  const how = call.length <= MAX_QUOTED_CALL ? `${call} lists them` : "ls with include_ignored=true lists them";
  return `[Ignored by .gitignore, .ignore or git excludes, not listed: ${named}. ${how}.]`;
}
