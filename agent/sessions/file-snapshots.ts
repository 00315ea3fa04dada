// The content of files before the agent changed them, kept next to the session so a rewind can put
// them back: `<session>.snapshots/<sha256>`, one file per distinct content (the same content is
// kept once, however many changes it comes before). Bounded: a file larger than 2 MiB is only
// hashed (its change is recorded, but it cannot be restored), and past 64 MiB for the session the
// least recently stored contents are removed. A content holding an API key in use is not written
// (the promise that pitwall's files never hold keys stays); its change cannot be restored either.
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { link, copyFile, mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { FileState } from "./session-file.js";

/** Contents larger than this are hashed, not kept. */
export const SNAPSHOT_FILE_CAP = 2 * 1024 * 1024;
/** The most a session's snapshot folder holds; the least recently stored contents go first. */
export const SNAPSHOT_SESSION_CAP = 64 * 1024 * 1024;

const HASH = /^[0-9a-f]{64}$/;

export function snapshotFolderOf(sessionPath: string): string {
  return `${sessionPath.replace(/\.jsonl$/, "")}.snapshots`;
}

export interface SnapshotOptions {
  fileCap?: number;
  sessionCap?: number;
  /** Contents holding one of these are not written. */
  secrets?: readonly string[];
}

function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

export class FileSnapshots {
  private readonly fileCap: number;
  private readonly sessionCap: number;
  private readonly secrets: readonly string[];
  /** Stored contents, least recently stored first, with their sizes; read from the folder once. */
  private index: Promise<Map<string, number>> | undefined;

  constructor(
    readonly folder: string,
    options: SnapshotOptions = {},
  ) {
    this.fileCap = options.fileCap ?? SNAPSHOT_FILE_CAP;
    this.sessionCap = options.sessionCap ?? SNAPSHOT_SESSION_CAP;
    this.secrets = options.secrets ?? [];
  }

  /**
   * The state of the file at `path` before a change, its content kept when it can be: null when
   * there is no file, undefined when it is not a regular file (or cannot be read: the change itself
   * will fail or is not the agent's to undo).
   */
  async capture(path: string): Promise<FileState | null | undefined> {
    let size: number;
    try {
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      size = info.size;
    } catch (error) {
      return missing(error) ? null : undefined;
    }
    try {
      if (size > this.fileCap) return { hash: await hashFile(path), bytes: size, unkept: "size" };
      const bytes = await readFile(path);
      const hash = sha256(bytes);
      if (bytes.length > this.fileCap) return { hash, bytes: bytes.length, unkept: "size" };
      if (this.secrets.some((secret) => bytes.includes(secret))) return { hash, bytes: bytes.length, unkept: "secret" };
      const kept = await this.keep(hash, bytes);
      return kept ? { hash, bytes: bytes.length } : { hash, bytes: bytes.length, unkept: "unsaved" };
    } catch (error) {
      return missing(error) ? null : undefined;
    }
  }

  /** The file's state now (hash and size), without keeping anything; null when there is no file, "other" for a folder or device. */
  async stateOf(path: string): Promise<FileState | null | "other"> {
    try {
      const info = await stat(path);
      if (!info.isFile()) return "other";
      return { hash: await hashFile(path), bytes: info.size };
    } catch (error) {
      if (missing(error)) return null;
      throw error;
    }
  }

  /** A kept content, checked against its hash; undefined when it is not (or no longer) kept. */
  async read(hash: string): Promise<Buffer | undefined> {
    if (!HASH.test(hash)) return undefined;
    try {
      const bytes = await readFile(join(this.folder, hash));
      return sha256(bytes) === hash ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** Copies (hard-links where it can) a kept content of another session's folder into this one. */
  async adopt(hash: string, from: FileSnapshots): Promise<void> {
    const index = await this.loadIndex();
    if (index.has(hash) || !HASH.test(hash)) return;
    const source = join(from.folder, hash);
    let size: number;
    try {
      size = (await stat(source)).size;
    } catch {
      return; // Not kept there either.
    }
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    await this.makeRoom(index, size);
    const target = join(this.folder, hash);
    await link(source, target).catch(() => copyFile(source, target));
    index.set(hash, size);
  }

  /** Stores `bytes` under `hash` (or marks an existing copy as recent); false when it could not be written. */
  private async keep(hash: string, bytes: Buffer): Promise<boolean> {
    try {
      const index = await this.loadIndex();
      const path = join(this.folder, hash);
      if (index.has(hash)) {
        // Stored again: it is recent now (the time survives a restart, for the order of eviction).
        const size = index.get(hash)!;
        index.delete(hash);
        index.set(hash, size);
        const now = new Date();
        await utimes(path, now, now).catch(() => undefined);
        return true;
      }
      await mkdir(this.folder, { recursive: true, mode: 0o700 });
      await this.makeRoom(index, bytes.length);
      const temp = join(this.folder, `.${hash}.${randomBytes(4).toString("hex")}.tmp`);
      try {
        await writeFile(temp, bytes, { mode: 0o600, flag: "wx" });
        await rename(temp, path);
      } catch (error) {
        await unlink(temp).catch(() => undefined);
        throw error;
      }
      index.set(hash, bytes.length);
      return true;
    } catch {
      return false;
    }
  }

  /** Removes the least recently stored contents until `incoming` more bytes fit the session's cap. */
  private async makeRoom(index: Map<string, number>, incoming: number): Promise<void> {
    let total = 0;
    for (const size of index.values()) total += size;
    for (const [hash, size] of index) {
      if (total + incoming <= this.sessionCap) break;
      index.delete(hash);
      total -= size;
      await unlink(join(this.folder, hash)).catch(() => undefined);
    }
  }

  private loadIndex(): Promise<Map<string, number>> {
    this.index ??= (async () => {
      const found: Array<{ hash: string; size: number; at: number }> = [];
      let names: string[] = [];
      try {
        names = await readdir(this.folder);
      } catch {
        // No folder yet.
      }
      for (const name of names) {
        if (!HASH.test(name)) continue;
        try {
          const info = await stat(join(this.folder, name));
          found.push({ hash: name, size: info.size, at: info.mtimeMs });
        } catch {
          // Removed meanwhile.
        }
      }
      found.sort((a, b) => a.at - b.at);
      return new Map(found.map((f) => [f.hash, f.size]));
    })();
    return this.index;
  }
}
