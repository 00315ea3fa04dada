// Image files a remote's read keeps open while its client fetches them piece by piece. An image's
// bytes cross the link in one message each, and a message is capped (wire/framing.ts), so a read
// returns the first piece and a token; the client asks for the rest by token and offset. The pieces
// come from the descriptor the read opened after its checks (the fence, a regular file, the size),
// never from the path again: a file swapped for another between two pieces cannot send the other.
// A file is closed with its last piece, when its client goes, or after OPEN_IMAGE_IDLE_MS unasked.
import type { FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";

/** How long a kept image waits for its next piece before it is closed. */
export const OPEN_IMAGE_IDLE_MS = 60_000;

interface OpenImage {
  file: FileHandle;
  size: number;
  owner: string;
  timer: NodeJS.Timeout;
}

export class OpenImages {
  private readonly open = new Map<string, OpenImage>();

  constructor(private readonly idleMs: number = OPEN_IMAGE_IDLE_MS) {}

  /** Takes `file` (its first bytes sent already) for `owner`'s later pieces; returns their token. */
  keep(file: FileHandle, size: number, owner: string): string {
    const token = randomBytes(12).toString("hex");
    this.open.set(token, { file, size, owner, timer: this.closeLater(token) });
    return token;
  }

  /** Up to `maxBytes` of the image from `offset`, base64; the last piece closes the file. */
  async piece(token: string, owner: string, offset: number, maxBytes: number): Promise<{ data: string }> {
    const image = this.open.get(token);
    if (!image || image.owner !== owner) throw new Error("This image is no longer open on the remote (its read ended, or waited too long for its next piece): read it again.");
    clearTimeout(image.timer);
    const length = Math.max(0, Math.min(maxBytes, image.size - offset));
    const buffer = Buffer.alloc(length);
    let bytesRead = 0;
    try {
      bytesRead = (await image.file.read(buffer, 0, length, offset)).bytesRead;
    } catch (error) {
      await this.close(token);
      throw error;
    }
    if (bytesRead < length) {
      await this.close(token);
      throw new Error(`The image got shorter while it was read (${offset + bytesRead} of ${image.size} bytes): read it again once it is written.`);
    }
    if (offset + length >= image.size) await this.close(token);
    else image.timer = this.closeLater(token);
    return { data: buffer.toString("base64") };
  }

  /** Closes what `owner` kept open (its connection ended). */
  async release(owner: string): Promise<void> {
    await Promise.all([...this.open].filter(([, image]) => image.owner === owner).map(([token]) => this.close(token)));
  }

  /** How many images are open (tests). */
  get count(): number {
    return this.open.size;
  }

  private closeLater(token: string): NodeJS.Timeout {
    const timer = setTimeout(() => void this.close(token), this.idleMs);
    timer.unref();
    return timer;
  }

  private async close(token: string): Promise<void> {
    const image = this.open.get(token);
    if (!image) return;
    this.open.delete(token);
    clearTimeout(image.timer);
    await image.file.close().catch(() => undefined);
  }
}
