// Wording shared by job tool results, listings and notices, so a job reads the same everywhere.
import type { JobInfo } from "./events.js";
import type { PlainTextLog } from "./log/plain-text-log.js";

/** "850ms", "12.3s", "4m02s", "1h03m". */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)}s`;
  const totalSeconds = Math.floor(ms / 1_000);
  if (totalSeconds < 3_600) {
    const minutes = Math.floor(totalSeconds / 60);
    return `${minutes}m${String(totalSeconds % 60).padStart(2, "0")}s`;
  }
  const hours = Math.floor(totalSeconds / 3_600);
  return `${hours}h${String(Math.floor((totalSeconds % 3_600) / 60)).padStart(2, "0")}m`;
}

/** A command shortened to one line for headers and lists. */
export function shortCommand(command: string, max = 80): string {
  const oneLine = command.replace(/\s*\n\s*/g, " ⏎ ").trim();
  return oneLine.length <= max ? oneLine : oneLine.slice(0, max - 1) + "…";
}

/** "running", "exited with code 1", "killed by SIGTERM". */
export function describeStatus(info: JobInfo): string {
  if (info.status === "running") return "running";
  if (info.status === "killed") return `killed by ${info.signal ?? "a signal"}`;
  return `exited with code ${info.exitCode ?? 0}`;
}

/** How long the job ran (or has been running). */
export function runtime(info: JobInfo, now: number = Date.now()): number {
  return (info.endedAt ?? now) - info.startedAt;
}

/** True when the job ended badly: a non-zero exit or a signal. */
export function failed(info: JobInfo): boolean {
  return info.status === "killed" || (info.status === "exited" && info.exitCode !== 0);
}

/** The last non-empty lines of a log, each cut to `lineChars`, for notices and listings. */
export function lastLines(log: PlainTextLog, count: number, lineChars = 300): string[] {
  const lines = log.tail(count + 20).filter((line) => line.trim().length > 0);
  return lines.slice(-count).map((line) => (line.length > lineChars ? line.slice(0, lineChars - 1) + "…" : line));
}

/** One line per job, for a compaction's summary: what runs, who started it, what it printed last. */
export function jobSnapshotLines(jobs: ReadonlyArray<{ info: JobInfo; log: PlainTextLog }>, now: number = Date.now()): string[] {
  return jobs.map(({ info, log }) => {
    const who = info.startedBy === "person" ? "the person" : "the agent";
    const last = lastLines(log, 1, 160)[0];
    return `job ${info.id}: ${describeStatus(info)} for ${formatDuration(runtime(info, now))}, started by ${who}: ${shortCommand(info.command)}${last ? ` (last output: ${last})` : ""}`;
  });
}
