// Job output frames for one client, written to its socket a batch at a time while a job floods. A
// pty gives a job's output ~4 KiB a read and one read a turn of the event loop, so a client that
// takes all output (JSON mode, here or over ssh) got one socket write per 4 KiB; over ssh each also
// woke the bridge, sshd and ssh in turn. Profiling the remote bench's flood, those writes were ~40 %
// of the job host's busy time (~14 % batched), and the bridge, sshd and ssh used ~40 % less CPU
// batched. Output that trickles goes at once; output that comes within OUTPUT_BATCH_MS of the last
// is held and goes with what follows it, at most OUTPUT_BATCH_MS later or once OUTPUT_BATCH_CHARS
// are held. Every other frame (answers, exits, screens, lines) first sends what is held, so frames
// keep their order.

/** How long output that follows other output closely may wait for more. */
export const OUTPUT_BATCH_MS = 2;
/** What is held before it goes regardless (a flood fills it in about a millisecond). */
export const OUTPUT_BATCH_CHARS = 64 * 1024;

export class FrameBatch {
  private held: string[] = [];
  private heldChars = 0;
  private timer: NodeJS.Timeout | undefined;
  /** When the last output frame came (performance.now()). */
  private lastOutputAt = -Infinity;

  /** Contract: `write` puts text on the client's socket (nothing when it has gone). */
  constructor(private readonly write: (text: string) => void) {}

  /** Characters held, not yet given to the socket. */
  get pending(): number {
    return this.heldChars;
  }

  /** An output frame: at once after a pause, else held for the batch. */
  output(frame: string): void {
    const now = performance.now();
    const closeBehind = now - this.lastOutputAt < OUTPUT_BATCH_MS;
    this.lastOutputAt = now;
    if (!closeBehind && this.held.length === 0) return this.write(frame);
    this.held.push(frame);
    this.heldChars += frame.length;
    if (this.heldChars >= OUTPUT_BATCH_CHARS) return this.flush();
    this.timer ??= setTimeout(() => this.flush(), OUTPUT_BATCH_MS);
  }

  /** Any other frame: what is held goes first, in the same write. */
  frame(frame: string): void {
    if (this.held.length === 0) return this.write(frame);
    this.held.push(frame);
    this.flush();
  }

  /** Writes what is held. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held.length === 0) return;
    const text = this.held.length === 1 ? this.held[0]! : this.held.join("");
    this.held = [];
    this.heldChars = 0;
    this.write(text);
  }

  /** The client went: nothing held is sent. */
  drop(): void {
    this.held = [];
    this.heldChars = 0;
    this.flush();
  }
}
