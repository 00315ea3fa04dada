// The test run's global set-up: a temp folder for what a worker's code makes between test files.
// Each file points TMPDIR at a folder of its own (setup.ts) and puts it back when it ends; what a
// worker makes after that (a late write of a file's last test, a temp folder made again) would land
// in the system's temp folder, and a worker is killed at the end of the run, before its exit
// handlers could remove it. Between files, TMPDIR is this folder, removed when the run ends.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export default function setup(): () => void {
  // Each project of the config runs the global set-up: the first one's folder serves them all.
  if (process.env.TEST_SYSTEM_TMPDIR !== undefined) return () => undefined;
  const system = tmpdir();
  const between = mkdtempSync(join(system, "pitwall-run-"));
  // Workers start after this and inherit both: files make their folders in the system's temp folder.
  process.env.TEST_SYSTEM_TMPDIR = system;
  process.env.TMPDIR = between;
  return () => rmSync(between, { recursive: true, force: true, maxRetries: 5 });
}
