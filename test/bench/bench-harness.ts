// What every bench measurement shares: the row type of the table, quantiles, launching the real
// CLI in a pseudo-terminal against the fake LLM, reading a process's memory, and typing at a
// person's pace while timing how soon each key shows.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm, type FakeLlm, type FakeScript } from "../fake-llm/index.js";
import { PitwallTerminal } from "../helpers/terminal-harness.js";
import { removeTempDirs } from "../helpers/temp-dir.js";

export interface Row {
  metric: string;
  value: string;
  target: string;
  /** undefined: informational, no target. */
  pass?: boolean;
}

export type Measurement = () => Promise<Row[]>;

export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

export const ms = (n: number): string => `${n.toFixed(1)} ms`;

/** "least–most" of values, with `digits` decimals. */
export const spread = (values: readonly number[], digits = 1): string => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;

/**
 * Runs taken in pairs, a baseline run then the measured one back to back, so both meet the same
 * load: each side's median and each pair's ratio (measured / baseline) with their median, which
 * a row is judged on (on the shared 2-core VM a best run measures the VM's luck).
 */
export function paired(baseline: readonly number[], measured: readonly number[]): { baseline: number; measured: number; ratios: number[]; ratio: number } {
  const ratios = measured.map((value, i) => value / baseline[i]!);
  return { baseline: quantile(baseline, 0.5), measured: quantile(measured, 0.5), ratios, ratio: quantile(ratios, 0.5) };
}

export interface Run {
  t: PitwallTerminal;
  llm: FakeLlm;
  spawnedAt: number;
  statsPath: string;
  done(): Promise<void>;
}

export async function launch(replies: FakeScript[] = [], extraEnv: Record<string, string> = {}): Promise<Run> {
  const llm = await startFakeLlm();
  llm.enqueue(...replies);
  const cwd = mkdtempSync(join(tmpdir(), "pitwall-bench-"));
  const statsPath = join(cwd, "frame-stats.json");
  // The bash tool saves long output in TMPDIR: keep it inside the run's folder, removed after.
  const spawnedAt = performance.now();
  const t = new PitwallTerminal({
    cols: 120,
    rows: 40,
    cwd,
    env: { ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, PITWALL_FRAME_STATS: statsPath, TMPDIR: cwd, ...extraEnv },
  });
  return {
    t,
    llm,
    spawnedAt,
    statsPath,
    done: async () => {
      await t.close();
      await llm.close();
      rmSync(cwd, { recursive: true, force: true });
      // The terminal's home is a fixture folder, which vitest removes after each file; the bench
      // runs outside vitest and removes it here.
      removeTempDirs();
    },
  };
}

export function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024;
}

/**
 * Types characters one at a time at a person's pace (50–150 ms apart, about 10 a second); each
 * one's time from the write to the pty until the emulator shows it.
 */
export async function typingLatencies(t: PitwallTerminal, keys: number, stop: () => boolean = () => false): Promise<number[]> {
  const latencies: number[] = [];
  let seed = 7;
  const pause = (): Promise<void> => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return new Promise((r) => setTimeout(r, 50 + (seed % 100)));
  };
  const alphabet = "abcdefghijklmnopqrstuvwxyz";
  let typed = "";
  for (let i = 0; i < keys && !stop(); i++) {
    const ch = alphabet[i % alphabet.length]!;
    typed += ch;
    const expected = `› ${typed}`;
    await pause();
    const sentAt = performance.now();
    t.type(ch);
    await t.waitForText(expected, 10_000);
    latencies.push(performance.now() - sentAt);
    if (typed.length > 40) {
      t.press("Ctrl+U");
      await t.waitForNoText(expected, 10_000);
      typed = "";
    }
  }
  t.press("Ctrl+U");
  return latencies;
}

