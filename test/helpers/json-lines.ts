// Reads a child's stdout as JSON lines and lets a test wait for the event it expects.
import type { Readable } from "node:stream";

export class JsonLineReader<T = Record<string, unknown>> {
  readonly items: T[] = [];
  readonly badLines: string[] = [];
  private buffer = "";
  private waiters: Array<() => void> = [];

  constructor(stream: Readable) {
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf("\n")) !== -1) {
        const line = this.buffer.slice(0, newline);
        this.buffer = this.buffer.slice(newline + 1);
        try {
          this.items.push(JSON.parse(line) as T);
        } catch {
          this.badLines.push(line);
        }
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
  }

  /** Resolves with the first item (seen or still to come) the predicate accepts. */
  async waitFor(predicate: (item: T) => boolean, timeoutMs = 15_000, what = "a matching line"): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.items.find(predicate);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; saw types: ${this.items.map((i) => (i as { type?: string }).type).join(", ")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
