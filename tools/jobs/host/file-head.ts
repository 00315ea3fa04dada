// The start of a file, for a remote session's files pane (the host reads it where it is): its size
// and at most `maxBytes` of it, base64 so any bytes cross the JSON socket. Only a regular file is
// opened (a FIFO would block the host; a device is not a file to preview), and O_NONBLOCK makes even
// a FIFO put in its place between the check and the open return at once.
import { constants } from "node:fs";
import { open, stat } from "node:fs/promises";

export async function readFileHead(path: string, maxBytes: number): Promise<{ size: number; data: string }> {
  const info = await stat(path);
  if (!info.isFile()) throw new Error(`${path} is not a regular file.`);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(Math.min(info.size, maxBytes));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { size: info.size, data: buffer.subarray(0, bytesRead).toString("base64") };
  } finally {
    await handle.close();
  }
}
