// Opening a file that must be a regular one, checked through the descriptor rather than the path:
// O_NONBLOCK makes a FIFO (or a device) put at the path return at once instead of blocking the
// opener, and the check then sees what was opened, not what the path names a moment later.
import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/** The open file and its size; undefined (nothing left open) when the path is not a regular file. */
export async function openRegularFile(path: string): Promise<{ file: FileHandle; size: number } | undefined> {
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await file.stat();
    if (info.isFile()) return { file, size: info.size };
  } catch (error) {
    await file.close();
    throw error;
  }
  await file.close();
  return undefined;
}
