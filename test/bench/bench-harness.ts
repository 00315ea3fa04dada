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

