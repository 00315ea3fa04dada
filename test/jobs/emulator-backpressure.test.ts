import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createJobTerminal, EmulatorFeed } from "../../tools/jobs/terminal/job-terminal.js";
import type { JobSpec } from "../../tools/jobs/process/job.js";
import { startJob } from "../../tools/jobs/process/start-job.js";
import { tempDir } from "./helpers.js";
import { waitFor } from "../helpers/conditions.js";

function spec(overrides: Partial<JobSpec>): JobSpec {
  return {
    id: "1",
    command: "true",
    cwd: tempDir(),
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    stdinMode: "pty",
    startedBy: "agent",
    restarts: 0,
    shell: "/bin/bash",
    cols: 120,
    rows: 30,
    scrollback: 1_000,
    ...overrides,
  };
}

describe("emulator backpressure", () => {
  it("pauses the source above the high-water mark and resumes once parsed", async () => {
    const terminal = createJobTerminal({ cols: 80, rows: 24, scrollback: 100, convertEol: true });
    const calls: string[] = [];
    const feed = new EmulatorFeed(terminal, { pause: () => calls.push("pause"), resume: () => calls.push("resume") }, 64 * 1024, 16 * 1024);
    const line = "x".repeat(79) + "\n";
    for (let i = 0; i < 2_000; i++) feed.write(line);
    expect(calls).toEqual(["pause"]);
    expect(feed.isPaused).toBe(true);
    await waitFor(() => feed.pending === 0, "the emulator to parse", 10_000);
    expect(calls).toEqual(["pause", "resume"]);
    terminal.dispose();
  });

  for (const stdinMode of ["pty", "pipe"] as const) {
    it(`loses nothing from a ${stdinMode} job paused again and again, up to its last line`, async () => {
      // Losing the end was a race at the exit (a slave let go while output was still unread): one
      // round in ten or so lost it on a busy machine, so several rounds make a regression likelier to show.
      for (let round = 0; round < 6; round++) await pausedToTheEnd(stdinMode);
    }, 120_000);
  }

  async function pausedToTheEnd(stdinMode: "pty" | "pipe"): Promise<void> {
    const job = startJob(
      spec({
        stdinMode,
        command: "seq 1 200000; echo LAST",
        // Below one pty read (up to 4 KiB): the output is paused at nearly every read, however
        // quickly the emulator catches up.
        emulatorHighWater: 1024,
        emulatorLowWater: 256,
      }),
    );
    try {
      const info = await job.exited;
      expect(info).toMatchObject({ status: "exited", exitCode: 0 });
      expect(job.emulatorPauses).toBeGreaterThan(5);
      expect(job.log.lineCount).toBe(200_001);
      expect(job.log.lineAt(200_000)).toBe("200000");
      expect(job.log.lineAt(200_001)).toBe("LAST");
      await waitFor(() => job.emulatorPending === 0, "the emulator to catch up", 10_000);
      const buffer = job.terminal.buffer.active;
      const last = buffer.getLine(buffer.baseY + buffer.cursorY - 1)?.translateToString(true);
      expect(last).toBe("LAST");
    } finally {
      job.signalGroup("SIGKILL");
      job.dispose();
    }
  }
});

describe("emulator backpressure at a job's exit", () => {
  it("reads a pty job's output to its end while the emulator is far behind", async () => {
    // Clearing a 1000×1000 screen is slow for the emulator, so the job's output is paused near its
    // exit. The job ends only once the test has seen the pause: a job that ended on a timer could
    // end, on a loaded machine, before its output was read at all, and then nothing was paused.
    const cwd = tempDir();
    const job = startJob(
      spec({
        command: "echo first; printf '\\033[2J%.0s' $(seq 1 600); while [ ! -e go ]; do sleep 0.01; done; echo LAST",
        cwd,
        cols: 1000,
        rows: 1000,
        emulatorHighWater: 256,
        emulatorLowWater: 64,
      }),
    );
    try {
      await waitFor(() => job.emulatorPauses > 0, "the emulator to fall behind and pause the job's output", 20_000);
      writeFileSync(join(cwd, "go"), "");
      await job.exited;
      expect(job.log.keptText()).toContain("LAST");
    } finally {
      job.signalGroup("SIGKILL");
      job.dispose();
    }
  }, 60_000);
});
