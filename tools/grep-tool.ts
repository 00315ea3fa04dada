// The `grep` tool: lines matching a regular expression across files, as `path:line: text`, for
// searching a project without a shell (it is part of the read-only tool set). Leaves out what git
// ignores (search-scope.ts), .git, node_modules and binary files; stops at a match limit and says what
// to call next.
import { readFile, stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted, ToolAbortedError } from "./aborted.js";
import { looksBinary } from "./binary-file.js";
import { capOutput, DEFAULT_MAX_OUTPUT_CHARS, MAX_QUOTED_CALL } from "./output-cap.js";
import { displayPath } from "./resolve-path.js";
import { anyDepth, ignoredNote, listFiles, resolveSearchRoot } from "./search-scope.js";
import type { AgentTool } from "./tool.js";
import { compileSearchPattern, type LineMatcher } from "./search-pattern.js";
import type { ToolSettings } from "./tool-settings.js";

export const GREP_DEFAULT_LIMIT = 100;
export const GREP_MAX_LIMIT = 1000;
export const GREP_MAX_LINE_CHARS = 300;
/** Larger files are skipped (and counted): they are logs or data, not source. */
export const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;

export const grepToolSchema = Type.Object({
  pattern: Type.String({ minLength: 1, description: "Regular expression in RE2 syntax (JavaScript's without lookaround and backreferences), or plain text with literal: true." }),
  path: Type.Optional(Type.String({ description: "File or folder to search, relative to the working directory. Default: it." })),
  glob: Type.Optional(Type.String({ description: 'Only files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.tsx".' })),
  ignore_case: Type.Optional(Type.Boolean({ description: "Match case-insensitively." })),
  literal: Type.Optional(Type.Boolean({ description: "Treat pattern as plain text, not a regular expression." })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: GREP_MAX_LIMIT, description: `Most matching lines to return (default ${GREP_DEFAULT_LIMIT}).` }),
  ),
  include_ignored: Type.Optional(
    Type.Boolean({ description: "Also search what .gitignore, .ignore and git's excludes leave out, and node_modules." }),
  ),
});

export type GrepToolParams = Static<typeof grepToolSchema>;

export interface GrepToolDetails {
  /** Absolute path of the file or folder searched. */
  path: string;
  matches: number;
  filesSearched: number;
  /** True when the limit stopped the search before the last file. */
  truncated: boolean;
}

const description = [
  "Search file contents for a regular expression (RE2 syntax: JavaScript's without lookaround and backreferences;",
  "matching takes linear time); results are `path:line: text`,",
  "files in sorted order. `glob` narrows which files are searched; a glob without a slash matches names",
  "at any depth. Files ignored by .gitignore, .ignore or git's excludes are not searched (include_ignored: true",
  "searches them), nor are node_modules and .git unless path or glob names them, binary files and files over 10 MB.",
  `At most ${GREP_DEFAULT_LIMIT} matching lines by default (limit up to ${GREP_MAX_LIMIT}); lines longer than`,
  `${GREP_MAX_LINE_CHARS} characters are cut. When the limit is reached the result says what to call next.`,
].join(" ");

function compile(params: GrepToolParams): LineMatcher {
  return compileSearchPattern(params.pattern, { ignoreCase: params.ignore_case, literal: params.literal });
}

/** Matching yields to the event loop this often, so Esc and typing stay live during a long search. */
const YIELD_EVERY_MS = 15;
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function cut(line: string): string {
  return line.length > GREP_MAX_LINE_CHARS ? `${line.slice(0, GREP_MAX_LINE_CHARS)}… [${line.length} chars]` : line;
}

function nextCall(params: GrepToolParams, limit: number): string {
  const args = [`pattern=${JSON.stringify(params.pattern)}`];
  if (params.path !== undefined) args.push(`path=${JSON.stringify(params.path)}`);
  if (params.glob !== undefined) args.push(`glob=${JSON.stringify(params.glob)}`);
  if (params.ignore_case) args.push("ignore_case=true");
  if (params.literal) args.push("literal=true");
  if (params.include_ignored) args.push("include_ignored=true");
  args.push(`limit=${limit}`);
  return `grep(${args.join(", ")})`;
}

export function createGrepTool(cwd: string, settings: Partial<ToolSettings> = {}): AgentTool<typeof grepToolSchema, GrepToolDetails> {
  const maxChars = settings.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS;
  return {
    name: "grep",
    label: "Search Files",
    description,
    parameters: grepToolSchema,
    async execute(_toolCallId, params, signal) {
      const abortMessage = `Searching for ${params.pattern} was aborted.`;
      throwIfAborted(signal, abortMessage);
      const regex = compile(params);
      const root = await resolveSearchRoot(cwd, params.path);
      let files: string[];
      let base: string;
      let ignored = 0;
      if (root.isDirectory) {
        base = root.absolutePath;
        try {
          ({ files, ignored } = await listFiles(base, anyDepth(params.glob ?? "*"), { signal, includeIgnored: params.include_ignored }));
        } catch (error) {
          if (signal.aborted) throw new ToolAbortedError(abortMessage);
          throw error;
        }
      } else {
        base = dirname(root.absolutePath);
        files = [basename(root.absolutePath)];
      }

      const limit = params.limit ?? GREP_DEFAULT_LIMIT;
      const found: string[] = [];
      let truncated = false;
      let searched = 0;
      let skippedLarge = 0;
      let sliceStart = performance.now();
      search: for (const file of files) {
        throwIfAborted(signal, abortMessage);
        const absolute = join(base, file);
        let bytes: Buffer;
        try {
          if ((await stat(absolute)).size > GREP_MAX_FILE_BYTES) {
            skippedLarge++;
            continue;
          }
          bytes = await readFile(absolute);
        } catch {
          // Removed or unreadable since it was listed: nothing to search.
          continue;
        }
        if (looksBinary(bytes)) continue;
        searched++;
        const shown = displayPath(cwd, absolute);
        const lines = bytes.toString("utf8").split(/\r?\n/);
        for (let i = 0; i < lines.length; i++) {
          if ((i & 255) === 0 && performance.now() - sliceStart > YIELD_EVERY_MS) {
            await yieldToEventLoop();
            throwIfAborted(signal, abortMessage);
            sliceStart = performance.now();
          }
          const line = lines[i] ?? "";
          if (!regex.test(line)) continue;
          if (found.length === limit) {
            truncated = true;
            break search;
          }
          found.push(`${shown}:${i + 1}: ${cut(line)}`);
        }
      }

      const details: GrepToolDetails = { path: root.absolutePath, matches: found.length, filesSearched: searched, truncated };
      const notes: string[] = [];
      if (skippedLarge > 0) notes.push(`[Skipped ${skippedLarge} file(s) over 10 MB; search those with bash: grep -n]`);
      if (truncated) {
        const call = nextCall(params, GREP_MAX_LIMIT);
        // A call too long to repeat in a notice is named by its limit alone.
        const raise = limit >= GREP_MAX_LIMIT ? "" : call.length <= MAX_QUOTED_CALL ? `, or raise the limit: ${call}` : `, or call grep again with limit=${GREP_MAX_LIMIT}`;
        notes.push(`[Stopped at ${limit} matching lines; there are more. Narrow the pattern, path or glob${raise}]`);
      }
      if (found.length === 0) {
        return { content: [`No matches for ${params.pattern} in ${root.spokenPath}.${ignoredNote(ignored)}`, ...notes].join("\n\n"), details };
      }
      const listing = capOutput(found.join("\n"), maxChars).text;
      return { content: [listing, ...notes].join("\n\n"), details };
    },
  };
}
