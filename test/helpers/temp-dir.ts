// The one temporary-folder fixture: every folder a test makes is removed after the test file ends
// (test/helpers/setup.ts registers the cleanup in each file), so a test run leaves nothing in /tmp.
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

/** A new empty folder under the system's temp folder (its real path), named pitwall-<purpose>-…, removed after the file's tests. */
export function tempDir(purpose = "test"): string {
  const path = realpathSync(mkdtempSync(join(tmpdir(), `pitwall-${purpose}-`)));
  made.push(path);
  return path;
}

/** Removes every folder tempDir made so far (the setup file calls it after each test file). */
export function removeTempDirs(): void {
  for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
}
