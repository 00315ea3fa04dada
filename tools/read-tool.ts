// The `read` tool: a text file as `cat -n` numbered lines, paged by `offset`/`limit`, so the model
// can quote exact line numbers and never swallows a huge file in one call. An image file (PNG,
// JPEG, GIF, WebP, known by its first bytes) comes back as the image, scaled to the model's limits;
// a remote's host, which has no image library, returns the file's bytes for the client to prepare.
import { stat, type FileHandle } from "node:fs/promises";
import { basename } from "node:path";
import { Type, type Static } from "@sinclair/typebox";
import { throwIfAborted, ToolAbortedError } from "./aborted.js";
import { isBinaryFile } from "./binary-file.js";
import { formatName, type ImageMimeType } from "./images/image-content.js";
import { checkImageFileSize, describeImageForModel, formatBytes, IMAGE_LIMITS, imageTypeOfFile, loadImageFile, prepareImage, type PreparedImage } from "./images/image-prepare.js";
import { scanLines } from "./line-scanner.js";
import { openRegularFile } from "./regular-file.js";
import { MAX_RESULT_BYTES } from "./output-cap.js";
import { displayPath, resolvePath } from "./resolve-path.js";
import type { AgentTool, ToolResult } from "./tool.js";

export const READ_MAX_LINES = 5000;
export const READ_MAX_LINE_CHARS = 2000;
/** One result holds at most this many bytes, however short the lines: the lines and the header above them. */
export const READ_MAX_BYTES = MAX_RESULT_BYTES;
/** The header's bytes besides the path it quotes: its numbers, words and the `limit` of the next call. */
const HEADER_BYTES = 200;

export const readToolSchema = Type.Object({
  file_path: Type.String({ description: "Path of the file, absolute or relative to the working directory." }),
  offset: Type.Optional(
    Type.Integer({ minimum: 1, description: "1-based line to start at. Omit to start at the first line." }),
  ),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: READ_MAX_LINES,
      description: `How many lines to return (at most ${READ_MAX_LINES}). Omit for up to ${READ_MAX_LINES}.`,
    }),
  ),
});

export type ReadToolParams = Static<typeof readToolSchema>;

export interface ReadToolDetails {
  /** Absolute path. */
  path: string;
  totalLines: number;
  linesRead: number;
  /** 1-based first line shown. */
  offset: number;
  /** True when the file goes on past the last line shown. */
  truncated: boolean;
  /** True when the 50 KB cap, not the line limit, ended the result. */
  cutByBytes?: boolean;
  /** Set when the file was an image, sent as one (no lines then). */
  image?: { width: number; height: number; originalWidth: number; originalHeight: number; mimeType: ImageMimeType; bytes: number };
}

const description = [
  "Read a text file. Lines come numbered like `cat -n` (line number, tab, text).",
  `At most ${READ_MAX_LINES} lines and ${READ_MAX_BYTES / 1024} KB per call: use \`offset\` (1-based) and \`limit\` to page.`,
  "When the file goes on past what was shown, the first line of the result says how many lines it",
  "has and gives the exact next call.",
  `Lines longer than ${READ_MAX_LINE_CHARS} characters are cut, with a marker giving their full length.`,
  `PNG, JPEG, GIF and WebP files come back as the image itself (scaled to at most ${IMAGE_LIMITS.maxSide} px on the`,
  "longest side, the original size given in the text); other binary files are refused: inspect them",
  "through bash (file, xxd).",
].join(" ");

function formatLine(number: number, text: string, length: number): string {
  const body = length > READ_MAX_LINE_CHARS ? `${text}… [line truncated: ${length} chars]` : text;
  return `${String(number).padStart(6)}\t${body}`;
}

async function statOrExplain(absolutePath: string, shownPath: string): Promise<void> {
  let isDirectory: boolean;
  let isFile: boolean;
  try {
    const info = await stat(absolutePath);
    isDirectory = info.isDirectory();
    isFile = info.isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new Error(`File not found: ${shownPath} (resolved to ${absolutePath}). Check the path, e.g. with ls or find.`);
    }
    throw new Error(`Cannot read ${shownPath}: ${(error as Error).message}`);
  }
  if (isDirectory) {
    throw new Error(`${shownPath} is a directory, not a file. List it with ls (or bash: ls -la ${JSON.stringify(shownPath)}).`);
  }
  // A FIFO or a device would block the read or never end.
  if (!isFile) throw notRegularFile(shownPath);
}

function notRegularFile(shownPath: string): Error {
  return new Error(`${shownPath} is not a regular file (a pipe, socket or device). Inspect it with bash if needed.`);
}

export interface ReadToolOptions {
  /**
   * Images come back unprepared (`unpreparedImage`: the file's bytes): a remote's job host, which has
   * no image library, reads them for the client to prepare (finishImageRead). At most `pieceBytes`
   * come with the result; a larger file stays open, given to `keepOpen`, whose token the client asks
   * for the rest by (host/open-images.ts).
   */
  unpreparedImages?: { pieceBytes: number; keepOpen: (file: FileHandle, size: number) => string };
}

/** What the model and the UI get of an image file once it is prepared. */
function imageReadResult(prepared: PreparedImage, absolutePath: string, shownPath: string): ToolResult<ReadToolDetails> {
  const { image, original } = prepared;
  const details: ReadToolDetails = {
    path: absolutePath,
    totalLines: 0,
    linesRead: 0,
    offset: 1,
    truncated: false,
    image: { width: image.width, height: image.height, originalWidth: original.width, originalHeight: original.height, mimeType: image.mimeType, bytes: original.bytes },
  };
  return { content: describeImageForModel(prepared, shownPath), images: [image], details };
}

/**
 * An image file's first piece, with the same checks a local read makes. The file is opened once and
 * checked through its descriptor, which a larger file's later pieces are read from too: what is sent
 * is the file that was checked.
 */
async function unpreparedImageRead(absolutePath: string, shownPath: string, mimeType: ImageMimeType, pieces: NonNullable<ReadToolOptions["unpreparedImages"]>): Promise<ToolResult<ReadToolDetails>> {
  const opened = await openRegularFile(absolutePath);
  if (!opened) throw notRegularFile(shownPath);
  const { file, size } = opened;
  let kept = false;
  try {
    checkImageFileSize(size, basename(absolutePath));
    const first = Buffer.alloc(Math.min(size, pieces.pieceBytes));
    const { bytesRead } = await file.read(first, 0, first.length, 0);
    const data = first.subarray(0, bytesRead).toString("base64");
    const more = size > bytesRead;
    const unpreparedImage = more ? { mimeType, data, size, rest: pieces.keepOpen(file, size) } : { mimeType, data };
    kept = more;
    const details: ReadToolDetails = { path: absolutePath, totalLines: 0, linesRead: 0, offset: 1, truncated: false };
    return {
      content: `[Image ${shownPath}: ${formatBytes(size)} of ${formatName(mimeType)}, to be prepared where the image library is]`,
      details,
      unpreparedImage,
    };
  } finally {
    if (!kept) await file.close();
  }
}

/**
 * A read's result with its unprepared image (a remote's read) prepared here, as a local read
 * prepares its file: the model and the UI get the same content and details. Any other result as it
 * is. `bytes`: the whole file, when the result held only its first piece (the caller fetched the rest).
 */
export async function finishImageRead(result: ToolResult, params: unknown, bytes?: Buffer): Promise<ToolResult> {
  const { unpreparedImage } = result;
  if (!unpreparedImage) return result;
  const absolutePath = (result.details as ReadToolDetails).path;
  const prepared = await prepareImage(bytes ?? Buffer.from(unpreparedImage.data, "base64"), basename(absolutePath));
  return imageReadResult(prepared, absolutePath, (params as ReadToolParams).file_path);
}

export function createReadTool(cwd: string, options: ReadToolOptions = {}): AgentTool<typeof readToolSchema, ReadToolDetails> {
  return {
    name: "read",
    label: "Read File",
    description,
    parameters: readToolSchema,
    async execute(_toolCallId, params, signal) {
      const absolutePath = resolvePath(cwd, params.file_path);
      const shownPath = params.file_path;
      const abortMessage = `Reading ${shownPath} was aborted.`;
      throwIfAborted(signal, abortMessage);
      await statOrExplain(absolutePath, shownPath);
      const imageType = await imageTypeOfFile(absolutePath);
      if (imageType && options.unpreparedImages) return unpreparedImageRead(absolutePath, shownPath, imageType, options.unpreparedImages);
      if (imageType) {
        const prepared = await loadImageFile(absolutePath, basename(absolutePath));
        throwIfAborted(signal, abortMessage);
        return imageReadResult(prepared, absolutePath, shownPath);
      }
      if (await isBinaryFile(absolutePath)) {
        throw new Error(
          `Cannot read binary file '${shownPath}'. Use bash to inspect it: file ${shownPath}, or xxd ${shownPath} | head`,
        );
      }
      const offset = params.offset ?? 1;
      const limit = Math.min(params.limit ?? READ_MAX_LINES, READ_MAX_LINES);
      const last = offset + limit - 1;
      // The lines leave room for the header, so the runner's backstop never cuts this result again.
      const lineBytes = READ_MAX_BYTES - HEADER_BYTES - Buffer.byteLength(JSON.stringify(shownPath));
      const shown: string[] = [];
      let shownBytes = 0;
      let cutByBytes = false;
      let totalLines: number;
      try {
        totalLines = await scanLines(
          absolutePath,
          READ_MAX_LINE_CHARS,
          (line) => {
            if (line.number < offset) return true;
            const text = formatLine(line.number, line.text, line.length);
            const bytes = Buffer.byteLength(text) + 1;
            if (shownBytes + bytes > lineBytes) {
              cutByBytes = true;
              return false;
            }
            shownBytes += bytes;
            shown.push(text);
            // The lines after the last one shown are only counted.
            return line.number < last;
          },
          signal,
        );
      } catch (error) {
        if (signal.aborted) throw new ToolAbortedError(abortMessage);
        throw error;
      }
      const details: ReadToolDetails = {
        path: absolutePath,
        totalLines,
        linesRead: shown.length,
        offset,
        truncated: false,
        cutByBytes,
      };
      if (totalLines === 0) {
        if (offset > 1) throw new Error(`Offset ${offset} is past the end of ${shownPath}: the file is empty.`);
        return { content: `[${displayPath(cwd, absolutePath)} is empty: 0 lines]`, details, file: { kind: "read", path: absolutePath } };
      }
      if (offset > totalLines) {
        throw new Error(
          `Offset ${offset} is past the end of ${shownPath}: it has ${totalLines} lines. Use an offset from 1 to ${totalLines}.`,
        );
      }
      const lastShown = offset + shown.length - 1;
      let content = shown.join("\n");
      if (lastShown < totalLines) {
        details.truncated = true;
        const limitPart = params.limit === undefined ? "" : `, limit=${params.limit}`;
        const next = `read(file_path=${JSON.stringify(shownPath)}, offset=${lastShown + 1}${limitPart})`;
        const why = cutByBytes ? ` (one result holds at most ${READ_MAX_BYTES / 1024} KB)` : "";
        content = `[Showing lines ${offset}-${lastShown} of ${totalLines}${why}. Next: ${next}]\n${content}`;
      }
      return { content, details, file: { kind: "read", path: absolutePath } };
    },
  };
}
