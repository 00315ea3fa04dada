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
  for (const path of made.splice(0)) {
    reapJobHosts(path);
    rmSync(path, { recursive: true, force: true });
  }
}
