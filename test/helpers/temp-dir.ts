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
  for (const path of paths) rmSync(path, { recursive: true, force: true });
}
