// pitwall's temp files live in one folder per process, $TMPDIR/pitwall-<pid>-<random>, removed when
// the process ends (on a normal exit here, after a crash by the watchdog). Folders left by pitwall
// processes that are gone (a crash before the watchdog existed, a machine that lost power) are
// removed when the next pitwall starts, and so are the loose full-output files that pitwall versions
// before these folders left in $TMPDIR (pitwall-bash-<time>-<hex>.log), once a day old.
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const FOLDER_NAME = /^pitwall-(\d+)-[A-Za-z0-9]{6}$/;
/** Full-output files of pitwall versions that wrote them straight into $TMPDIR. */
const OLD_OUTPUT_FILE = /^pitwall-(bash|output)-\d+-[0-9a-f]{8}\.log$/;
const OLD_OUTPUT_AGE_MS = 24 * 60 * 60_000;

let folder: string | undefined;

/**
 * This process's temp folder, made (mode 0700) on first use and removed when the process exits.
 * Made again if it went meanwhile (a temp cleaner's sweep during a long session), so a full output
 * is never written into a folder that is gone.
 */
export function processTempFolder(): string {
  if (folder !== undefined && existsSync(folder)) return folder;
  const first = folder === undefined;
  folder = mkdtempSync(join(tmpdir(), `pitwall-${process.pid}-`));
  if (first) process.once("exit", () => folder !== undefined && removeTree(folder));
  return folder;
}

/**
 * Removes a folder and all in it, even folders a command made read-only (the sandbox's private /tmp
 * is in here); never throws, since it runs as the process exits.
 */
export function removeTree(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
    return;
  } catch {
    // A folder without write permission: open them up, then try again.
  }
  const openUp = (dir: string): void => {
    try {
      chmodSync(dir, 0o700);
      for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) openUp(join(dir, entry.name));
    } catch {
      // Not ours to change: the removal says what is left.
    }
  };
  openUp(path);
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Left for the next pitwall's removeStaleTempFolders.
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temp folders of pitwall processes that no longer run: named pitwall-<pid>-…, owned by
 * this user, and the pid is not alive. Resolves with what was removed. A pid reused by another
 * program keeps its folder until that program ends too. Old versions' loose output files of this
 * user go once they are a day old.
 */
export async function removeStaleTempFolders(parent: string = tmpdir()): Promise<string[]> {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return [];
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  for (const name of names) {
    if (OLD_OUTPUT_FILE.test(name)) {
      const path = join(parent, name);
      try {
        const info = statSync(path);
        if (!info.isFile() || (uid !== undefined && info.uid !== uid) || Date.now() - info.mtimeMs < OLD_OUTPUT_AGE_MS) continue;
        await rm(path, { force: true });
        removed.push(path);
      } catch {
        // Gone meanwhile.
      }
      continue;
    }
    const match = FOLDER_NAME.exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    if (pid === process.pid || alive(pid)) continue;
    const path = join(parent, name);
    try {
      const info = statSync(path);
      if (!info.isDirectory() || (uid !== undefined && info.uid !== uid)) continue;
      await rm(path, { recursive: true, force: true });
      removed.push(path);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}
