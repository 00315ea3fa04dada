// Runs in every test file (test/vitest.config.ts). Whatever the file's code puts in the temp folder
// (the shared fixture's folders, the bash tool's full-output files, the CLIs the file starts: they
// inherit TMPDIR) lands in one folder of its own, removed with the rest when the file ends.
import { afterAll } from "vitest";
import { removeTempDirs, tempDir } from "./temp-dir.js";

// Between files TMPDIR is the run's folder (run-temp.ts); the file's own folder is made beside it.
const between = process.env.TMPDIR;
if (process.env.TEST_SYSTEM_TMPDIR) process.env.TMPDIR = process.env.TEST_SYSTEM_TMPDIR;
process.env.TMPDIR = tempDir("file");

afterAll(() => {
  removeTempDirs();
  if (between === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = between;
});
