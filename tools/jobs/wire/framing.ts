// Framing on the job host's socket: one JSON message per line (JSON never holds a raw newline, so a
// line is exactly one message), in both directions. The splitter is linear in what it receives: it
// scans each chunk once, keeps a line's pieces in a list and joins them once, when its newline comes.
// A frame longer than MAX_FRAME_CHARS is refused as soon as it passes the cap, newline or not: the
// peer is not speaking this protocol, and the connection ends (host-client.ts's drop,
// host-connection.ts's fail) before it can make us hold much.

/**
 * The longest frame either side accepts, in characters (UTF-16 code units, as the socket's strings
 * count them), chosen from the largest legitimate messages:
 * - a `text` result with a job's whole kept log: PlainTextLog keeps 2 000 000 characters plus a
 *   partial line of at most 16 384, about 4 M once JSON escapes every quote and backslash;
 * - a tool call's result: content and the details' stdout, stderr and aggregated output, each capped
 *   at maxOutputChars (at most 150 000): under 0.6 M, 1.2 M escaped;
 * - a welcome or a status with every job: a running job's command passes through execve, which
 *   refuses an argument over 128 KiB, so sixteen of them come to about 2 M;
 * - a runTool or start call carries the client's environment (execve's whole limit is 2 MiB);
 * - a write of 256 KiB of input (MAX_STDIN_BYTES), about 1.5 M if every byte is a control key JSON
 *   spells as \u00XX;
 * - a screen update of a whole 400 × 120 terminal with a run per cell: about 1.5 M;
 * - a remote read's image: at most REMOTE_IMAGE_MAX_BYTES (4 MiB) of file as base64, which needs no
 *   escaping, 5.6 M (model-tools/file-tools.ts; a larger image is refused there, saying so).
 * 8 Mi leaves twice the worst of the others and 2.8 M beside the image, and what a refused frame
 * makes the host hold stays small (job-host.test.ts measures it).
 */
export const MAX_FRAME_CHARS = 8 * 1024 * 1024;

/** A frame past the cap: the peer does not speak this protocol. */
export class FrameTooLongError extends Error {
  constructor(readonly maxChars: number) {
    super(`a message longer than ${maxChars} characters`);
  }
}

/** Splits a stream of text into lines (messages); a line past `maxChars` is an error. */
export class LineSplitter {
  /** The pieces of the line under way: none holds a newline. */
  private pieces: string[] = [];
  private pendingChars = 0;
  private refused = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxChars: number = MAX_FRAME_CHARS,
  ) {}

  /**
   * Delivers every line the chunk completes (empty lines skipped). Throws FrameTooLongError once the
   * line under way passes the cap; what comes after a refusal is ignored.
   */
  push(chunk: string): void {
    if (this.refused) return;
    let start = 0;
    let newline = chunk.indexOf("\n");
    while (newline !== -1) {
      const piece = chunk.slice(start, newline);
      this.guard(this.pendingChars + piece.length);
      let line = piece;
      if (this.pieces.length > 0) {
        this.pieces.push(piece);
        line = this.pieces.join("");
        this.pieces = [];
        this.pendingChars = 0;
      }
      start = newline + 1;
      if (line.length > 0) this.onLine(line);
      newline = chunk.indexOf("\n", start);
    }
    if (start === chunk.length) return;
    const rest = start === 0 ? chunk : chunk.slice(start);
    this.guard(this.pendingChars + rest.length);
    this.pieces.push(rest);
    this.pendingChars += rest.length;
  }

  private guard(lineChars: number): void {
    if (lineChars <= this.maxChars) return;
    this.refused = true;
    this.pieces = [];
    this.pendingChars = 0;
    throw new FrameTooLongError(this.maxChars);
  }
}

/** One message as a line. */
export function encodeMessage(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
