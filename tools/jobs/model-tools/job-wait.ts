// Waiting on a job without blocking the agent for long: until it exits, until its output shows a
// ready line, until it prints something new, or until the window ends — and always early when the
// turn is aborted or the person queues a steering message. Waiting never affects the job itself.
import type { Job } from "../process/job.js";
import { hasNewOutput, type LogCursor } from "../log/job-output-reader.js";
import type { LineMatcher } from "../../search-pattern.js";

export type WaitEnd = "exited" | "ready" | "output" | "timeout" | "aborted" | "steering";

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  yieldSignal?: AbortSignal;
  /** Ends the wait when a completed line, or the line being written, matches. */
  readyPattern?: LineMatcher;
  /** Ends the wait once output past this cursor appears, after `settleMs` more to gather the burst. */
  newOutputAfter?: LogCursor;
  settleMs?: number;
}

export interface WaitResult {
  end: WaitEnd;
  /** The text that matched `readyPattern`. */
  match?: string;
}

export function waitForJob(job: Job, options: WaitOptions): Promise<WaitResult> {
  return new Promise((resolve) => {
    const cleanups: (() => void)[] = [];
    let settled = false;
    const finish = (result: WaitResult): void => {
      if (settled) return;
      settled = true;
      for (const cleanup of cleanups) cleanup();
      resolve(result);
    };

    if (!job.running) return finish({ end: "exited" });
    if (options.signal?.aborted) return finish({ end: "aborted" });
    if (options.yieldSignal?.aborted) return finish({ end: "steering" });

    void job.exited.then(() => finish({ end: "exited" }));

    const timer = setTimeout(() => finish({ end: "timeout" }), Math.max(0, options.timeoutMs));
    cleanups.push(() => clearTimeout(timer));

    const listenAbort = (signal: AbortSignal | undefined, end: WaitEnd): void => {
      if (!signal) return;
      const onAbort = (): void => finish({ end });
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    };
    listenAbort(options.signal, "aborted");
    listenAbort(options.yieldSignal, "steering");

    const pattern = options.readyPattern;
    if (pattern) {
      const test = (text: string): boolean => {
        if (!pattern.test(text)) return false;
        finish({ end: "ready", match: text.trim().slice(0, 200) });
        return true;
      };
      // Lines printed before the wait began count too.
      const log = job.log;
      for (let n = log.firstKeptLine; n <= log.lineCount; n++) if (test(log.lineAt(n) ?? "")) return;
      if (log.partialLine.length > 0 && test(log.partialLine)) return;
      cleanups.push(log.onLine((line) => void test(line)));
      cleanups.push(
        job.onOutput(() => {
          if (log.partialLine.length > 0) test(log.partialLine);
        }),
      );
    }

    const after = options.newOutputAfter;
    if (after) {
      let settle: NodeJS.Timeout | undefined;
      const check = (): void => {
        if (settle !== undefined || !hasNewOutput(job.log, after)) return;
        settle = setTimeout(() => finish({ end: "output" }), Math.max(0, options.settleMs ?? 0));
      };
      cleanups.push(() => clearTimeout(settle));
      check();
      cleanups.push(job.onOutput(check));
    }
  });
}
