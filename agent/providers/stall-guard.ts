// Network stalls end: a server that never sends its response headers, or that goes silent in the
// middle of a stream, fails the attempt like a dropped connection, so the agent loop retries it.
// pitwall's HTTP client (http-fetch.ts) holds two timers: one until the headers arrive, one reset
// by every byte of the body while the SDK waits for more. Anthropic's pings count as bytes, so a
// long quiet thought is not a stall there.

export interface StreamTimeouts {
  /** From sending the request to the response headers. */
  headerMs: number;
  /** Silence (no byte at all) while reading the body. */
  idleMs: number;
}

export const DEFAULT_STREAM_TIMEOUTS: StreamTimeouts = { headerMs: 60_000, idleMs: 120_000 };

/**
 * How long a request may stay silent when silence is expected: OpenAI's Chat Completions API sends
 * nothing at all while a reasoning model thinks, which can take minutes.
 */
export const PATIENT_MS = 10 * 60_000;

/**
 * The attempt ended because the server went quiet. Its message avoids the words the SDKs take for
 * their own timeouts, so they keep it (as the cause of a connection error) instead of replacing it.
 */
export class StallError extends Error {
  constructor(
    readonly stage: "headers" | "body",
    readonly afterMs: number,
  ) {
    const wait = afterMs < 10_000 ? `${(afterMs / 1000).toFixed(1)} s` : `${Math.round(afterMs / 1000)} s`;
    super(stage === "headers" ? `no response headers within ${wait}` : `the stream went silent for ${wait}`);
    this.name = "StallError";
  }
}

/** A StallError anywhere in an error's cause chain. */
export function findStall(error: unknown): StallError | undefined {
  for (let cause: unknown = error, depth = 0; cause && depth < 6; depth++) {
    if (cause instanceof StallError) return cause;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
