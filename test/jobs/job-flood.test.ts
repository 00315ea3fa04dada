import { afterEach, describe, expect, it } from "vitest";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import { DEFAULT_LOG_HEAD_CHARS, DEFAULT_LOG_MAX_CHARS, DEFAULT_LOG_MAX_LINE_CHARS } from "../../tools/jobs/log/plain-text-log.js";
import { EMULATOR_HIGH_WATER } from "../../tools/jobs/terminal/job-terminal.js";
import { tempDir } from "./helpers.js";
import { ScreenWatches } from "../../tools/jobs/terminal/screen-watch.js";
import { applyScreenUpdate, screenText, type ScreenState } from "../../tools/jobs/terminal/screen-state.js";
import { waitFor } from "../helpers/conditions.js";

const registries: JobRegistry[] = [];
afterEach(async () => {
  await Promise.all(registries.splice(0).map((r) => r.shutdown()));
});

const LINE = "flood line 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ";

describe("a job that floods its output", () => {
  it("keeps memory bounded through 100 MB of output", async () => {
    const registry = new JobRegistry({ cwd: tempDir(), env: process.env, settings: { scrollback: 1_000 } });
    registries.push(registry);
    let eventBytes = 0;
    let largestChunk = 0;
    registry.subscribe((e) => {
      if (e.type !== "job_output") return;
      eventBytes += e.chunk.length;
      largestChunk = Math.max(largestChunk, Buffer.byteLength(e.chunk));
    });
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let pendingPeak = 0;
    const job = registry.start({ command: `yes '${LINE}' | head -c 100000000`, startedBy: "agent" });
    job.onOutput(() => {
      pendingPeak = Math.max(pendingPeak, job.emulatorPending);
    });
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 100);
    const info = await job.exited;
    // Everything arrived (the pty turns each \n into \r\n). The last reads of a pty can trail the
    // exit on a loaded machine: wait for the lines, then for the emulator.
    const lines = Math.floor(100_000_000 / (LINE.length + 1));
    await waitFor(() => job.log.lineCount === lines, `all ${lines} lines in the log`, 30_000);
    await waitFor(() => job.emulatorPending === 0, "the emulator to catch up", 30_000);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);

    expect(info).toMatchObject({ status: "exited", exitCode: 0 });
    expect(eventBytes).toBeGreaterThanOrEqual(100_000_000);
    expect(largestChunk).toBeLessThanOrEqual(8 * 1024);
    // The plain-text log kept only its budget, with absolute numbering.
    expect(job.log.retainedChars).toBeLessThanOrEqual(DEFAULT_LOG_MAX_CHARS + DEFAULT_LOG_HEAD_CHARS + DEFAULT_LOG_MAX_LINE_CHARS);
    expect(job.log.firstKeptLine).toBeGreaterThan(1);
    expect(job.log.lineAt(lines)).toBe(LINE);
    // The emulator kept its scrollback and never fell far behind.
    expect(job.terminal.buffer.active.length).toBeLessThanOrEqual(job.terminal.rows + 1_000);
    expect(pendingPeak).toBeLessThanOrEqual(EMULATOR_HIGH_WATER + 1024 * 1024);
    const buffer = job.terminal.buffer.active;
    expect(buffer.getLine(buffer.baseY + buffer.cursorY - 1)?.translateToString(true)).toBe(LINE.slice(0, job.terminal.cols));
    // The model's view is capped.
    const capped = job.log.capped(30_000);
    expect(capped.text.length).toBeLessThan(31_000);
    expect(capped.totalChars).toBeGreaterThanOrEqual(100_000_000);
    console.log({ rssGrowthMB: (rssPeak - rssBefore) / 1e6, pendingPeak, lines: job.log.lineCount, retained: job.log.retainedChars, eventBytes });
    // Generous: the emulator (~10–15 MB), the log (~4 MB) and V8's own slack, not 100 MB of output.
    expect(rssPeak - rssBefore).toBeLessThan(250 * 1024 * 1024);
  }, 120_000);

  it("never shows a screen that never existed: every screen update of a flooding job holds consecutive lines of its output", async () => {
    const registry = new JobRegistry({ cwd: tempDir(), env: process.env, settings: { scrollback: 200 } });
    registries.push(registry);
    const watches = new ScreenWatches(registry);
    const job = registry.start({ command: "seq 1 3000000", startedBy: "agent", size: { cols: 40, rows: 12 } });
    let state: ScreenState | undefined;
    let updates = 0;
    const problems: string[] = [];
    watches.open(job.id, (update) => {
      state = applyScreenUpdate(state, update);
      updates++;
      const rows = screenText(state).filter((row) => row !== "");
      // The last row may be the line being written, cut where a read ended.
      const last = rows.length - 1;
      const numbers = rows.map(Number);
      if (last > 0 && String(numbers[last - 1]! + 1).startsWith(rows[last]!)) numbers[last] = numbers[last - 1]! + 1;
      for (let i = 1; i < numbers.length; i++) if (numbers[i] !== numbers[i - 1]! + 1) problems.push(rows.join(" "));
    });
    await job.exited;
    await waitFor(() => job.emulatorPending === 0, "the emulator to catch up", 30_000);
    expect(job.emulatorSkipped).toBeGreaterThan(0);
    expect(updates).toBeGreaterThan(3);
    expect(problems.slice(0, 3)).toEqual([]);
    watches.dispose();
  }, 60_000);
});

