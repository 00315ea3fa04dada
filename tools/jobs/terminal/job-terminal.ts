// A job's headless terminal emulator and the feed that writes into it. The feed queues what the job
// printed and parses it with xterm's synchronous parse in short slices (a quarter of a millisecond),
// one after the other through setImmediate, so the pty is read between slices: the job can only run
// a few KB ahead of us (the kernel's pty buffer), so every longer stretch of parsing would stall it,
// and keys and frames wait at most one slice. (xterm's own
// write() parses in 12 ms slices with a timer between them, during which nothing is read: the job
// and the emulator then take turns, at about half the speed.) The synchronous parse and the two
// facts the skipping needs (scroll region, parser state) are xterm internals, read through one typed
// accessor; without them the feed falls back to write() and skips nothing (emulator-skip.test.ts
// would then fail, which is how an xterm upgrade that removes them gets noticed). The emulator can still fall
// behind a process that floods its output, so the feed counts what was queued but not parsed yet and
// asks its source to pause above a high-water mark and resume under a low one: memory stays bounded
// and the process is slowed to the emulator's pace instead. While a job floods, lines that more
// queued lines would push out of the scrollback before anyone could see them are not parsed at all
// (emulator-skip.ts): the screen and scrollback come out the same, at a fraction of the cost.
import { createRequire } from "node:module";
import type { Terminal } from "@xterm/headless";
import { linesToPushOut, queuedOutput, skippableRun, skippedColours, type QueuedOutput, type SkipContext, type SkipEnd } from "./emulator-skip.js";

export type { Terminal } from "@xterm/headless";

type XtermModules = { xterm: typeof import("@xterm/headless"); unicode11: typeof import("@xterm/addon-unicode11") };
let xtermModules: XtermModules | undefined;

/**
 * The emulator is loaded with the first job, not at start: it is ~11 MB a session without jobs never
 * needs. Both packages are CommonJS, so a synchronous require keeps job start synchronous.
 */
function loadXterm(): XtermModules {
  if (!xtermModules) {
    const require = createRequire(import.meta.url);
    xtermModules = { xterm: require("@xterm/headless") as XtermModules["xterm"], unicode11: require("@xterm/addon-unicode11") as XtermModules["unicode11"] };
  }
  return xtermModules;
}

export interface JobTerminalOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /** Pipe output has bare `\n` line ends; a terminal would need `\r\n`. */
  convertEol: boolean;
}

/**
 * Loads the emulator and runs a few lines of coloured text through a throwaway one: V8 compiles the
 * parser and buffer code it then needs lazily, ~50 ms the first job would otherwise wait for. For a
 * host once it has greeted (idle).
 */
export function warmUpEmulator(): void {
  const terminal = createJobTerminal({ cols: 80, rows: 24, scrollback: 100, convertEol: true });
  terminal.write("\x1b[1;32mready\x1b[0m on :3000\nline 2\twith a tab\n\x1b[31merror\x1b[0m and more text\n", () => terminal.dispose());
}

export function createJobTerminal(options: JobTerminalOptions): Terminal {
  const { xterm, unicode11 } = loadXterm();
  const terminal = new xterm.Terminal({
    cols: options.cols,
    rows: options.rows,
    scrollback: options.scrollback,
    convertEol: options.convertEol,
    // The Unicode 11 widths are a "proposed" API; without them emoji take one column.
    allowProposedApi: true,
    // xterm logs to the console (a warning about synchronous writes, unknown sequences): that would
    // land on the dashboard's screen.
    logLevel: "off",
  });
  terminal.loadAddon(new unicode11.Unicode11Addon());
  terminal.unicode.activeVersion = "11";
  return terminal;
}

export const EMULATOR_HIGH_WATER = 2 * 1024 * 1024;
export const EMULATOR_LOW_WATER = 256 * 1024;

/**
 * How long one parsing slice may take before the event loop gets a turn (keys, frames, reads).
 * Measured here: 1 ms slices let a flood through at about 60 % of raw node-pty, 0.25 ms at about 70 %.
 */
export const PARSE_SLICE_MS = 0.25;
/**
 * A job that prints faster than FLOOD_BYTES per FLOOD_WINDOW_MS (1.6 MB/s) is flooding: its output
 * is then parsed in batches, at most FLOOD_BATCH_MS (a frame) apart or as soon as twice the lines
 * the scrollback holds are queued, so that most of a batch can be skipped. Output that trickles (a
 * prompt, an echo) is parsed at once. The rate is low on purpose: a flood parsed chunk by chunk is
 * slowed to the emulator's pace, and would then never look like a flood again.
 */
export const FLOOD_BYTES = 32 * 1024;
export const FLOOD_WINDOW_MS = 20;
export const FLOOD_BATCH_MS = 33;

export interface FlowControl {
  pause(): void;
  resume(): void;
}

/** The parts of xterm's core the feed uses that its public typings do not declare. */
interface XtermCore {
  writeSync?: (data: string) => void;
  _bufferService?: { buffer?: { scrollTop?: number; scrollBottom?: number } };
  /** The escape-sequence parser's state: 0 between sequences. */
  _inputHandler?: { _parser?: { currentState?: number } };
}

function coreOf(terminal: Terminal): XtermCore | undefined {
  return (terminal as unknown as { _core?: XtermCore })._core;
}

/**
 * xterm's synchronous parse (its CoreTerminal.writeSync), or undefined when this xterm has none:
 * the feed then falls back to the public asynchronous write() and never skips.
 */
function syncParser(terminal: Terminal): ((data: string) => void) | undefined {
  const core = coreOf(terminal);
  const writeSync = core?.writeSync;
  return typeof writeSync === "function" ? (data) => writeSync.call(core, data) : undefined;
}

/** What the skip decision needs to know about the emulator right now (besides its fixed options). */
function skipContext(terminal: Terminal, fixed: Pick<SkipContext, "scrollback" | "convertEol">): SkipContext {
  const buffer = terminal.buffer.active;
  const core = coreOf(terminal);
  const region = core?._bufferService?.buffer;
  return {
    ...fixed,
    rows: terminal.rows,
    following: buffer.viewportY >= buffer.baseY,
    // Unknown internals: assume a region is set, so nothing is skipped.
    fullScrollRegion: region?.scrollTop === 0 && region.scrollBottom === terminal.rows - 1,
    parserInGround: core?._inputHandler?._parser?.currentState === 0,
  };
}

const EMPTY: QueuedOutput = { text: "", newlines: 0, plain: true, coloured: false, cutSgr: -1 };

export class EmulatorFeed {
  private pendingChars = 0;
  private paused = false;
  private pauseCount = 0;
  private disposed = false;
  private released = false;
  private readonly listeners = new Set<() => void>();
  private readonly parseNow: ((data: string) => void) | undefined;
  private readonly queue: QueuedOutput[] = [];
  private skippedChars = 0;
  private queueHead = 0;
  /** A drain waiting for the next turn of the event loop (immediate) or for a flood batch (timer). */
  private immediate: NodeJS.Immediate | undefined;
  private batchTimer: NodeJS.Timeout | undefined;
  /** Line feeds queued and not parsed yet. */
  private queuedNewlines = 0;
  private windowStart = 0;
  private flooding = false;
  private windowBytes = 0;
  private lastWriteAt = -Infinity;
  private readonly fixed: Pick<SkipContext, "scrollback" | "convertEol">;

  constructor(
    private readonly terminal: Terminal,
    private readonly flow: FlowControl,
    private readonly highWater: number = EMULATOR_HIGH_WATER,
    private readonly lowWater: number = Math.min(EMULATOR_LOW_WATER, highWater / 2),
  ) {
    this.parseNow = syncParser(terminal);
    // Read once: xterm's options go through a proxy, and these two never change for a job.
    this.fixed = { scrollback: terminal.options.scrollback ?? 1000, convertEol: terminal.options.convertEol === true };
  }

  /** Characters handed to the emulator and not parsed yet. */
  get pending(): number {
    return this.pendingChars;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** Characters never parsed because later output would have pushed them out of the scrollback. */
  get skipped(): number {
    return this.skippedChars;
  }

  /** How many times the source was paused so far. */
  get pauses(): number {
    return this.pauseCount;
  }

  /** Queues output for the emulator; `newlines` (its line feeds) and `colourChars` (its sgrChars), when the caller has them already. */
  write(chunk: string, newlines?: number, colourChars?: number): void {
    if (this.disposed) return;
    const size = chunk.length;
    this.pendingChars += size;
    if (this.parseNow) {
      this.lastWriteAt = performance.now();
      const entry = queuedOutput(chunk, newlines, colourChars);
      this.queue.push(entry);
      this.queuedNewlines += entry.newlines;
      const now = this.lastWriteAt;
      if (now - this.windowStart > FLOOD_WINDOW_MS) {
        // The last window's rate decides until this one has said otherwise (a flood stays a flood
        // between windows, and a window stretched by a long parse still counts its bytes).
        this.flooding = this.windowBytes * FLOOD_WINDOW_MS > FLOOD_BYTES * (now - this.windowStart);
        this.windowStart = now;
        this.windowBytes = 0;
      }
      this.windowBytes += size;
      if (this.windowBytes > FLOOD_BYTES) this.flooding = true;
    } else {
      this.terminal.write(chunk, () => this.parsed(size));
    }
    if (!this.paused && !this.released && this.pendingChars > this.highWater) this.setPaused(true);
    if (this.parseNow) this.schedule();
  }

  /**
   * Parses at once, unless the job floods: then waits (up to a batch interval) until enough lines
   * are queued that most of them can be skipped. A paused source waits for nothing but the parse.
   */
  private schedule(): void {
    if (this.immediate) return;
    const batchFull = this.queuedNewlines >= 2 * linesToPushOut({ scrollback: this.fixed.scrollback, rows: this.terminal.rows });
    if (this.isFlooding && !batchFull && !this.paused) {
      this.batchTimer ??= setTimeout(() => {
        this.batchTimer = undefined;
        this.drain();
      }, FLOOD_BATCH_MS);
      return;
    }
    clearTimeout(this.batchTimer);
    this.batchTimer = undefined;
    this.immediate = setImmediate(() => {
      this.immediate = undefined;
      this.drain();
    });
  }

  /**
   * Parses queued output for up to one slice, then yields to the event loop if more is queued. While
   * the job floods, the tail of the queue that more output could still push out is held back for the
   * next batch instead of parsed: parsing it now is most of a flood's cost, and the screen is at most
   * a batch behind.
   */
  private drain(): void {
    if (this.disposed) return;
    const started = performance.now();
    let parsed = 0;
    let held = false;
    while (this.queueHead < this.queue.length) {
      const entry = this.queue[this.queueHead]!;
      const context = skipContext(this.terminal, this.fixed);
      // Only worth asking while output is queued behind this chunk (a flood).
      const run = this.queue.length - this.queueHead > 1 ? skippableRun(this.queue, this.queueHead, context) : undefined;
      if (run) {
        parsed += this.skip(run.start, run.end);
        continue;
      }
      if (this.mayHoldBack(entry, context)) {
        held = true;
        break;
      }
      this.queue[this.queueHead++] = EMPTY;
      this.queuedNewlines -= entry.newlines;
      this.parseNow!(entry.text);
      parsed += entry.text.length;
      if (performance.now() - started >= PARSE_SLICE_MS) break;
    }
    if (this.queueHead >= this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    } else {
      if (this.queueHead > 1024) {
        this.queue.splice(0, this.queueHead);
        this.queueHead = 0;
      }
    }
    this.parsed(parsed);
    if (held) {
      // Parsed when the next batch is due, or at once if the flood has stopped by then.
      this.batchTimer ??= setTimeout(() => {
        this.batchTimer = undefined;
        this.drain();
      }, FLOOD_BATCH_MS);
    } else if (this.queueHead < this.queue.length) this.schedule();
  }

  /**
   * Parses the head chunk up to `start`, drops everything from there to `end` unparsed, then parses
   * a screenful of the lines after it before anything else runs: the screen never shows lines from
   * both sides of the stretch left out (lines that never stood together), whenever it is looked at.
   * Returns the characters taken off the queue.
   */
  private skip(start: number, end: SkipEnd): number {
    const head = this.queue[this.queueHead]!;
    const colours = skippedColours(this.queue, this.queueHead, start, end);
    this.parseNow!(head.text.slice(0, start));
    // What the skipped lines left set applies to what comes after them.
    if (colours) this.parseNow!(colours);
    let taken = 0;
    for (; this.queueHead < end.chunk; this.queueHead++) {
      const entry = this.queue[this.queueHead]!;
      taken += entry.text.length;
      this.queuedNewlines -= entry.newlines;
      this.queue[this.queueHead] = EMPTY;
    }
    const last = this.queue[end.chunk]!;
    const rest = queuedOutput(last.text.slice(end.offset));
    this.queuedNewlines -= last.newlines - rest.newlines;
    this.queue[end.chunk] = rest;
    taken += end.offset;
    this.skippedChars += taken - start;
    return taken + this.parseLineFeeds(this.terminal.rows);
  }

  /** Parses queued output from the head through its `count`-th line feed (or all of it, if fewer). Returns the characters parsed. */
  private parseLineFeeds(count: number): number {
    let left = count;
    let parsed = 0;
    while (left > 0 && this.queueHead < this.queue.length) {
      const entry = this.queue[this.queueHead]!;
      if (entry.newlines <= left) {
        this.queue[this.queueHead++] = EMPTY;
        this.queuedNewlines -= entry.newlines;
        this.parseNow!(entry.text);
        parsed += entry.text.length;
        left -= entry.newlines;
        continue;
      }
      let at = -1;
      for (let n = 0; n < left; n++) at = entry.text.indexOf("\n", at + 1);
      const rest = queuedOutput(entry.text.slice(at + 1));
      this.parseNow!(entry.text.slice(0, at + 1));
      this.queuedNewlines -= entry.newlines - rest.newlines;
      this.queue[this.queueHead] = rest;
      parsed += at + 1;
      left = 0;
    }
    return parsed;
  }

  /**
   * Whether `entry` (not skippable yet) may wait for more output: the job is still printing a flood
   * of plain lines, and nothing forces the parse now (a paused or finished source waits for it).
   */
  private mayHoldBack(entry: QueuedOutput, context: SkipContext): boolean {
    if (this.paused || !entry.plain || entry.newlines < 2 || !this.isFlooding) return false;
    return context.following && context.fullScrollRegion && context.parserInGround;
  }

  /** The job floods and is still printing: output came within a batch interval, and it has not exited. */
  get isFlooding(): boolean {
    return this.flooding && !this.released && performance.now() - this.lastWriteAt < FLOOD_BATCH_MS;
  }

  private parsed(size: number): void {
    this.pendingChars -= size;
    if (this.paused && this.pendingChars <= this.lowWater) this.setPaused(false);
    if (this.disposed) return;
    for (const listener of this.listeners) listener();
  }

  /**
   * Resumes the source and never pauses it again: used once the process has exited, when what is
   * left is only what the kernel still buffers and must be read before the pty is torn down.
   */
  release(): void {
    this.released = true;
    if (this.paused) this.setPaused(false);
  }

  /** Fires after the emulator parsed newly written data. */
  onWrite(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
    clearImmediate(this.immediate);
    clearTimeout(this.batchTimer);
    this.immediate = undefined;
    this.batchTimer = undefined;
    this.queue.length = 0;
    this.release();
  }

  private setPaused(paused: boolean): void {
    this.paused = paused;
    if (paused) this.pauseCount++;
    if (paused) this.flow.pause();
    else this.flow.resume();
  }
}
