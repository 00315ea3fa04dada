// The one render loop for the whole screen. Every source (agent events, job output, keys, timers,
// resize) asks for a frame; requests coalesce and frames are spaced at least `minIntervalMs` apart
// (30 a second by default), so a job printing megabytes per second costs 30 frames a second, not
// one per chunk. A key is the exception: a person waits for it, so its frame comes after at most
// `inputIntervalMs` (a burst of keys, a paste, still shares one), ahead of the streaming cadence.
// Each frame is one write wrapped in synchronized output (DEC 2026), so a terminal that supports it
// never shows half a frame. A due frame waits for the I/O that is ready at that moment: a request
// to the model whose connection just opened goes out first, and new output is in the frame.
import type { Widgets } from "blessed";
import { screenInternals } from "./blessed-internals.js";

export const SYNC_START = "\x1b[?2026h";
export const SYNC_END = "\x1b[?2026l";

export interface CursorPlacement {
  x: number;
  y: number;
  /** DECSCUSR's parameter (1–6: block, underline, bar, blinking or steady); absent: the terminal's own shape. */
  shape?: number;
}

export interface FrameStats {
  frames: number;
  /** Milliseconds spent producing each of the last frames (newest last, at most 20 000 kept). */
  recent: number[];
}

export interface RenderSchedulerOptions {
  minIntervalMs?: number;
  /** The least spacing of a frame asked for by input (requestForInput). */
  inputIntervalMs?: number;
  /** Where the terminal cursor goes after the frame (the input's caret), or null to hide it. */
  cursor?: () => CursorPlacement | null;
  /** Runs before blessed renders: layout and pane state that depends on the size. */
  beforeFrame?: () => void;
  now?: () => number;
}

export class RenderScheduler {
  private readonly minInterval: number;
  private readonly inputInterval: number;
  private timer: NodeJS.Timeout | undefined;
  /** A frame that is due, run after the I/O that is ready (setImmediate runs after Node's poll phase). */
  private due: NodeJS.Immediate | undefined;
  /** When the scheduled frame is due (performance.now() time). */
  private timerDueAt = 0;
  private lastFrameAt = -Infinity;
  private readonly originalRender: () => void;
  private readonly now: () => number;
  private stopped = false;
  private paused = false;
  private rendering = false;
  readonly stats: FrameStats = { frames: 0, recent: [] };
  private readonly frameListeners = new Set<() => void>();
  /** The shape the terminal's cursor was last given (DECSCUSR; 0 the terminal's own). */
  private cursorShape = 0;

  constructor(
    private readonly screen: Widgets.Screen,
    private readonly options: RenderSchedulerOptions = {},
  ) {
    this.minInterval = options.minIntervalMs ?? 33;
    this.inputInterval = Math.min(this.minInterval, options.inputIntervalMs ?? 4);
    this.now = options.now ?? (() => performance.now());
    const internals = screenInternals(screen);
    this.originalRender = internals.render.bind(screen);
    // blessed renders on its own after a resize: route that through the scheduler too.
    internals.render = () => this.request();
  }

  /** Asks for a frame as soon as the frame budget allows. */
  request(): void {
    this.schedule(this.minInterval);
  }

  /** Asks for a frame showing what a key did: sooner than the streaming cadence. */
  requestForInput(): void {
    this.schedule(this.inputInterval);
  }

  private schedule(interval: number): void {
    if (this.stopped || this.paused || this.due) return;
    if (this.rendering) {
      this.pendingAfterFrame = true;
      this.pendingInterval = Math.min(this.pendingInterval, interval);
      return;
    }
    const now = this.now();
    const dueAt = Math.max(now, this.lastFrameAt + interval);
    if (this.timer) {
      if (this.timerDueAt <= dueAt) return;
      clearTimeout(this.timer);
    }
    this.timerDueAt = dueAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.due = setImmediate(() => {
        this.due = undefined;
        this.frame();
      });
    }, dueAt - now);
  }

  private pendingAfterFrame = false;
  private pendingInterval = Infinity;

  /** Draws a frame now (startup, resize), cancelling a scheduled one. */
  frameNow(): void {
    this.cancel();
    this.frame();
  }

  private cancel(): void {
    clearTimeout(this.timer);
    clearImmediate(this.due);
    this.timer = undefined;
    this.due = undefined;
  }

  onFrame(listener: () => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Stops drawing; a cursor shape a job asked for gives way to the terminal's own again. */
  stop(): void {
    const s = screenInternals(this.screen);
    if (!this.stopped && this.cursorShape !== 0 && !s.destroyed) {
      s.program._write(this.shapeFor(0));
      s.program.flush();
    }
    this.stopped = true;
    this.cancel();
  }

  /** No frame is drawn until resume() (another program has the terminal: the person's editor). */
  pause(): void {
    this.paused = true;
    this.cancel();
  }

  resume(): void {
    this.paused = false;
  }

  /** The bytes that give the cursor `shape`, or "" when it has it already. */
  private shapeFor(shape: number): string {
    if (shape === this.cursorShape) return "";
    this.cursorShape = shape;
    return `\x1b[${shape} q`;
  }

  private frame(): void {
    const s = screenInternals(this.screen);
    if (this.stopped || this.paused || s.destroyed) return;
    const started = this.now();
    this.rendering = true;
    try {
      this.options.beforeFrame?.();
      const program = s.program;
      // Whatever blessed queued (a clear after resize) goes inside the same synchronized frame.
      const queued = program._buf;
      program._buf = "";
      program._write(SYNC_START + "\x1b[?25l" + queued);
      this.originalRender();
      const cursor = this.options.cursor?.() ?? null;
      // The shape goes back to the terminal's own as soon as the cursor is not a job's that asked for one.
      const shape = this.shapeFor(cursor?.shape ?? 0);
      program._write(cursor ? `\x1b[${cursor.y + 1};${cursor.x + 1}H${shape}\x1b[?25h` + SYNC_END : shape + SYNC_END);
      program.flush();
    } finally {
      this.rendering = false;
      this.lastFrameAt = this.now();
    }
    const took = this.lastFrameAt - started;
    this.stats.frames++;
    this.stats.recent.push(took);
    if (this.stats.recent.length > 20_000) this.stats.recent.splice(0, 10_000);
    for (const listener of this.frameListeners) listener();
    if (this.pendingAfterFrame) {
      const interval = this.pendingInterval;
      this.pendingAfterFrame = false;
      this.pendingInterval = Infinity;
      this.schedule(interval);
    }
  }
}
