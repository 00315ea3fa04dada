// The fake LLM's record of model requests, and the waits tests block on: "the 3rd request has
// arrived", "a request whose transcript mentions the steer has arrived". Waits have deadlines and
// say what did arrive when they give up.

import type { RecordedRequest } from "./script.js";

const DEFAULT_WAIT_MS = 15_000;

interface Waiter {
  check: () => RecordedRequest | undefined;
  resolve: (request: RecordedRequest) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class RequestLog {
  readonly requests: RecordedRequest[] = [];
  readonly #waiters = new Set<Waiter>();

  /** `keep`: how many of the newest requests stay in `requests` (waits by count then see only those). */
  constructor(private readonly keep = Infinity) {}

  record(request: RecordedRequest): void {
    this.requests.push(request);
    if (this.requests.length > this.keep) this.requests.splice(0, this.requests.length - this.keep);
    for (const waiter of [...this.#waiters]) {
      const found = waiter.check();
      if (found !== undefined) this.#settle(waiter, () => waiter.resolve(found));
    }
  }

  waitForRequest(count: number, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedRequest> {
    if (!Number.isInteger(count) || count < 1) {
      return Promise.reject(new Error(`fake LLM: waitForRequest counts from 1, got ${count}`));
    }
    return this.#wait(
      () => this.requests[count - 1],
      timeoutMs,
      () => `request #${count}, but only ${this.requests.length} arrived`,
    );
  }

  waitFor(predicate: (r: RecordedRequest) => boolean, timeoutMs = DEFAULT_WAIT_MS): Promise<RecordedRequest> {
    return this.#wait(
      () => this.requests.find(predicate),
      timeoutMs,
      () => `a request matching the predicate; none of the ${this.requests.length} received did`,
    );
  }

  /** Fails every pending wait: the server is going away, nothing more will arrive. */
  rejectAll(reason: string): void {
    for (const waiter of [...this.#waiters]) this.#settle(waiter, () => waiter.reject(new Error(reason)));
  }

  #wait(check: () => RecordedRequest | undefined, timeoutMs: number, describe: () => string): Promise<RecordedRequest> {
    const found = check();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        check,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.#settle(waiter, () =>
            reject(new Error(`fake LLM: waited ${timeoutMs} ms for ${describe()}.${this.#summary()}`)),
          );
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  #settle(waiter: Waiter, action: () => void): void {
    clearTimeout(waiter.timer);
    this.#waiters.delete(waiter);
    action();
  }

  #summary(): string {
    if (this.requests.length === 0) return "";
    const lines = this.requests.map((r, i) => `  #${i + 1} ${r.api} ${r.method} ${r.path}`);
    return `\nReceived:\n${lines.join("\n")}`;
  }
}
