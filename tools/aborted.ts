// The error a tool throws when its call was aborted, so callers can tell an abort from a failure.

export class ToolAbortedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolAbortedError";
  }
}

/** Throws a ToolAbortedError saying `message` when `signal` has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, message: string): void {
  if (signal?.aborted) throw new ToolAbortedError(message);
}
