// No child inherits a pty master (node-pty opens them without close-on-exec): a later job, a bash
// call and a pipe job see only their own stdin, stdout and stderr, and none can type into another job.
import { readdirSync, readlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../tools/jobs/model-tools/bash-tool.js";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import { waitFor } from "../helpers/conditions.js";
import { callContext, neverAborted, tempDir } from "./helpers.js";

const registries: JobRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

/** This process's descriptors that are pty masters. */
function ownPtyMasters(): number[] {
  return readdirSync("/proc/self/fd")
    .filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`) === "/dev/ptmx";
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** `ls -l /proc/self/fd` lines, without the descriptor ls opens to read the folder. */
function descriptorLines(listing: string): string[] {
  return listing.split("\n").filter((line) => / \d+ -> /.test(line) && !line.includes("/proc/"));
}

describe("inherited descriptors", () => {
  it("a second job, a pipe job and a bash call see no pty master and cannot write into another job", async () => {
    const cwd = tempDir();
    const registry = new JobRegistry({ cwd, env: process.env });
    registries.push(registry);
    const first = registry.start({ command: "cat", startedBy: "agent" });
    await waitFor(() => ownPtyMasters().length > 0, "the first job's pty master");
    const masters = ownPtyMasters();

    const second = registry.start({ command: "ls -l /proc/self/fd", startedBy: "agent" });
    await second.exited;
    const pipe = registry.start({ command: "ls -l /proc/self/fd", stdinMode: "pipe", startedBy: "agent" });
    await pipe.exited;
    const bash = createBashTool(cwd);
    const listing = await bash.execute("call-1", { command: "ls -l /proc/self/fd" }, neverAborted(), () => undefined, callContext());

    for (const text of [second.log.keptText(), pipe.log.keptText(), listing.content]) {
      expect(text).not.toContain("ptmx");
      // Only 0, 1 and 2 are open.
      expect(descriptorLines(text).map((line) => line.match(/ (\d+) -> /)![1])).toEqual(["0", "1", "2"]);
    }

    const typed = await bash.execute(
      "call-2",
      { command: masters.map((fd) => `printf 'typed-from-outside\\r' >&${fd}`).join("; ") },
      neverAborted(),
      () => undefined,
      callContext(),
    );
    expect(typed.isError).toBe(true);
    expect(typed.content).toMatch(/Bad file descriptor/);
    expect(first.log.keptText()).not.toContain("typed-from-outside");
  });
});
