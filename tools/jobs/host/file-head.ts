// The start of a file, for a remote session's files pane (the host reads it where it is): its size
// and at most `maxBytes` of it, base64 so any bytes cross the JSON socket. Only a regular file is
// read (a FIFO would block the host; a device is not a file to preview): regular-file.ts.
import { openRegularFile } from "../../regular-file.js";

export async function readFileHead(path: string, maxBytes: number): Promise<{ size: number; data: string }> {
  const opened = await openRegularFile(path);
  if (!opened) throw new Error(`${path} is not a regular file.`);
  const { file, size } = opened;
  try {
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    return { size, data: buffer.subarray(0, bytesRead).toString("base64") };
  } finally {
    await file.close();
  }
}
