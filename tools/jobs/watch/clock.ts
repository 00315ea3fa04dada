// Time for the trigger engine, passed in so its debounce can be tested without waiting.

export interface Clock {
  now(): number;
  /** Runs `run` after `ms`; the function returned cancels it. Contract: never keeps the process alive. */
  schedule(run: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  schedule(run, ms) {
    const timer = setTimeout(run, Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  },
};
