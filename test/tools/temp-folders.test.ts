// A pitwall process keeps its full-output files in a temp folder of its own (pitwall-<pid>-…),
// removed when it exits; folders of processes that are gone are removed by the next one. Telling a
// live process from a gone one takes real processes, so these run in the full tier.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { removeStaleTempFolders } from "../../tools/process/temp-folder.js";
import { REPO_ROOT } from "../helpers/cli-process.js";

describe("temp folders", () => {
  it("removes the folders of pitwall processes that are gone, and nothing else", async () => {
    const parent = mkdtempSync(join(tmpdir(), "pitwall-tmp-parent-"));
    try {
      const dead = spawnSync("true").pid!;
      const deadFolder = join(parent, `pitwall-${dead}-abc123`);
      const liveFolder = join(parent, `pitwall-${process.pid}-def456`);
      const other = join(parent, "pitwall-notes");
      for (const folder of [deadFolder, liveFolder, other]) mkdirSync(folder);
      writeFileSync(join(deadFolder, "bash-1.log"), "old output");
      // Loose files of older versions: removed once a day old.
      const oldLog = join(parent, "pitwall-bash-1700000000000-0a1b2c3d.log");
      const newLog = join(parent, "pitwall-bash-1700000000001-0a1b2c3e.log");
      writeFileSync(oldLog, "old");
      writeFileSync(newLog, "recent");
      const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60_000);
      utimesSync(oldLog, twoDaysAgo, twoDaysAgo);
      expect((await removeStaleTempFolders(parent)).sort()).toEqual([deadFolder, oldLog].sort());
      expect(readdirSync(parent).sort()).toEqual([basename(liveFolder), basename(newLog), "pitwall-notes"].sort());
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("a process's temp folder is removed when it exits", () => {
    const script = `import { processTempFolder } from ${JSON.stringify(join(REPO_ROOT, "dist/tools/process/temp-folder.js"))};
import { writeFileSync } from "node:fs";
const folder = processTempFolder();
writeFileSync(folder + "/file.log", "x");
console.log(folder);`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    const folder = run.stdout.trim();
    expect(folder).toMatch(/pitwall-\d+-/);
    expect(existsSync(folder)).toBe(false);
  });
});
