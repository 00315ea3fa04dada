// Tells binary files from text the way git does: a NUL byte in the first 8 KiB means binary.
import { open } from "node:fs/promises";

export const BINARY_SNIFF_BYTES = 8 * 1024;

export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < end; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Reads at most the first 8 KiB of `path` and looks for a NUL byte. */
export async function isBinaryFile(path: string): Promise<boolean> {
  return looksBinary(await readFileHead(path, BINARY_SNIFF_BYTES));
}

/** The first `size` bytes of a file (fewer when it is shorter). */
export async function readFileHead(path: string, size: number): Promise<Buffer> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
