// One small stream primitive: an async-iterable queue of events with a final result. Providers push
// deltas into it, the agent loop iterates it, and a test can hand the loop a scripted stream.

export class EventStream<E, R> implements AsyncIterable<E> {
  private queue: E[] = [];
  private waiting: ((next: IteratorResult<E>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  private done = false;
  private failure: { error: unknown } | undefined;
  private readonly resultPromise: Promise<R>;
  private resolveResult!: (value: R) => void;
  private rejectResult!: (error: unknown) => void;

  constructor() {
    this.resultPromise = new Promise<R>((resolve, reject) => {
      this.resolveResult = resolve;
      this.rejectResult = reject;
    });
    // The iterator reports failures too; a stream nobody awaits must not crash the process.
    this.resultPromise.catch(() => undefined);
  }

  push(event: E): void {
    if (this.done) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failWaiting = undefined;
      resolve({ value: event, done: false });
    } else {
      this.queue.push(event);
    }
  }

  /** Ends the stream successfully with its final result. */
  end(result: R): void {
    if (this.done) return;
    this.done = true;
    this.resolveResult(result);
    this.wake();
  }

  /** Ends the stream with an error: iteration throws it once the queued events are consumed. */
  fail(error: unknown): void {
    if (this.done) return;
    this.done = true;
    this.failure = { error };
    this.rejectResult(error);
    this.wake();
  }

  result(): Promise<R> {
    return this.resultPromise;
  }

  private wake(): void {
    if (!this.waiting) return;
    const resolve = this.waiting;
    const reject = this.failWaiting;
    this.waiting = this.failWaiting = undefined;
    if (this.failure && reject) reject(this.failure.error);
    else resolve({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => {
        const event = this.queue.shift();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.done) return Promise.resolve({ value: undefined, done: true });
        return new Promise<IteratorResult<E>>((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
    };
  }
}
