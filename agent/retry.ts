// When and how long to wait before trying a failed provider call again: exponential backoff,
// unless the server said how long (retry-after), and never past a ceiling a person would not wait.
import type { ProviderError } from "./providers/provider.js";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  /** A server asking for a longer wait than this is not retried: the error says so instead. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };

/** Milliseconds to wait before attempt `attempt + 1`, or undefined when it should not be retried. */
export function retryDelay(error: ProviderError, attempt: number, policy: RetryPolicy): number | undefined {
  if (!error.options.retryable || attempt >= policy.maxAttempts) return undefined;
  const asked = error.options.retryAfterMs;
  if (asked !== undefined) return asked <= policy.maxDelayMs ? asked : undefined;
  return Math.min(policy.baseDelayMs * 2 ** (attempt - 1), policy.maxDelayMs);
}

/**
 * Why a retryable failure is not tried again, for the error a person reads: the server asked for a
 * longer wait than pitwall makes. Undefined otherwise.
 */
export function retryRefusal(error: ProviderError, policy: RetryPolicy): string | undefined {
  const asked = error.options.retryAfterMs;
  if (!error.options.retryable || asked === undefined || asked <= policy.maxDelayMs) return undefined;
  return `The server asked to wait ${formatWait(asked)} before trying again, longer than pitwall waits (${formatWait(policy.maxDelayMs)}): try again later.`;
}

function formatWait(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  return seconds >= 120 ? `${Math.round(seconds / 60)} min (${seconds} s)` : `${seconds} s`;
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
