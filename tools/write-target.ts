// Where a write to a path really lands, and whether it may: symlinks are followed to their target
// (even a dangling one, so the link stays a link), and anything that is not a regular file (a FIFO,
// a device, a socket, a folder) is refused before it is opened, since opening a FIFO for writing
// blocks and "replacing" a device with a file destroys it.
import type { Stats } from "node:fs";
import { lstat, readlink } from "node:fs/promises";
import { dirname, resolve } from "node:path";

/** Symlink hops followed before giving up, as the kernel does (ELOOP). */
const MAX_LINK_HOPS = 40;

export interface WriteTarget {
  /** The path the bytes go to: `path` itself, or the end of its symlink chain. */
  path: string;
  /** The target as it is now; undefined when it does not exist yet. */
  existing: Stats | undefined;
}

/** What a non-regular file is, in words, or undefined for a regular file. */
export function nonRegularKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a FIFO (named pipe)";
  if (info.isSocket()) return "a socket";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

export class NotRegularFileError extends Error {}

/** Throws unless `info` is a regular file; the message names what it is and what to do instead. */
export function assertRegularFile(info: Stats, shownPath: string, verb: string): void {
  const kind = nonRegularKind(info);
  if (kind === undefined) return;
  const advice =
    kind === "a directory"
      ? "give the path of a file inside it."
      : "only regular files can be changed with this tool; if you really mean to write to it, use bash.";
  throw new NotRegularFileError(`Cannot ${verb} ${shownPath}: it is ${kind}, not a regular file. Nothing was changed; ${advice}`);
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Follows `path` through any symlinks to the file a write changes. Only the last component is
 * followed by hand; folders on the way are the kernel's business.
 */
export async function resolveWriteTarget(path: string, shownPath: string): Promise<WriteTarget> {
  let current = path;
  for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
    const info = await lstatOrUndefined(current);
    if (info === undefined || !info.isSymbolicLink()) return { path: current, existing: info };
    current = resolve(dirname(current), await readlink(current));
  }
  throw new Error(`Cannot write ${shownPath}: it is a chain of more than ${MAX_LINK_HOPS} symbolic links (a loop?). Nothing was changed.`);
}
