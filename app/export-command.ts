// `/export [file]`, `--export <file>` after a print run, and `--export <file> --session X` alone:
// the current branch of the session as Markdown (agent/sessions/branch-export.ts), written to the
// file named (relative to the working directory; `-` is stdout for the export alone) or to
// `pitwall-<date>-<time>-<session>.md` in the working directory. The file is written whole or not
// at all (a temp file renamed over it), and an existing file is replaced only when asked to
// (`--force`, or the person's yes in the dashboard): otherwise ExportExistsError.
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Writable } from "node:stream";
import type { CodingAgent } from "../agent/coding-agent.js";
import { branchItemsFromFile, branchItemsFromMessages, branchMarkdown, type BranchItem } from "../agent/sessions/branch-export.js";
import { otherBranchCount } from "../agent/sessions/session-tree.js";
import type { SessionHeader } from "../agent/sessions/session-file.js";
import { loadSession } from "../agent/sessions/session-load.js";

export interface ExportResult {
  /** Where it was written ("-": stdout). */
  path: string;
  messages: number;
  /** The file existed and was replaced. */
  replaced: boolean;
}

/** The file is there and replacing it was not asked for. */
export class ExportExistsError extends Error {
  constructor(readonly path: string) {
    super(`${path} exists; it was not replaced`);
  }
}

export interface ExportOptions {
  /** Replace a file that is already there (otherwise ExportExistsError). */
  replace?: boolean;
}

const pad = (n: number): string => String(n).padStart(2, "0");

/** `pitwall-2026-11-22-1005-1a2b3c4d.md`: the time of the export and the session's id. */
export function defaultExportName(header: SessionHeader | undefined, now = new Date()): string {
  const time = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `pitwall-${time}${header ? `-${header.id.slice(0, 8)}` : ""}.md`;
}

/** Counts the messages going through. */
async function* counted(items: AsyncIterable<BranchItem> | Iterable<BranchItem>, count: { messages: number }): AsyncGenerator<BranchItem> {
  for await (const item of items) {
    if (item.kind === "message") count.messages++;
    yield item;
  }
}

function finished(stream: Writable): Promise<void> {
  return new Promise((resolvePromise, reject) => {
    stream.once("error", reject);
    stream.end(() => resolvePromise());
  });
}

/** Whether `target` is there (a regular file); anything else in its place is an error. */
export async function exportTargetExists(target: string): Promise<boolean> {
  try {
    const info = await stat(target);
    if (!info.isFile()) throw new Error(`${target} is not a regular file`);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    return false;
  }
}

/** Writes the pieces to `target` whole: a temp file beside it, renamed over it at the end. */
async function writeWhole(target: string, chunks: AsyncIterable<string>, options: ExportOptions): Promise<boolean> {
  const replaced = await exportTargetExists(target);
  if (replaced && !options.replace) throw new ExportExistsError(target);
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString("hex")}.tmp`);
  const out = createWriteStream(temp, { flags: "wx", mode: 0o644 });
  const failed = new Promise<never>((_, reject) => out.once("error", reject));
  failed.catch(() => undefined);
  try {
    for await (const chunk of chunks) {
      if (!out.write(chunk)) await Promise.race([new Promise<void>((r) => out.once("drain", () => r())), failed]);
    }
    await finished(out);
    await rename(temp, target);
  } catch (error) {
    out.destroy();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  return replaced;
}

async function pipeTo(chunks: AsyncIterable<string>, out: Writable): Promise<void> {
  for await (const chunk of chunks) if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", () => r()));
}

/** The current branch of the coding agent's session (or its conversation in memory, without one). */
export async function exportCurrentBranch(coding: CodingAgent, cwd: string, file?: string, options: ExportOptions = {}): Promise<ExportResult> {
  const session = coding.session;
  const count = { messages: 0 };
  let items: AsyncIterable<BranchItem> | Iterable<BranchItem>;
  let header: SessionHeader | undefined;
  if (session?.persisted) {
    header = session.headerLine;
    // From the file when everything said so far is in it; else what the conversation holds.
    items = session.save() ? branchItemsFromFile(session.path, session.tree) : branchItemsFromMessages(coding.agent.state.messages);
  } else items = branchItemsFromMessages(coding.agent.state.messages);
  const target = exportTarget(coding, cwd, file);
  const markdown = branchMarkdown(counted(items, count), { header, path: session?.persisted ? session.path : undefined, otherBranches: session ? otherBranchCount(session.tree) : 0 });
  const replaced = await writeWhole(target, markdown, options);
  return { path: target, messages: count.messages, replaced };
}

/** Where /export or --export writes `file` (the default name when none is given). */
export function exportTarget(coding: CodingAgent, cwd: string, file?: string): string {
  const session = coding.session;
  return resolve(cwd, file ?? defaultExportName(session?.persisted ? session.headerLine : undefined));
}

/** A session file's current branch, without starting an agent (`--export <file>` with no prompt). */
export async function exportSessionFile(sessionPath: string, cwd: string, file: string, stdout: Writable, options: ExportOptions = {}): Promise<ExportResult> {
  // Only the tree is kept; the branch is streamed again for the Markdown.
  const session = await loadSession(sessionPath, { budgetFor: () => 0 });
  const count = { messages: 0 };
  const markdown = branchMarkdown(counted(branchItemsFromFile(sessionPath, session.tree), count), { header: session.header, path: sessionPath, otherBranches: otherBranchCount(session.tree) });
  if (file === "-") {
    await pipeTo(markdown, stdout);
    return { path: "-", messages: count.messages, replaced: false };
  }
  const target = resolve(cwd, file);
  const replaced = await writeWhole(target, markdown, options);
  return { path: target, messages: count.messages, replaced };
}

export function describeExport(result: ExportResult): string {
  const what = `the current branch (${result.messages} message${result.messages === 1 ? "" : "s"})`;
  return `Exported ${what} as Markdown to ${result.path}${result.replaced ? " (replacing the file that was there)" : ""}.`;
}
