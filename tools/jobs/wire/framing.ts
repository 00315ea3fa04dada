// Framing on the job host's socket: one JSON message per line (JSON never holds a raw newline, so a
// line is exactly one message), in both directions, and one exception, from the host only: a job's
// output for a client that takes all of it (JSON mode, a remote session) goes as an output frame, a
// short header line naming its length, then the text as it is (encodeOutputFrame). JSON-escaping
// every byte of a flood was a fifth of a remote host's busy time, and parsing it again much of the
// client's. The splitter is linear in what it receives: it scans each chunk once, keeps a line's (or
// a text's) pieces in a list and joins them once, when its end comes. A frame longer than
// MAX_FRAME_CHARS is refused as soon as it passes the cap, newline or not: the peer is not speaking
// this protocol, and the connection ends (host-client.ts's drop, host-connection.ts's fail) before
// it can make us hold much.

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
 * - a piece of a remote read's image: at most REMOTE_IMAGE_PIECE_BYTES (4 MiB) of file as base64,
 *   which needs no escaping, 5.6 M (model-tools/file-tools.ts; a larger image goes in pieces).
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

/**
 * Splits a stream of text into lines (messages); a line past `maxChars` is an error. With
 * `textLength`, a line it gives a length for is a header: that many characters after it (newlines
 * and all) are its text, delivered with it.
 */
export class LineSplitter {
  /** The pieces of the line under way: none holds a newline. */
  private pieces: string[] = [];
  private pendingChars = 0;
  private refused = false;
  /** The header whose text is being read, and how much of the text is still to come. */
  private header: string | undefined;
  private textNeeded = 0;

  constructor(
    private readonly onLine: (line: string, text?: string) => void,
    private readonly maxChars: number = MAX_FRAME_CHARS,
    private readonly textLength?: (line: string) => number | undefined,
  ) {}

  /**
   * Delivers every line (and text) the chunk completes (empty lines skipped). Throws
   * FrameTooLongError once the line or text under way passes the cap; what comes after a refusal is
   * ignored. `textLength` may throw too (a header it cannot read): the same then.
   */
  push(chunk: string): void {
    if (this.refused) return;
    let start = 0;
    while (start < chunk.length) {
      if (this.header !== undefined) {
        start = this.takeText(chunk, start);
        continue;
      }
      const newline = chunk.indexOf("\n", start);
      if (newline === -1) break;
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
      if (line.length === 0) continue;
      let length: number | undefined;
      try {
        length = this.textLength?.(line);
      } catch (error) {
        this.refused = true;
        this.pieces = [];
        throw error;
      }
      if (length === undefined) this.onLine(line);
      else if (length === 0) this.onLine(line, "");
      else {
        this.guard(length);
        this.header = line;
        this.textNeeded = length;
      }
    }
    if (start >= chunk.length) return;
    const rest = start === 0 ? chunk : chunk.slice(start);
    this.guard(this.pendingChars + rest.length);
    this.pieces.push(rest);
    this.pendingChars += rest.length;
  }

  /** Takes what the chunk holds of the text under way from `start`; returns where the chunk goes on. */
  private takeText(chunk: string, start: number): number {
    const end = Math.min(chunk.length, start + this.textNeeded);
    this.pieces.push(start === 0 && end === chunk.length ? chunk : chunk.slice(start, end));
    this.textNeeded -= end - start;
    if (this.textNeeded > 0) return end;
    const header = this.header!;
    const text = this.pieces.length === 1 ? this.pieces[0]! : this.pieces.join("");
    this.pieces = [];
    this.header = undefined;
    this.onLine(header, text);
    return end;
  }

  private guard(lineChars: number): void {
    if (lineChars <= this.maxChars) return;
    this.refused = true;
    this.pieces = [];
    this.pendingChars = 0;
    this.header = undefined;
    throw new FrameTooLongError(this.maxChars);
  }
}

/** One message as a line. */
export function encodeMessage(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

/** What starts an output frame's header line (a character JSON never starts with). */
export const OUTPUT_FRAME_MARK = "\x1e";

/** A job's output as an output frame: `␞<length> <JSON of the rest>` on a line, then the text itself. */
export function encodeOutputFrame(event: { jobId: string; stream: string; chunk: string; offset?: number }): string {
  const header = event.offset === undefined ? { jobId: event.jobId, stream: event.stream } : { jobId: event.jobId, stream: event.stream, offset: event.offset };
  return `${OUTPUT_FRAME_MARK}${event.chunk.length} ${JSON.stringify(header)}\n${event.chunk}`;
}

/** The text length an output frame's header line gives; undefined for any other line. Throws on a header it cannot read. */
export function outputFrameLength(line: string): number | undefined {
  if (!line.startsWith(OUTPUT_FRAME_MARK)) return undefined;
  const space = line.indexOf(" ");
  const digits = space > 1 ? line.slice(1, space) : "";
  if (!/^\d{1,15}$/.test(digits)) throw new Error("an output frame whose header gives no length");
  return Number(digits);
}

/**
 * The message an output frame carries (header line and text): an event message with the job_output
 * event, its fields in the order the host made them; unchecked, as JSON.parse's results are.
 */
export function decodeOutputFrame(line: string, text: string): unknown {
  const header = JSON.parse(line.slice(line.indexOf(" ") + 1)) as { jobId?: unknown; stream?: unknown; offset?: unknown } | null;
  if (typeof header !== "object" || header === null) return header;
  const { jobId, stream, offset } = header;
  return { type: "event", event: { type: "job_output", jobId, stream, chunk: text, ...(offset !== undefined ? { offset } : {}) } };
}
