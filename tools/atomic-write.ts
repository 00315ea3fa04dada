// Writes a file so that a reader sees either the old contents or the new ones, never half of each:
// the data goes to a temp file in the same folder, is flushed to disk, then renamed over the target.
// An abort before the rename leaves the target untouched and removes the temp file.
import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { throwIfAborted } from "./aborted.js";

export interface AtomicWriteOptions {
  /** Aborts the write up to the rename; after the rename the write has happened. */
  signal?: AbortSignal;
  /**
   * Runs after the temp file is complete and synced, right before the rename. Contract: throwing
   * cancels the write (the temp file is removed and the error propagates); edit uses it to check that
   * nobody changed the file since it was read.
   */
  beforeRename?: () => Promise<void> | void;
}

/** The file a write to `filePath` really changes: a symlink's target, so the link survives. */
async function writeTarget(filePath: string): Promise<string> {
  try {
    return await realpath(filePath);
  } catch {
    return filePath;
  }
}

/**
 * Replaces `filePath` with `data` atomically. The parent folder must exist. An existing file keeps
 * its permission bits; a new one gets 0o666 less the umask, as with any ordinary write.
 */
export async function writeFileAtomic(
  filePath: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const what = `Writing ${filePath} was aborted; the file was not changed.`;
  throwIfAborted(options.signal, what);
  const target = await writeTarget(filePath);
  let existingMode: number | undefined;
  try {
    existingMode = (await stat(target)).mode & 0o7777;
  } catch {
    existingMode = undefined;
  }
  const dir = dirname(target);
  const tempPath = join(dir, `.${basename(target)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(tempPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o666);
  let renamed = false;
  try {
    try {
      // Set explicitly: the mode given to open is reduced by the umask.
      if (existingMode !== undefined) await handle.chmod(existingMode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    throwIfAborted(options.signal, what);
    await options.beforeRename?.();
    throwIfAborted(options.signal, what);
    await rename(tempPath, target);
    renamed = true;
  } finally {
    if (!renamed) await unlink(tempPath).catch(() => undefined);
  }
  await syncDirectory(dir);
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
