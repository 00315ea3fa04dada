// The sessions of a working directory: the newest one for --continue (found from file times and a
// look at each header, without reading whole files), and the list --resume shows, each file read
// streamed for its first prompt, message count and cost. Both the directory's own folder and the
// old-style shared folder are searched; a session counts only when its header names this very cwd.
import { open, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { headerValidator } from "./session-schema.js";
import { legacySessionFolderName, sessionFolder } from "./session-file.js";
import { loadSession } from "./session-load.js";

export interface SessionSummary {
  path: string;
  modified: Date;
  firstPrompt: string;
  messageCount: number;
  /** Dollars, or null when no message had a known price. */
  cost: number | null;
}

async function filesIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((n) => n.endsWith(".jsonl")).map((n) => join(folder, n));
  } catch {
    return [];
  }
}

/** Session files that may belong to `cwd`, with their modification times, newest first. */
async function sessionFiles(root: string, cwd: string): Promise<Array<{ path: string; modified: Date }>> {
  const paths = [...(await filesIn(sessionFolder(root, cwd))), ...(await filesIn(join(root, legacySessionFolderName(cwd))))];
  const files: Array<{ path: string; modified: Date }> = [];
  for (const path of paths) {
    try {
      files.push({ path, modified: (await stat(path)).mtime });
    } catch {
      // Removed meanwhile.
    }
  }
  return files.sort((a, b) => b.modified.getTime() - a.modified.getTime() || b.path.localeCompare(a.path));
}

/** True when the file starts with a session header naming `cwd` (only its first line is read). */
async function isSessionOf(path: string, cwd: string): Promise<boolean> {
  const handle = await open(path, "r").catch(() => undefined);
  if (!handle) return false;
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const first = buffer.subarray(0, bytesRead).toString("utf8").split("\n")[0] ?? "";
    const header: unknown = JSON.parse(first);
    return headerValidator.check(header) && header.cwd === cwd;
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}

/** The newest session of a directory (for --continue), or undefined. */
export async function newestSession(root: string, cwd: string): Promise<string | undefined> {
  for (const file of await sessionFiles(root, cwd)) if (await isSessionOf(file.path, cwd)) return file.path;
  return undefined;
}

/** Sessions of a working directory, newest first. Unreadable files are left out. */
export async function listSessions(root: string, cwd: string): Promise<SessionSummary[]> {
  const summaries: SessionSummary[] = [];
  for (const file of await sessionFiles(root, cwd)) {
    try {
      // Nothing is kept in memory: only the counts.
      const session = await loadSession(file.path, { budgetFor: () => 0 });
      if (session.header.cwd !== cwd) continue;
      summaries.push({ path: file.path, modified: file.modified, firstPrompt: session.firstPrompt, messageCount: session.stats.messages, cost: session.stats.cost });
    } catch {
      // Not a session we can read: not offered.
    }
  }
  return summaries;
}
