// A job's headless terminal emulator and the feed that writes into it. The emulator parses
// asynchronously and can fall behind a process that floods its output, so the feed counts what was
// written but not yet parsed and asks its source to pause above a high-water mark and resume under a
// low one: memory stays bounded and the process is slowed to the emulator's pace instead.
import xtermHeadless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";

export type { Terminal } from "@xterm/headless";

export interface JobTerminalOptions {
  cols: number;
  rows: number;
  scrollback: number;
  /** Pipe output has bare `\n` line ends; a terminal would need `\r\n`. */
  convertEol: boolean;
}

export function createJobTerminal(options: JobTerminalOptions): Terminal {
  const terminal = new xtermHeadless.Terminal({
    cols: options.cols,
    rows: options.rows,
    scrollback: options.scrollback,
    convertEol: options.convertEol,
    // The Unicode 11 widths are a "proposed" API; without them emoji take one column.
    allowProposedApi: true,
  });
  terminal.loadAddon(new unicode11.Unicode11Addon());
  terminal.unicode.activeVersion = "11";
  return terminal;
}

export const EMULATOR_HIGH_WATER = 2 * 1024 * 1024;
export const EMULATOR_LOW_WATER = 256 * 1024;

export interface FlowControl {
  pause(): void;
  resume(): void;
}

export class EmulatorFeed {
  private pendingChars = 0;
  private paused = false;
  private pauseCount = 0;
  private disposed = false;
  private released = false;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly terminal: Terminal,
    private readonly flow: FlowControl,
    private readonly highWater: number = EMULATOR_HIGH_WATER,
    private readonly lowWater: number = Math.min(EMULATOR_LOW_WATER, highWater / 2),
  ) {}

  /** Characters handed to the emulator and not parsed yet. */
  get pending(): number {
    return this.pendingChars;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** How many times the source was paused so far. */
  get pauses(): number {
    return this.pauseCount;
  }

  write(chunk: string): void {
    if (this.disposed) return;
    const size = chunk.length;
    this.pendingChars += size;
    this.terminal.write(chunk, () => {
      this.pendingChars -= size;
      if (this.paused && this.pendingChars <= this.lowWater) this.setPaused(false);
      if (this.disposed) return;
      for (const listener of this.listeners) listener();
    });
    if (!this.paused && !this.released && this.pendingChars > this.highWater) this.setPaused(true);
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
    this.release();
  }

  private setPaused(paused: boolean): void {
    this.paused = paused;
    if (paused) this.pauseCount++;
    if (paused) this.flow.pause();
    else this.flow.resume();
  }
}
