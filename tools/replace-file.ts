// Replaces a file's contents without losing anything that belongs to the file. Two ways, chosen per
// file:
// - atomically (temp file in the same folder, synced, renamed over the target): a reader sees the
//   old contents or the new ones, never half of each. Mode, owner and group are copied first.
// - in place (the same inode is rewritten, then synced) when the file has other hard links or
//   another owner or group: a rename would cut the other links off or hand the file to the running
//   user. If that write fails, the old contents are written back.
// Symlinks are followed (the link stays a link); FIFOs, devices, sockets and folders are refused.
// An abort before the commit point leaves the target untouched.
import type { Stats } from "node:fs";
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { mkdir, open, rename, unlink, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { throwIfAborted } from "./aborted.js";
import { assertRegularFile, resolveWriteTarget } from "./write-target.js";

export interface ReplaceFileOptions {
  /** Aborts the write up to the commit point (the rename, or the first byte written in place). */
  signal?: AbortSignal;
  /**
   * Runs when the new contents are ready, right before the commit point. Contract: throwing cancels
   * the write (nothing changes and the error propagates); edit uses it to check that nobody changed
   * the file since it was read.
   */
  beforeCommit?: () => Promise<void> | void;
  /** How messages name the file; the path itself by default. */
  shownPath?: string;
  /** Create missing parent folders of the file (of a symlink's target, when it is one). */
  makeParents?: boolean;
}

export interface ReplaceFileResult {
  /** The file that was written: the path, or the target of its symlink chain. */
  target: string;
  /** True when the file did not exist before. */
  created: boolean;
  /** How it was written; see the top of this file. */
  method: "atomic" | "in-place";
}

/** Why the file must be rewritten in place, or undefined when a rename keeps everything. */
function inPlaceReason(info: Stats): string | undefined {
  if (info.nlink > 1) return "it has other hard links";
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (uid !== undefined && info.uid !== uid) return "it belongs to another user";
  if (gid !== undefined && info.gid !== gid) return "it belongs to another group";
  return undefined;
}

/** Writes `data` as the whole new contents of `filePath`. The parent folder must exist. */
export async function replaceFile(
  filePath: string,
  data: string | Uint8Array,
  options: ReplaceFileOptions = {},
): Promise<ReplaceFileResult> {
  const shownPath = options.shownPath ?? filePath;
  throwIfAborted(options.signal, abortMessage(shownPath));
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const { path, existing } = await resolveWriteTarget(filePath, shownPath);
  if (existing) assertRegularFile(existing, shownPath, "write");
  else if (options.makeParents) await mkdir(dirname(path), { recursive: true });
  if (existing && inPlaceReason(existing) !== undefined) {
    await writeInPlace(path, existing, bytes, options, shownPath);
    return { target: path, created: false, method: "in-place" };
  }
  await writeAtomically(path, existing, bytes, options, shownPath);
  return { target: path, created: existing === undefined, method: "atomic" };
}

function abortMessage(shownPath: string): string {
  return `Writing ${shownPath} was aborted; the file was not changed.`;
}

async function writeAtomically(
  target: string,
  existing: Stats | undefined,
  bytes: Buffer,
  options: ReplaceFileOptions,
  shownPath: string,
): Promise<void> {
  const dir = dirname(target);
  const tempPath = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
  let renamed = false;
  try {
    try {
      if (existing) {
        // Set explicitly: the mode given to open is reduced by the umask, and a setgid folder
        // would give the temp file its own group.
        await handle.chmod(existing.mode & 0o7777);
        await handle.chown(existing.uid, existing.gid).catch(() => undefined);
        // chown may clear setuid/setgid bits; set the mode once more.
        await handle.chmod(existing.mode & 0o7777);
      }
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    throwIfAborted(options.signal, abortMessage(shownPath));
    await options.beforeCommit?.();
    throwIfAborted(options.signal, abortMessage(shownPath));
    await rename(tempPath, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tempPath).catch(() => undefined);
  }
  await syncDirectory(dir);
}

async function writeInPlace(target: string, before: Stats, bytes: Buffer, options: ReplaceFileOptions, shownPath: string): Promise<void> {
  // O_NONBLOCK: if the file was swapped for a FIFO since it was checked, opening must not hang.
  const handle = await open(target, constants.O_RDWR | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const now = await handle.stat();
    if (!now.isFile() || now.ino !== before.ino || now.dev !== before.dev) {
      throw new Error(`${shownPath} was replaced by another file while it was being written; nothing was changed. Check it and try again.`);
    }
    const old = await handle.readFile();
    throwIfAborted(options.signal, abortMessage(shownPath));
    await options.beforeCommit?.();
    throwIfAborted(options.signal, abortMessage(shownPath));
    try {
      await writeAll(handle, bytes);
    } catch (error) {
      await writeAll(handle, old).catch(() => undefined);
      const code = (error as NodeJS.ErrnoException).code;
      throw new Error(
        `Writing ${shownPath} failed (${code ?? (error as Error).message}); its old contents were written back. ` +
          `${code === "ENOSPC" ? "The disk is full: free some space and try again." : "Check the file and try again."}`,
      );
    }
  } finally {
    await handle.close();
  }
}

/** The whole of `bytes` from offset 0, the rest cut off, then synced. */
async function writeAll(handle: FileHandle, bytes: Buffer): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, done);
    done += bytesWritten;
  }
  // Written first, cut second: the file is never shorter than both the old and the new contents.
  await handle.truncate(bytes.length);
  await handle.sync();
}

/** Makes the rename itself durable; some file systems cannot open a folder, which is harmless. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await open(dir, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the folder entry is best effort; the data itself was synced above.
  }
}
