// The `edit` tool: replaces `old_string` with `new_string` and changes no other byte of the file.
// Matching is exact up to line endings, then tolerant of pi's normalisations (edit-match.ts); each
// replacement keeps the line ending it replaces, the byte-order mark stays, non-UTF-8 text is edited
// byte for byte and binary files are refused (file-text.ts). It refuses ambiguous or no-op edits and a
// file that changed on disk during the edit; the write keeps links, owner and mode (replace-file.ts).
// `details` carries a unified diff for the UI.
import { createHash } from "node:crypto";
import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted } from "./aborted.js";
import { applyMatches, findMatches, lineNumberAt, withLineEnding, type MatchResult } from "./edit-match.js";
import { describeNearMiss } from "./edit-near-miss.js";
import { decodeFileText, encodeFileText, readableText, spellAsBytes, type ByteSpelling, type FileText } from "./file-text.js";
import { replaceFile } from "./replace-file.js";
import { displayPath, resolvePath } from "./resolve-path.js";
import type { AgentTool } from "./tool.js";
import { unifiedDiff } from "./unified-diff.js";
import { assertRegularFile, NotRegularFileError } from "./write-target.js";

export const editToolSchema = Type.Object({
  file_path: Type.String({ description: "Path of the file, absolute or relative to the working directory." }),
  old_string: Type.String({ minLength: 1, description: "The text to replace, exactly as in the file, whitespace included." }),
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
   * Runs after the new contents are ready (in the temp file, or about to be written in place), before
   * the check that the file is unchanged on disk. Contract: for tests that need to change the file inside that window.
   */
  beforeCommit?: (absolutePath: string) => Promise<void> | void;
}

const description = [
  "Replace a string in a file. old_string should match the file exactly, whitespace included (copy it from",
  "read output, without the line-number prefix), and must occur once unless replace_all is true.",
  "Line endings do not matter for matching (send text with LF): each replacement is written with the line",
  "ending of the text it replaces, and the byte-order mark is kept. When there is no exact match, a unique",
  "match that differs only in trailing whitespace, curly quotes, Unicode dashes or spaces, or fullwidth forms",
  "is used and the result says so. No byte outside the replaced text changes; non-UTF-8 text is edited byte",
  "for byte; binary files, FIFOs, devices and folders are refused. Fails without changing anything if the",
  "text is not found (the error shows the nearest text and what differs), is ambiguous, or the file changed",
  "on disk during the edit. The write is atomic; a file with other hard links or another owner is rewritten",
  "in place, keeping links, owner and mode.",
].join(" ");

const REPLACEMENT_CHARACTER = "\uFFFD";
const MAX_LISTED_LINES = 10;

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The file's bytes, refusing anything that is not a regular file before reading (a FIFO would block). */
async function readForEdit(absolutePath: string, shownPath: string): Promise<Buffer> {
  try {
    assertRegularFile(await stat(absolutePath), shownPath, "edit");
    // O_NONBLOCK: should it have become a FIFO since, the open must not hang.
    const handle = await open(absolutePath, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      assertRegularFile(await handle.stat(), shownPath, "edit");
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof NotRegularFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Error(`File not found: ${shownPath} (resolved to ${absolutePath}). Create it with write, or check the path.`);
    }
    throw new Error(`Cannot read ${shownPath}: ${(error as Error).message}`);
  }
}

/** What old_string and new_string are in the file's own text, and where old_string occurs. */
interface Located {
  result: MatchResult;
  newString: string;
  /** For a file held byte for byte: how the strings were turned into bytes. */
  spelling?: ByteSpelling;
}

function locate(file: FileText, params: EditToolParams, shownPath: string): Located {
  if (file.kind === "utf8") {
    return { result: findMatches(file.text, params.old_string), newString: params.new_string };
  }
  if (params.old_string.includes(REPLACEMENT_CHARACTER)) {
    throw new Error(
      `${shownPath} is not valid UTF-8 (the first bad byte is at offset ${file.firstBadByte}), and old_string contains ` +
        `U+FFFD, which read shows in place of such bytes, so it cannot match them. Choose old_string from the text ` +
        `around those bytes, or change them with bash. The file was not changed.`,
    );
  }
  let fallback: Located | undefined;
  for (const spelling of likelySpellings(file.text)) {
    const oldString = spellAsBytes(params.old_string, spelling);
    if (oldString === undefined) continue;
    const result = findMatches(file.text, oldString, false);
    const newString = spellAsBytes(params.new_string, spelling);
    if (newString === undefined) {
      if (result.matches.length === 0) continue;
      throw new Error(
        `${shownPath} looks like Latin-1 text (it is not valid UTF-8), and new_string has characters Latin-1 cannot hold, ` +
          `so writing it would mix two encodings in one file. Use only Latin-1 characters, or convert the file to UTF-8 ` +
          `first (bash: iconv -f latin1 -t utf-8). The file was not changed.`,
      );
    }
    const located: Located = { result, newString, spelling };
    if (result.matches.length > 0) return located;
    fallback ??= located;
  }
  return fallback ?? { result: { matches: [], normalisations: [] }, newString: params.new_string };
}

/**
 * The order to try spellings in for a file that is not valid UTF-8: UTF-8 first when the file holds
 * UTF-8 sequences (UTF-8 with a stray byte), Latin-1 first when it does not (Latin-1 or Windows-1252).
 */
function likelySpellings(bytesAsText: string): ByteSpelling[] {
  return /[\xC2-\xF4][\x80-\xBF]/.test(bytesAsText) ? ["UTF-8", "Latin-1"] : ["Latin-1", "UTF-8"];
}

function notFound(file: FileText, oldString: string, shownPath: string): Error {
  const hint = file.kind === "utf8" ? describeNearMiss(file.text, oldString) : " Read the file again and copy the text you want to replace.";
  const encoding =
    file.kind === "bytes" ? ` (The file is not valid UTF-8: it was searched byte for byte, as UTF-8 and as Latin-1.)` : "";
  return new Error(
    `old_string was not found in ${shownPath}; the file was not changed. It must match the file's text, whitespace ` +
      `included (line endings and a few Unicode look-alikes do not matter).${hint}${encoding}`,
  );
}

function resultLine(shownPath: string, count: number, located: Located, file: FileText, linesAdded: number, linesRemoved: number): string {
  const occurrences = count === 1 ? "1 occurrence" : `${count} occurrences`;
  const notes: string[] = [];
  if (located.result.normalisations.length > 0) {
    notes.push(`old_string matched only after normalising ${located.result.normalisations.join(", ")}; the text matched was replaced by new_string as sent`);
  }
  if (file.kind === "bytes") {
    notes.push(
      `the file is not valid UTF-8 (first bad byte at offset ${file.firstBadByte}), so it was edited byte for byte: ` +
        `old_string matched as ${located.spelling} bytes and new_string was written as ${located.spelling}; no other byte changed`,
    );
  }
  const tail = notes.length > 0 ? ` Note: ${notes.join("; ")}.` : "";
  return `Edited ${shownPath}: replaced ${occurrences} (+${linesAdded} -${linesRemoved} lines).${tail}`;
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
      const file = decodeFileText(original, shownPath);
      const located = locate(file, params, shownPath);
      const { matches } = located.result;
      if (matches.length === 0) throw notFound(file, params.old_string, shownPath);
      if (matches.length > 1 && params.replace_all !== true) {
        const where = matches.slice(0, MAX_LISTED_LINES).map((m) => lineNumberAt(file.text, m.start));
        const more = matches.length > MAX_LISTED_LINES ? ", …" : "";
        throw new Error(
          `old_string was found ${matches.length} times in ${shownPath} (lines ${where.join(", ")}${more}; line endings ` +
            `do not count as a difference). Add surrounding lines to old_string so it matches once, or set replace_all: ` +
            `true to replace every occurrence. The file was not changed.`,
        );
      }

      const updated = applyMatches(file.text, matches, located.newString);
      if (updated === file.text) {
        throw new Error("new_string is what the file already has there (line endings aside), so the edit would change nothing.");
      }
      const { diff, linesAdded, linesRemoved } = unifiedDiff(
        shownPath,
        withLineEnding(readableText(file, file.text), "\n"),
        withLineEnding(readableText(file, updated), "\n"),
      );
      throwIfAborted(signal, abortMessage);
      await replaceFile(absolutePath, encodeFileText(file, updated), {
        signal,
        shownPath,
        beforeCommit: async () => {
          await options.beforeCommit?.(absolutePath);
          let now: Buffer;
          try {
            now = await readForEdit(absolutePath, shownPath);
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

      return {
        content: resultLine(shownPath, matches.length, located, file, linesAdded, linesRemoved),
        details: { path: absolutePath, diff, linesAdded, linesRemoved, matchCount: matches.length },
        file: { kind: "edit", path: absolutePath, diff, linesAdded, linesRemoved },
      };
    },
  };
}
