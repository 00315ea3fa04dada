// The job host's young generation: larger during a flood, small the rest of the day. A flood's
// chunks live for tens of milliseconds (the log's and the emulator's windows, ~1 MB of output each):
// in a young generation of a few MB most of them outlived two scavenges and were copied twice and
// promoted, ~2 ms of the host's CPU per MiB printed, a tenth of a flood's speed on a 2-core VM. Let
// grow as V8 likes, it held the grown size for the rest of the day (V8 shrinks it only at a
// collection that finds the allocation rate low, and an idle process has none): most of the host's
// growth over the day bench. So V8 may grow it (up to the host's --max-semi-space-size) only while
// output floods (more than FLOOD_CHARS in FLOOD_WINDOW_MS), and once it is larger than it starts, a
// minor collection (~0.1 ms) every few seconds gives V8 the chance to give it back; during a flood
// that is one scavenge among hundreds. V8's growth factor is read each time it grows the young
// generation, so setting the flag at run time takes effect (young-generation.test.ts fails if a V8
// upgrade changes that). Growing it in one step (factor 8) cost more CPU per MiB than V8's doubling.
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { collectGarbage } from "./v8-collector.js";

/** Characters of output of all jobs together within FLOOD_WINDOW_MS that make a flood. */
const FLOOD_CHARS = 8 * 1024 * 1024;
const FLOOD_WINDOW_MS = 1_000;
const CHECK_MS = 5_000;
/** V8 starts the young generation at 1 MB a half and gives it back down to at most twice what is live in it. */
const GROWN_BYTES = 2 * 1024 * 1024;
/** V8's own growth factor; 1 holds the young generation at its size. */
const GROWTH_FACTOR = 2;

/** The young generation's size now (one half), in bytes. */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
}

function allowGrowth(allowed: boolean): void {
  setFlagsFromString(`--semi-space-growth-factor=${allowed ? GROWTH_FACTOR : 1}`);
}

export class YoungGeneration {
  private windowStart = 0;
  private windowChars = 0;
  private growing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly floodChars: number = FLOOD_CHARS,
    private readonly windowMs: number = FLOOD_WINDOW_MS,
    checkMs: number = CHECK_MS,
  ) {
    allowGrowth(false);
    this.timer = setInterval(() => this.check(), checkMs);
    this.timer.unref();
  }

  /** Counts output as it arrives (per chunk: kept to a clock read and two sums). */
  output(chars: number): void {
    const now = performance.now();
    if (now - this.windowStart > this.windowMs) {
      // A window that ended without a flood ends the growth (it was allowed by the one before).
      if (this.growing && this.windowChars < this.floodChars) this.setGrowing(false);
      this.windowStart = now;
      this.windowChars = 0;
    }
    this.windowChars += chars;
    if (!this.growing && this.windowChars >= this.floodChars) this.setGrowing(true);
  }

  /** Whether V8 may grow the young generation now. */
  get growthAllowed(): boolean {
    return this.growing;
  }

  stop(): void {
    clearInterval(this.timer);
    allowGrowth(true);
  }

  private check(): void {
    if (this.growing && performance.now() - this.windowStart > 2 * this.windowMs) this.setGrowing(false);
    if (!this.growing && youngGenerationBytes() > GROWN_BYTES) collectGarbage({ type: "minor" });
  }

  private setGrowing(growing: boolean): void {
    this.growing = growing;
    allowGrowth(growing);
  }
}
