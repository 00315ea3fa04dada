// How long the loop waits before trying a provider call again: what the server asked for
// (retry-after-ms, retry-after in seconds or as an HTTP date), exponential backoff otherwise, and
// never past the ceiling a person would wait.
import { afterEach, describe, expect, it, vi } from "vitest";
import { retryAfterFrom } from "../../agent/providers/errors.js";
import { ProviderError } from "../../agent/providers/provider.js";
import { retryDelay, type RetryPolicy } from "../../agent/retry.js";

const policy: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 60_000 };
const retryable = (retryAfterMs?: number) => new ProviderError("busy", "http", { status: 429, retryable: true, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });

afterEach(() => {
  vi.useRealTimers();
});

describe("retry-after", () => {
  it("reads retry-after-ms first, then retry-after as seconds, from a plain object or Headers", () => {
    expect(retryAfterFrom({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(retryAfterFrom({ "retry-after": "3" })).toBe(3000);
    expect(retryAfterFrom({ "retry-after": "0.5" })).toBe(500);
    expect(retryAfterFrom(new Headers({ "retry-after": "7" }))).toBe(7000);
    expect(retryAfterFrom(new Headers({ "Retry-After-Ms": "40" }))).toBe(40);
  });

  it("reads an HTTP date as the time from now until then, never negative", () => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-11-22T10:00:00Z"));
    expect(retryAfterFrom({ "retry-after": "Sun, 22 Nov 2026 10:00:30 GMT" })).toBe(30_000);
    expect(retryAfterFrom({ "retry-after": "Sun, 22 Nov 2026 09:59:00 GMT" })).toBe(0);
  });

  it("ignores what it cannot read", () => {
    expect(retryAfterFrom(undefined)).toBeUndefined();
    expect(retryAfterFrom({})).toBeUndefined();
    expect(retryAfterFrom({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterFrom({ "retry-after-ms": "-5" })).toBeUndefined();
  });
});

describe("retryDelay", () => {
  it("backs off exponentially from the base delay, capped at the ceiling", () => {
    expect([1, 2, 3].map((attempt) => retryDelay(retryable(), attempt, policy))).toEqual([1000, 2000, 4000]);
    expect(retryDelay(retryable(), 3, { ...policy, baseDelayMs: 40_000 })).toBe(60_000);
  });

  it("waits as long as the server asked, unless that is past the ceiling: then it does not retry", () => {
    expect(retryDelay(retryable(12_000), 1, policy)).toBe(12_000);
    expect(retryDelay(retryable(60_000), 1, policy)).toBe(60_000);
    expect(retryDelay(retryable(60_001), 1, policy)).toBeUndefined();
  });

  it("stops after the last attempt, and never retries what cannot succeed", () => {
    expect(retryDelay(retryable(), 4, policy)).toBeUndefined();
    expect(retryDelay(new ProviderError("bad key", "http", { status: 401, retryable: false }), 1, policy)).toBeUndefined();
  });
});
