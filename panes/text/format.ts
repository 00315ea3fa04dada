// Small formatting helpers shared by panes: durations, token counts, money, spinners, retry waits.

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export function spinnerFrame(now: number = Date.now()): string {
  return SPINNER_FRAMES[Math.floor(now / 100) % SPINNER_FRAMES.length]!;
}

/** 0.4s, 3.1s, 1m05s, 2h03m. */
export function formatDuration(ms: number): string {
  if (ms < 60_000) return `${(Math.max(0, ms) / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** 950, 12.3k, 1.2M. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatCost(dollars: number | null): string {
  if (dollars === null) return "cost unknown";
  if (dollars < 0.01 && dollars > 0) return "<$0.01";
  return `$${dollars.toFixed(2)}`;
}

/** A wait as a person reads it: "250 ms", "4 s". */
export function formatWait(ms: number): string {
  return ms < 1000 ? `${Math.max(0, Math.round(ms))} ms` : `${Math.ceil(ms / 1000)} s`;
}

/** A failed model request waiting to be tried again, as the status line counts it down. */
export interface RetryWait {
  /** When the next attempt goes out (epoch ms). */
  at: number;
  attempt: number;
  maxAttempts: number;
}

/** "retrying in 4 s, attempt 2/5", counting down to "retrying now" once the wait is over. */
export function formatRetry(retry: RetryWait, now: number): string {
  const left = retry.at - now;
  return `${left > 0 ? `retrying in ${formatWait(left)}` : "retrying now"}, attempt ${retry.attempt}/${retry.maxAttempts}`;
}
