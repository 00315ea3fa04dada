// Raw terminal output turned into lines of plain text, as a terminal would leave them: escape
// sequences are dropped, `\r` returns to column 0 so progress bars end as their final state, `\b`,
// column moves and erase-line are honoured, and a line longer than `maxLineChars` wraps. A small
// state machine over the stream (cheaper than asking the emulator), with a fast path for the common
// case of a flood: printable text and line ends. Completed lines go to a sink (the plain-text log);
// the line under way stays here.

/** Where completed lines go. */
export interface LineSink {
  /** A completed line, which the sink may keep as it is (see detach). */
  commitLine(text: string): void;
  /** The last `count` lines given are slices of a chunk that must not stay alive for them: copy them. */
  detachLast(count: number): void;
}

const enum State {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  Osc,
  OscEscape,
  /** DCS, SOS, PM, APC: skipped up to the string terminator. */
  ControlString,
  ControlStringEscape,
}

const ESC = 0x1b;
const MAX_CSI_PARAMS = 64;

/**
 * A slice of a large chunk keeps the whole chunk alive in V8; a line kept for hours must own its
 * characters. Concatenating then slicing forces a flat copy.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (" " + text).slice(1);
}

/** Escapes and controls other than CR and LF (and C1 codes): text with any of them is walked. */
const CONTROLS = /[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]/;

function isPrintable(code: number): boolean {
  return code >= 0x20 && code !== 0x7f && (code < 0x80 || code > 0x9f);
}

/** A run of printable characters, matched from `lastIndex`: the regex engine scans ~5× faster than a charCodeAt loop. */
const PRINTABLE_RUN = /[^\x00-\x1f\x7f-\x9f]*/y;
/** Runs shorter than this are walked by hand: below it a regex call costs more than it saves. */
const SHORT_RUN = 32;

/** Where the run of printable characters that starts at chunk[from] ends. */
function printableRunEnd(chunk: string, from: number): number {
  const stop = Math.min(chunk.length, from + SHORT_RUN);
  let end = from + 1;
  while (end < stop && isPrintable(chunk.charCodeAt(end))) end++;
  if (end < stop || end === chunk.length) return end;
  PRINTABLE_RUN.lastIndex = end;
  PRINTABLE_RUN.test(chunk);
  return PRINTABLE_RUN.lastIndex;
}

export class TerminalLines {
  private state: State = State.Ground;
  private csiParams = "";
  private line = "";
  private col = 0;
  /** Lines completed so far. */
  private completed = 0;

  constructor(
    private readonly maxLineChars: number,
    private readonly sink: LineSink,
  ) {}

  /** The line under way (not completed yet). */
  get partial(): string {
    return this.line;
  }

  /** Between sequences, at the start of an empty line: where a stretch of whole lines may begin. */
  get atLineStart(): boolean {
    return this.state === State.Ground && this.line === "" && this.col === 0;
  }

  /** Reads raw output into lines. */
  read(chunk: string): void {
    if (this.state !== State.Ground) return this.walk(chunk);
    // The text before the first control takes the fast path too: a progress bar's long redraw is
    // then one search, not a search and a walk.
    const control = chunk.search(CONTROLS);
    if (control === -1) return this.writeLines(chunk, chunk.length);
    if (control > 0) this.writeLines(chunk, control);
    this.walk(control > 0 ? chunk.slice(control) : chunk);
  }

  /** The state machine, one character at a time. */
  private walk(chunk: string): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      const code = chunk.charCodeAt(i);
      switch (this.state) {
        case State.Ground: {
          if (isPrintable(code)) {
            const end = printableRunEnd(chunk, i);
            this.put(chunk.slice(i, end));
            i = end;
            continue;
          }
          if (code === ESC) this.state = State.Escape;
          else this.control(code);
          break;
        }
        case State.Escape:
          this.escape(code);
          break;
        case State.EscapeIntermediate:
          if (code < 0x20 || code > 0x2f) this.state = State.Ground;
          break;
        case State.Csi:
          if (code >= 0x40 && code <= 0x7e) {
            this.csi(code, this.csiParams);
            this.state = State.Ground;
          } else if (code === ESC) {
            this.state = State.Escape;
          } else if (code === 0x18 || code === 0x1a) {
            this.state = State.Ground;
          } else if (code < 0x20) {
            // C0 controls inside a sequence still act (VT500 parser behaviour).
            this.control(code);
          } else if (this.csiParams.length < MAX_CSI_PARAMS) {
            this.csiParams += chunk[i];
          }
          break;
        case State.Osc:
          if (code === 0x07 || code === 0x18 || code === 0x1a) this.state = State.Ground;
          else if (code === ESC) this.state = State.OscEscape;
          break;
        case State.OscEscape:
          if (code === 0x5c) this.state = State.Ground;
          else this.escape(code);
          break;
        case State.ControlString:
          if (code === ESC) this.state = State.ControlStringEscape;
          else if (code === 0x18 || code === 0x1a) this.state = State.Ground;
          break;
        case State.ControlStringEscape:
          if (code === 0x5c) this.state = State.Ground;
          else this.escape(code);
          break;
      }
      i++;
    }
  }

  /**
   * The common case of a log flood: printable text, CR and LF only, so lines are cut with native
   * searches instead of a character-by-character walk; a line with a bare CR in it (a progress bar
   * redrawn) is put piece by piece between its CRs. Reads chunk[0, stop), which holds no other control.
   */
  private writeLines(chunk: string, stop: number): void {
    let from = 0;
    let cr = -1; // the next CR at or after `from`; Infinity when there is none
    const bareCrBefore = (end: number): boolean => {
      if (cr < from) cr = chunk.indexOf("\r", from);
      if (cr === -1) cr = Infinity;
      return cr < end;
    };
    const completedBefore = this.completed;
    let slicedChars = 0;
    for (let newline = chunk.indexOf("\n"); newline !== -1 && newline < stop; newline = chunk.indexOf("\n", from)) {
      const end = newline > from && chunk.charCodeAt(newline - 1) === 0x0d ? newline - 1 : newline;
      if (bareCrBefore(end)) {
        this.overwrite(chunk, from, end);
        this.commit();
      } else if (this.line === "" && this.col === 0 && end - from <= this.maxLineChars) {
        // A whole line of this chunk: kept as a slice of it rather than copied, which a flood's
        // million lines would each pay for. The chunk stays alive while its lines are kept.
        this.emit(chunk.slice(from, end));
        slicedChars += end - from + 1;
      } else {
        if (end > from) this.put(chunk.slice(from, end));
        this.commit();
      }
      from = newline + 1;
    }
    // A chunk mostly made of other things (a progress bar redrawn) must not stay alive for the few
    // lines it gave: those are copied after all.
    if (slicedChars > 0 && slicedChars * 2 < chunk.length) this.sink.detachLast(this.completed - completedBefore);
    if (from === stop) return;
    if (bareCrBefore(stop)) this.overwrite(chunk, from, stop);
    else this.put(chunk.slice(from, stop));
  }

  /** Puts chunk[from, to), printable text and carriage returns only, each CR returning to column 0. */
  private overwrite(chunk: string, from: number, to: number): void {
    let at = from;
    for (let cr = chunk.indexOf("\r", at); cr !== -1 && cr < to; cr = chunk.indexOf("\r", at)) {
      if (cr > at) this.put(chunk.slice(at, cr));
      this.col = 0;
      at = cr + 1;
    }
    if (at < to) this.put(chunk.slice(at, to));
  }

  private escape(code: number): void {
    if (code === 0x5b) {
      this.state = State.Csi;
      this.csiParams = "";
    } else if (code === 0x5d) {
      this.state = State.Osc;
    } else if (code === 0x50 || code === 0x58 || code === 0x5e || code === 0x5f) {
      this.state = State.ControlString;
    } else if (code >= 0x20 && code <= 0x2f) {
      this.state = State.EscapeIntermediate;
    } else if (code === ESC) {
      this.state = State.Escape;
    } else {
      this.state = State.Ground;
    }
  }

  private control(code: number): void {
    if (code === 0x0a || code === 0x0b || code === 0x0c) {
      this.commit();
    } else if (code === 0x0d) {
      this.col = 0;
    } else if (code === 0x08) {
      if (this.col > 0) this.col--;
    } else if (code === 0x09) {
      this.put("\t");
    }
    // Other controls (BEL, NUL, SO/SI, …) print nothing.
  }

  private csi(final: number, params: string): void {
    if (params.startsWith("?") || params.startsWith(">") || params.startsWith("<") || params.startsWith("=")) return;
    const first = Number.parseInt(params.split(";")[0] ?? "", 10);
    const count = Number.isFinite(first) && first > 0 ? first : 1;
    switch (final) {
      case 0x4b: {
        // K: erase in line. 0 (default): cursor to end; 1: start to cursor; 2: whole line.
        const mode = Number.isFinite(first) ? first : 0;
        if (mode === 0) this.line = this.line.slice(0, this.col);
        else if (mode === 1) this.line = " ".repeat(Math.min(this.col + 1, this.line.length)) + this.line.slice(this.col + 1);
        else if (mode === 2) this.line = "";
        break;
      }
      case 0x47: // G: cursor to column
      case 0x60: // `: same, HPA
        this.col = count - 1;
        break;
      case 0x43: // C: cursor forward
        this.col += count;
        break;
      case 0x44: // D: cursor back
        this.col = Math.max(0, this.col - count);
        break;
      case 0x58: // X: erase characters
        if (this.col < this.line.length) {
          const end = Math.min(this.line.length, this.col + count);
          this.line = this.line.slice(0, this.col) + " ".repeat(end - this.col) + this.line.slice(end);
        }
        break;
      case 0x50: // P: delete characters
        this.line = this.line.slice(0, this.col) + this.line.slice(this.col + count);
        break;
    }
    if (this.col > this.maxLineChars) this.col = this.maxLineChars;
  }

  private put(text: string): void {
    const line = this.line;
    if (this.col === line.length) this.line = line + text;
    else if (this.col > line.length) this.line = line + " ".repeat(this.col - line.length) + text;
    else this.line = line.slice(0, this.col) + text + line.slice(this.col + text.length);
    this.col += text.length;
    while (this.line.length > this.maxLineChars) {
      const rest = this.line.slice(this.maxLineChars);
      this.line = this.line.slice(0, this.maxLineChars);
      this.commit();
      this.line = rest;
      this.col = rest.length;
    }
  }

  private commit(): void {
    const text = detach(this.line);
    this.line = "";
    this.col = 0;
    this.emit(text);
  }

  private emit(text: string): void {
    this.completed++;
    this.sink.commitLine(text);
  }
}
