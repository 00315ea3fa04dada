// A per-request AbortSignal that follows the run's signal and lets go of it afterwards. The SDKs add
// an abort listener to whatever signal a request gets and (the OpenAI one) never remove it, so
// handing them the run's long-lived signal would pile up one listener per model request.

export interface LinkedAbort {
  signal: AbortSignal;
  /** Removes the listener from the parent signal; call it when the request is over. */
  release(): void;
}

export function linkAbort(parent: AbortSignal): LinkedAbort {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const forward = (): void => controller.abort(parent.reason);
  parent.addEventListener("abort", forward, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener("abort", forward) };
}
