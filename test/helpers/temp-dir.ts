// The one temporary-folder fixture: every folder a test makes is removed after the test file ends
// (test/helpers/setup.ts registers the cleanup in each file), so a test run leaves nothing in /tmp,
// and no job host a test's pitwall started in one of them keeps running.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reapJobHosts } from "./job-hosts.js";

const made: string[] = [];

/** A new empty folder under the system's temp folder (its real path), named pitwall-<purpose>-…, removed after the file's tests. */
export function tempDir(purpose = "test"): string {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `pitwall-${purpose}-`)));
  made.push(path);
  return path;
}

/** Removes every folder tempDir made so far (the setup file calls it after each test file), ending the job hosts started in them first. */
export function removeTempDirs(): void {
  const paths = made.splice(0);
  // All hosts first: a folder may hold another (TMPDIR is one), and its removal would take their pid files.
  for (const path of paths) reapJobHosts(path);
  for (const path of paths) removeFolder(path, paths);
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A job host that was starting as the test ended (a prompt typed starts one) has no pid file yet
 * to be found by, and writes its files while the folder goes (ENOTEMPTY): it is ended once they
 * are there, and the removal tried again.
 */
function removeFolder(path: string, all: readonly string[]): void {
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (attempt === 20 || (code !== "ENOTEMPTY" && code !== "EBUSY")) throw error;
      for (const folder of all) reapJobHosts(folder);
      Atomics.wait(pause, 0, 0, 50);
    }
  }
}
