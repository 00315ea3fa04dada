// What the files pane shows under its list: the selected file, numbered and highlighted with
// cli-highlight (the language from the extension), or the diff of its last edit, coloured. The file
// is read when the selection changes, never while painting, and at most 256 KiB of it; only the rows
// on screen are highlighted, so a preview costs the same for a 10-line file and a 100 000-line one.
import { open } from "node:fs/promises";
import { basename, extname } from "node:path";
import { looksBinary } from "../../tools/binary-file.js";
import { diffLines } from "../text/diff-lines.js";
import { highlightCode } from "../markdown/code-highlight.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";

export const PREVIEW_MAX_BYTES = 256 * 1024;
/** What "open in the tool-output pane" reads at most. */
export const OPEN_MAX_BYTES = 4 * 1024 * 1024;
/** Past this many lines an opened file is shown without highlighting (highlighting it would stall the screen). */
export const HIGHLIGHT_MAX_LINES = 5_000;

const DIM = attr({ fg: Color.grey });
const ERROR = attr({ fg: Color.red });

export interface PreviewTarget {
  path: string;
  lastDiff?: string;
  /** When the file was last touched: a newer touch reads it again. */
  at: number;
}

export type FileContent =
  | { kind: "text"; lines: string[]; size: number; truncated: boolean }
  | { kind: "binary"; size: number }
  | { kind: "error"; message: string };

type Shown = { kind: "loading" } | { kind: "diff"; lines: StyledLine[] } | FileContent;

const BY_EXTENSION: Record<string, string> = { mjs: "javascript", cjs: "javascript", mts: "typescript", cts: "typescript", yml: "yaml", h: "c", hpp: "cpp" };
const BY_NAME: Record<string, string> = { Makefile: "makefile", Dockerfile: "dockerfile", "CMakeLists.txt": "cmake" };

/** The highlight.js language for a path, from its name or extension (undefined: plain text). */
export function languageOf(path: string): string | undefined {
  const name = basename(path);
  if (BY_NAME[name]) return BY_NAME[name];
  const ext = extname(name).slice(1).toLowerCase();
  if (!ext) return undefined;
  return BY_EXTENSION[ext] ?? ext;
}

/**
 * Where the previewed files are read: this machine's disk, or (a remote session) the remote's job
 * host, which sends a file's size and first bytes.
 */
export type FileSource = (path: string, maxBytes: number) => Promise<{ size: number; bytes: Buffer }>;

/** The file's lines from a FileSource (a remote's), judged as a local read is. */
async function readFromSource(source: FileSource, path: string, maxBytes: number): Promise<FileContent> {
  try {
    const { size, bytes } = await source(path, maxBytes);
    return textContent(bytes, size);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { kind: "error", message: /ENOENT/.test(message) ? "The file no longer exists." : `Cannot read it: ${message}` };
  }
}

function textContent(bytes: Buffer, size: number): FileContent {
  if (looksBinary(bytes)) return { kind: "binary", size };
  let text = bytes.toString("utf8");
  const truncated = size > bytes.length;
  // A cut file ends mid-line (maybe mid-character): drop the partial last line.
  if (truncated) text = text.slice(0, Math.max(0, text.lastIndexOf("\n")));
  const lines = text.split("\n");
  if (!truncated && lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return { kind: "text", lines, size, truncated };
}

/** Reads at most `maxBytes` of a file as UTF-8 lines; binary files and errors are reported, not thrown. */
export async function readTextFile(path: string, maxBytes: number, source?: FileSource): Promise<FileContent> {
  if (source) return readFromSource(source, path, maxBytes);
  let handle;
  try {
    handle = await open(path, "r");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { kind: "error", message: code === "ENOENT" ? "The file no longer exists." : `Cannot read it: ${code ?? String(error)}.` };
  }
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return textContent(buffer.subarray(0, bytesRead), size);
  } catch (error) {
    return { kind: "error", message: `Cannot read it: ${(error as NodeJS.ErrnoException).code ?? String(error)}.` };
  } finally {
    await handle.close();
  }
}

function gutter(total: number): number {
  return String(Math.max(1, total)).length;
}

/** Numbered lines of a text file, highlighted when the language is known and the highlighter loaded. */
export function numberedLines(lines: readonly string[], start: number, language: string | undefined, total = lines.length): { rows: StyledLine[]; highlighted: boolean } {
  const width = gutter(total);
  const code = lines.map((l) => sanitizeText(l));
  const highlighted = language && code.length > 0 ? highlightCode(code.join("\n"), language) : undefined;
  const rows = code.map((text, i): StyledLine => {
    const number = { text: `${String(start + i + 1).padStart(width)} `, attr: DIM };
    const body = highlighted?.[i] ?? [{ text, attr: attr() }];
    return [number, ...body];
  });
  return { rows, highlighted: highlighted !== undefined };
}

/** Everything a file or diff view shows, for the tool-output pane (Enter in the files pane). */
export async function fullView(target: PreviewTarget, mode: "file" | "diff", source?: FileSource): Promise<StyledLine[]> {
  if (mode === "diff" && target.lastDiff !== undefined) return diffLines(target.lastDiff);
  const content = await readTextFile(target.path, OPEN_MAX_BYTES, source);
  if (content.kind === "error") return [[{ text: content.message, attr: ERROR }]];
  if (content.kind === "binary") return [[{ text: `A binary file (${content.size} bytes): not shown.`, attr: DIM }]];
  const language = content.lines.length <= HIGHLIGHT_MAX_LINES ? languageOf(target.path) : undefined;
  const { rows } = numberedLines(content.lines, 0, language);
  if (content.truncated) rows.push([], [{ text: `… the file is ${content.size} bytes; the first ${OPEN_MAX_BYTES / 1024 / 1024} MB are shown.`, attr: DIM }]);
  return rows;
}

export class FilePreview {
  private key: string | undefined;
  private shown: Shown = { kind: "loading" };
  private language: string | undefined;
  private windowCache: { start: number; count: number; rows: StyledLine[] } | undefined;
  /** Where files are read (a remote session's host); this machine's disk when unset. */
  source: FileSource | undefined;

  /** `onLoaded` runs when a file read finishes (the pane asks for a frame). */
  constructor(private readonly onLoaded: () => void) {}

  /** Shows a file or its last diff; reads the file only when it is another one (or touched again). */
  show(target: PreviewTarget, mode: "file" | "diff"): void {
    const useDiff = mode === "diff" && target.lastDiff !== undefined;
    const key = `${useDiff ? "diff" : "file"}\0${target.path}\0${target.at}`;
    if (key === this.key) return;
    this.key = key;
    this.windowCache = undefined;
    this.language = languageOf(target.path);
    if (useDiff) {
      // The rule above the preview names the file: the diff's own file headers would only take rows.
      this.shown = { kind: "diff", lines: diffLines(target.lastDiff!).filter((l) => !/^(---|\+\+\+|Index:|====)/.test(l[0]?.text ?? "")) };
      return;
    }
    this.shown = { kind: "loading" };
    void readTextFile(target.path, PREVIEW_MAX_BYTES, this.source).then((content) => {
      if (this.key !== key) return;
      this.shown = content;
      this.onLoaded();
    });
  }

  /** The row a new preview opens at: a diff's first changed line, one line of context above it. */
  get startRow(): number {
    if (this.shown.kind !== "diff") return 0;
    const first = this.shown.lines.findIndex((l) => /^[+-]/.test(l[0]?.text ?? ""));
    return Math.max(0, first - 1);
  }

  /** Whether a diff (rather than the file) is shown. */
  get showingDiff(): boolean {
    return this.shown.kind === "diff";
  }

  get lineCount(): number {
    if (this.shown.kind === "diff") return this.shown.lines.length;
    if (this.shown.kind === "text") return this.shown.lines.length + (this.shown.truncated ? 1 : 0);
    return 1;
  }

  /** The rows from `start` (at most `count`): only these are highlighted. */
  rows(start: number, count: number): StyledLine[] {
    const shown = this.shown;
    switch (shown.kind) {
      case "loading":
        return [[{ text: "loading…", attr: DIM }]];
      case "error":
        return [[{ text: shown.message, attr: ERROR }]];
      case "binary":
        return [[{ text: `A binary file (${shown.size} bytes): not shown.`, attr: DIM }]];
      case "diff":
        return shown.lines.slice(start, start + count);
      case "text": {
        const cached = this.windowCache;
        if (cached && cached.start === start && cached.count === count) return cached.rows;
        const slice = shown.lines.slice(start, start + count);
        const { rows, highlighted } = numberedLines(slice, start, this.language, shown.lines.length);
        if (shown.truncated && start + count > shown.lines.length) rows.push([{ text: `… only the first ${PREVIEW_MAX_BYTES / 1024} KiB are previewed; Enter opens more.`, attr: DIM }]);
        // Plain rows are not kept: the highlighter may still be loading.
        if (highlighted || this.language === undefined) this.windowCache = { start, count, rows };
        return rows;
      }
    }
  }
}
