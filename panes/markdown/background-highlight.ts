// Highlighting of long code off the main thread. highlight.js and cli-highlight take ~0.2 ms a
// line on this VM (a 3 000-line block: 0.55–0.7 s), and a dashboard that highlighted such a block
// where it closed stopped drawing and reading keys for that long. A block over SYNC_MAX_CHARS goes
// to a worker thread instead; it is shown plain until the worker answers, then the render
// generation changes and the panes draw it highlighted. The worker starts with the first long
// block and ends once it has been idle for WORKER_IDLE_MS, so a session that never shows one pays
// nothing, and one that did gets its memory back.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { bumpRenderGeneration } from "./render-generation.js";

/** Code up to this long is highlighted where it is drawn (~30 ms at most on this VM). */
export const SYNC_MAX_CHARS = 8 * 1024;
/** How long the worker may sit idle before it ends. */
const WORKER_IDLE_MS = 10_000;
/** Highlighted long blocks kept (the chat redraws a block many times; a few are on screen at once). */
const CACHE_ENTRIES = 16;

/** The worker's program: cli-highlight with pitwall's theme, one request at a time, in order. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { highlight } = require(workerData.module);
const theme = Object.fromEntries(Object.entries(workerData.sgr).map(([k, code]) => [k, (s) => "\\x1b[" + code + "m" + s + "\\x1b[0m"]));
parentPort.on("message", ({ id, code, language }) => {
  let out = null;
  try { out = highlight(code, { language, ignoreIllegals: true, theme }); } catch {}
  parentPort.postMessage({ id, out });
});
`;

interface Answer {
  id: number;
  out: string | null;
}

/** A finished request: the highlighted text (with SGR colours), or null when highlighting failed. */
type Done = string | null;

export class BackgroundHighlighter {
  private worker: Worker | undefined;
  private nextId = 1;
  /** Requests sent and not answered, by id. */
  private readonly waiting = new Map<number, { code: string; language: string }>();
  /** Answers by code (the same string each time a block is drawn, so its hash is computed once). */
  private readonly done = new Map<string, { language: string; out: Done }>();
  private readonly settledListeners = new Set<() => void>();
  private idleTimer: NodeJS.Timeout | undefined;
  private broken = false;

  /** Contract: `sgr` maps highlight.js's classes to SGR parameters (theme.ts's CODE_SGR). */
  constructor(private readonly sgr: Readonly<Record<string, string>>) {}

  /**
   * The highlighted text when the worker has answered for this code; else undefined, and the code
   * is sent (once) and the render generation bumped when the answer comes. null: it cannot be
   * highlighted (the worker failed), show it plain.
   */
  highlighted(code: string, language: string): Done | undefined {
    const done = this.done.get(code);
    if (done !== undefined && done.language === language) {
      // Most recently used last, so the oldest goes first.
      this.done.delete(code);
      this.done.set(code, done);
      return done.out;
    }
    if (this.broken) return null;
    const sent = [...this.waiting.values()].some((request) => request.code === code && request.language === language);
    if (!sent) this.send(code, language);
    return undefined;
  }

  /** Resolves once every request sent so far has been answered (tests wait on it). */
  settled(): Promise<void> {
    if (this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (): void => {
        if (this.waiting.size > 0) return;
        this.settledListeners.delete(listener);
        resolve();
      };
      this.settledListeners.add(listener);
    });
  }

  /** Ends the worker now (it also ends by itself when idle). */
  close(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) void worker.terminate();
    // What was asked and not answered is asked again when it is next drawn.
    this.waiting.clear();
    for (const listener of [...this.settledListeners]) listener();
  }

  private send(code: string, language: string): void {
    const worker = this.started();
    if (!worker) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    const id = this.nextId++;
    this.waiting.set(id, { code, language });
    worker.postMessage({ id, code, language });
  }

  private started(): Worker | undefined {
    if (this.worker) return this.worker;
    try {
      const module = createRequire(import.meta.url).resolve("cli-highlight");
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { module, sgr: this.sgr } });
      // A worker never keeps pitwall running, whatever it is doing.
      worker.unref();
      worker.on("message", (answer: Answer) => this.answered(answer.id, answer.out));
      worker.on("error", () => this.fail(worker));
      worker.on("exit", () => this.fail(worker));
      this.worker = worker;
      return worker;
    } catch {
      this.broken = true;
      return undefined;
    }
  }

  /** The worker died (not by close()): what it had is shown plain, and so is what comes after. */
  private fail(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    this.broken = true;
    for (const id of [...this.waiting.keys()]) this.answered(id, null);
  }

  private answered(id: number, out: Done): void {
    const request = this.waiting.get(id);
    if (request === undefined) return;
    this.waiting.delete(id);
    this.done.set(request.code, { language: request.language, out });
    while (this.done.size > CACHE_ENTRIES) this.done.delete(this.done.keys().next().value!);
    if (this.waiting.size === 0) {
      this.idleTimer = setTimeout(() => this.close(), WORKER_IDLE_MS);
      this.idleTimer.unref();
    }
    bumpRenderGeneration();
    for (const listener of [...this.settledListeners]) listener();
  }
}
