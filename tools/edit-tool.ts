// The `edit` tool: replaces an exact `old_string` with `new_string`. It keeps the file's line endings
// and byte-order mark, refuses ambiguous or no-op edits, and refuses to overwrite a file that changed
// on disk while the edit was being made. `details` carries a unified diff for the UI.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted } from "./aborted.js";
import { writeFileAtomic } from "./atomic-write.js";
import {
  detectLineEnding,
  findOccurrences,
  findWhitespaceNearMatch,
  lineNumberAt,
  replaceAt,
  withLineEnding,
} from "./edit-match.js";
import { displayPath, resolvePath } from "./resolve-path.js";
import type { AgentTool } from "./tool.js";
import { unifiedDiff } from "./unified-diff.js";

export const editToolSchema = Type.Object({
  file_path: Type.String({ description: "Path of the file, absolute or relative to the working directory." }),
  old_string: Type.String({ minLength: 1, description: "The exact text to replace, whitespace included." }),
  new_string: Type.String({ description: "The text to put in its place." }),
  replace_all: Type.Optional(
    Type.Boolean({ description: "Replace every occurrence. Without it, old_string must occur exactly once." }),
  ),
});

export type EditToolParams = Static<typeof editToolSchema>;

export interface EditToolDetails {
  /** Absolute path. */
  path: string;
  /** Unified diff of the change (LF line endings, no BOM). */
  diff: string;
  linesAdded: number;
  linesRemoved: number;
  /** Occurrences replaced. */
  matchCount: number;
}

export interface EditToolOptions {
  /**
   * Runs after the new contents are computed and written to the temp file, before the check that the
   * file is unchanged on disk. Contract: for tests that need to change the file inside that window.
   */
  beforeCommit?: (absolutePath: string) => Promise<void> | void;
}

const description = [
  "Replace an exact string in a file. old_string must match the file exactly, whitespace included",
  "(copy it from read output, without the line-number prefix), and must occur once unless replace_all",
  "is true. The file's line endings (LF or CRLF) and byte-order mark are kept; send text with LF.",
  "Fails without changing anything if the text is not found, is ambiguous, or the file changed on disk",
  "during the edit. The write is atomic.",
].join(" ");

const BOM = "\uFEFF";
const NEAR_MATCH_PREVIEW_LINES = 12;

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function readForEdit(absolutePath: string, shownPath: string): Promise<Buffer> {
  try {
    return await readFile(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Error(`File not found: ${shownPath} (resolved to ${absolutePath}). Create it with write, or check the path.`);
    }
    if (code === "EISDIR") throw new Error(`${shownPath} is a directory, not a file.`);
    throw new Error(`Cannot read ${shownPath}: ${(error as Error).message}`);
  }
}

function notFoundMessage(text: string, oldString: string, shownPath: string): string {
  const near = findWhitespaceNearMatch(text, oldString);
  if (near === undefined) {
    return (
      `old_string was not found in ${shownPath}. It must match the file exactly, whitespace and line breaks ` +
      `included; read the file again and copy the text you want to replace.`
    );
  }
  const lines = text.split(/\r?\n/);
  const count = Math.min(oldString.split(/\r?\n/).length, NEAR_MATCH_PREVIEW_LINES);
  const preview = lines
    .slice(near - 1, near - 1 + count)
    .map((line, k) => `${String(near + k).padStart(6)}\t${line}`)
    .join("\n");
  return (
    `old_string was not found in ${shownPath}, but it nearly matches at line ${near}: the text there differs ` +
    `only in whitespace (indentation, tabs vs spaces, spaces inside the line, trailing spaces or line endings). ` +
    `The file has:\n${preview}\nCopy old_string exactly from these lines and try again.`
  );
}

export function createEditTool(
  cwd: string,
  options: EditToolOptions = {},
): AgentTool<typeof editToolSchema, EditToolDetails> {
  return {
    name: "edit",
    label: "Edit File",
    description,
    parameters: editToolSchema,
    async execute(_toolCallId, params, signal) {
      const absolutePath = resolvePath(cwd, params.file_path);
      const shownPath = displayPath(cwd, absolutePath);
      const abortMessage = `Editing ${shownPath} was aborted; the file was not changed.`;
      throwIfAborted(signal, abortMessage);
      if (params.old_string.length === 0) {
        throw new Error("old_string is empty. Give the exact text to replace; to create a file, use write.");
      }
      if (params.old_string === params.new_string) {
        throw new Error("old_string and new_string are the same, so the edit would change nothing.");
      }

      const original = await readForEdit(absolutePath, shownPath);
      const originalHash = sha256(original);
      const decoded = original.toString("utf8");
      const hasBom = decoded.startsWith(BOM);
      const text = hasBom ? decoded.slice(BOM.length) : decoded;

      // The model usually sends LF; adapt both strings to the file's line endings. If that finds
      // nothing, the strings as sent get a chance (a mixed file may really hold those bytes).
      const eol = detectLineEnding(text);
      let oldString = withLineEnding(params.old_string, eol);
      let newString = withLineEnding(params.new_string, eol);
      let indices = findOccurrences(text, oldString);
      if (indices.length === 0 && oldString !== params.old_string) {
        indices = findOccurrences(text, params.old_string);
        if (indices.length > 0) {
          oldString = params.old_string;
          newString = params.new_string;
        }
      }
      if (indices.length === 0) throw new Error(notFoundMessage(text, params.old_string, shownPath));
      if (indices.length > 1 && params.replace_all !== true) {
        const where = indices.slice(0, 10).map((index) => lineNumberAt(text, index));
        const more = indices.length > 10 ? ", …" : "";
        throw new Error(
          `old_string was found ${indices.length} times in ${shownPath} (lines ${where.join(", ")}${more}). ` +
            `Add surrounding lines to old_string so it matches once, or set replace_all: true to replace every occurrence.`,
        );
      }
      if (oldString === newString) {
        throw new Error("old_string and new_string differ only in line endings, so the edit would change nothing.");
      }

      const updated = replaceAt(text, indices, oldString.length, newString);
      const { diff, linesAdded, linesRemoved } = unifiedDiff(
        shownPath,
        withLineEnding(text, "\n"),
        withLineEnding(updated, "\n"),
      );
      throwIfAborted(signal, abortMessage);
      await writeFileAtomic(absolutePath, Buffer.from((hasBom ? BOM : "") + updated, "utf8"), {
        signal,
        beforeRename: async () => {
          await options.beforeCommit?.(absolutePath);
          let now: Buffer;
          try {
            now = await readFile(absolutePath);
          } catch {
            throw new Error(`${shownPath} was removed while this edit was being made; it was not written. Check the file and redo the edit.`);
          }
          if (sha256(now) !== originalHash) {
            throw new Error(
              `${shownPath} changed on disk while this edit was being made, so it was not written (that would lose ` +
                `the other change). Read the file again and redo the edit.`,
            );
          }
        },
      });

      const occurrences = indices.length === 1 ? "1 occurrence" : `${indices.length} occurrences`;
      return {
        content: `Edited ${shownPath}: replaced ${occurrences} (+${linesAdded} -${linesRemoved} lines).`,
        details: { path: absolutePath, diff, linesAdded, linesRemoved, matchCount: indices.length },
        file: { kind: "edit", path: absolutePath, diff, linesAdded, linesRemoved },
      };
    },
  };
}
