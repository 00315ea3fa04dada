// Program output as a pane shows it: colours (SGR) kept, every other escape sequence dropped (cursor
// moves, erase, titles), `\r` progress lines resolved to their last state, tabs expanded and
// backspaces applied. Raw output never reaches a blessed box. The log is bounded in lines and in
// line length, so a command printing for minutes costs the same memory as one printing for seconds.
import { PLAIN, withStyle, type StyledLine } from "./styled-text.js";
import { countNewlines } from "../../tools/output-cap.js";

const MAX_LINE_CHARS = 4000;
/**
 * Lines this near the end of the tail are read from its raw text, back from the end, without
 * making the whole tail into lines: a pane's bottom rows while a command floods. Further up, the
 * tail is settled.
 */
const TAIL_READ_LINES = 256;

/** Nearest colour of the xterm 256-colour cube (or grey ramp) for a 24-bit colour. */
export function rgbTo256(r: number, g: number, b: number): number {
  if (Math.abs(r - g) < 10 && Math.abs(g - b) < 10) {
    if (r < 8) return 16;
    if (r > 248) return 231;
    return 232 + Math.round(((r - 8) / 247) * 23);
  }
  const level = (v: number): number => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  return 16 + 36 * level(r) + 6 * level(g) + level(b);
}

/** Applies one SGR parameter list to an attribute. */
export function applySgr(attr: number, params: string): number {
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => (p === "" ? 0 : Number.parseInt(p, 10)));
  let a = attr;
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) a = PLAIN;
    else if (c === 1) a = withStyle(a, { bold: true });
    else if (c === 2) a = withStyle(a, { dim: true });
    else if (c === 3) a = withStyle(a, { italic: true });
    else if (c === 4) a = withStyle(a, { underline: true });
    else if (c === 7) a = withStyle(a, { inverse: true });
    else if (c === 9) a = withStyle(a, { strike: true });
    else if (c === 22) a = withStyle(a, { bold: false, dim: false });
    else if (c === 23) a = withStyle(a, { italic: false });
    else if (c === 24) a = withStyle(a, { underline: false });
    else if (c === 27) a = withStyle(a, { inverse: false });
    else if (c === 29) a = withStyle(a, { strike: false });
    else if (c >= 30 && c <= 37) a = withStyle(a, { fg: c - 30 });
    else if (c === 39) a = withStyle(a, { fg: 0x1ff });
    else if (c >= 40 && c <= 47) a = withStyle(a, { bg: c - 40 });
    else if (c === 49) a = withStyle(a, { bg: 0x1ff });
    else if (c >= 90 && c <= 97) a = withStyle(a, { fg: c - 90 + 8 });
    else if (c >= 100 && c <= 107) a = withStyle(a, { bg: c - 100 + 8 });
    else if (c === 38 || c === 48) {
      let color: number | undefined;
      if (codes[i + 1] === 5) {
        color = codes[i + 2];
        i += 2;
      } else if (codes[i + 1] === 2) {
        color = rgbTo256(codes[i + 2] ?? 0, codes[i + 3] ?? 0, codes[i + 4] ?? 0);
        i += 4;
      }
      if (color !== undefined && color >= 0 && color <= 255) a = withStyle(a, c === 38 ? { fg: color } : { bg: color });
    }
  }
  return a;
}

const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-_]|\x1b/g;
const SPECIAL = /[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]/;
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f\x80-\x9f]/g;

/** Text from a model or a file for display: no escape sequences, no control characters, tabs as spaces. */
export function sanitizeText(text: string, tabWidth = 4): string {
  return text.replace(ESCAPES, "").replace(/\r\n/g, "\n").replace(/\t/g, " ".repeat(tabWidth)).replace(CONTROLS, "");
}

export interface TerminalTextLogOptions {
  maxLines?: number;
  /** How near the end a line is read back from raw text (TAIL_READ_LINES); 0 settles the tail on every read. */
  tailReadLines?: number;
}

/** A growing, bounded log of styled lines fed with raw program output in chunks. */
export class TerminalTextLog {
  private readonly maxLines: number;
  private readonly tailReadLines: number;
  private readonly done: StyledLine[] = [];
  /** Lines dropped from the front to stay within maxLines. */
  dropped = 0;
  private attr = PLAIN;
  private current: StyledLine = [];
  private currentChars = 0;
  private carriage = false;
  private partial = "";
  /**
   * Plain lines not made into styled lines yet (settle), as the raw text of whole lines: they come
   * after `done` and before `current`, all in `tailAttr`, minus the first `tailSkip` lines of the
   * first piece. A command printing a million lines makes only the lines still kept when someone
   * looks, instead of a line object for every line of every chunk the next chunk drops again.
   */
  private tail: Array<{ text: string; lines: number }> = [];
  private tailLines = 0;
  private tailSkip = 0;
  private tailAttr = PLAIN;
  /** The tail's last lines read back (newest first) while `version` is tailReadVersion; where the reading goes on. */
  private tailRead: StyledLine[] = [];
  private tailReadVersion = -1;
  private tailReadPiece = 0;
  private tailReadEnd = 0;
  /** Bumped on every change, so a view knows when to repaint. */
  version = 0;
  totalChars = 0;

  constructor(options: TerminalTextLogOptions = {}) {
    this.maxLines = options.maxLines ?? 5000;
    this.tailReadLines = options.tailReadLines ?? TAIL_READ_LINES;
  }

  /** Completed lines plus the line being written (if it has text). */
  get lineCount(): number {
    return this.done.length + this.tailLines + (this.current.length > 0 ? 1 : 0);
  }

  line(i: number): StyledLine | undefined {
    if (i < this.done.length) return this.done[i];
    const fromEnd = this.done.length + this.tailLines - 1 - i;
    if (fromEnd >= this.tailReadLines) {
      this.settle();
      return this.done[i];
    }
    if (fromEnd >= 0) return this.tailLine(fromEnd);
    return i === this.done.length + this.tailLines && this.current.length > 0 ? this.current : undefined;
  }

  write(chunk: string): void {
    if (!chunk) return;
    this.version++;
    this.totalChars += chunk.length;
    if (this.partial === "" && !this.carriage && !SPECIAL.test(chunk)) {
      this.writePlain(chunk);
      return;
    }
    this.settle();
    let data = this.partial + chunk;
    this.partial = "";
    let i = 0;
    let textStart = 0;
    const n = data.length;
    while (i < n) {
      const c = data.charCodeAt(i);
      if (c >= 0x20 && c !== 0x7f && !(c >= 0x80 && c <= 0x9f)) {
        i++;
        continue;
      }
      if (i > textStart) this.addText(data.slice(textStart, i));
      if (c === 0x1b) {
        const seq = matchEscape(data, i);
        if (seq === undefined) {
          // Cut in the middle of a sequence: keep it for the next chunk.
          this.partial = data.slice(i);
          data = "";
          textStart = i = n;
          break;
        }
        if (seq.final === "m" && seq.csi) this.attr = applySgr(this.attr, seq.params);
        i += seq.length;
      } else {
        if (c === 0x0a) this.newline();
        else if (c === 0x0d) this.carriage = true;
        else if (c === 0x09) this.addText(" ".repeat(8 - (this.currentChars % 8)));
        else if (c === 0x08) this.backspace();
        i++;
      }
      textStart = i;
    }
    if (textStart < n) this.addText(data.slice(textStart, n));
  }

  /**
   * Text with no control characters but newlines. Its whole lines join the tail as they are (see
   * `tail`); only their number is counted, and lines that would be dropped anyway are dropped by
   * number, as they would be were they made at once.
   */
  private writePlain(chunk: string): void {
    const first = chunk.indexOf("\n");
    if (first === -1) {
      this.addText(chunk);
      return;
    }
    this.addText(chunk.slice(0, first));
    this.endLine();
    const last = chunk.lastIndexOf("\n");
    const middle = last > first ? chunk.slice(first + 1, last + 1) : "";
    const lines = middle === "" ? 0 : countNewlines(middle);
    // Lines of this chunk that cannot survive the cap are counted, not kept.
    const skip = Math.max(0, lines - this.maxLines);
    if (skip > 0) {
      this.dropped += this.done.length + this.tailLines + skip;
      this.done.length = 0;
      this.clearTail();
    }
    if (lines > skip) {
      if (this.tail.length === 0) {
        this.tailAttr = this.attr;
        this.tailSkip = skip;
      }
      this.tail.push({ text: middle, lines });
      this.tailLines += lines - skip;
      this.trim();
    }
    if (last + 1 < chunk.length) this.addText(chunk.slice(last + 1));
  }

  /** Ends the line under way, after the tail: as raw text when it is plain text in the tail's colours. */
  private endLine(): void {
    if (this.tail.length === 0) return this.newline();
    const only = this.current[0];
    // Raw text comes back as one segment per line, or none for an empty line.
    if (this.current.length > 1 || (only !== undefined && (only.attr !== this.tailAttr || only.text === ""))) {
      this.settle();
      return this.newline();
    }
    this.carriage = false;
    this.tail.push({ text: `${only?.text ?? ""}\n`, lines: 1 });
    this.tailLines++;
    this.current = [];
    this.currentChars = 0;
    this.trim();
  }

  /** Drops lines from the front once more than maxLines and some are kept (in batches: see newline). */
  private trim(): void {
    const kept = this.done.length + this.tailLines;
    if (kept <= this.maxLines + Math.max(64, this.maxLines >> 3)) return;
    let excess = kept - this.maxLines;
    this.dropped += excess;
    const fromDone = Math.min(excess, this.done.length);
    this.done.splice(0, fromDone);
    excess -= fromDone;
    this.tailLines -= excess;
    this.tailSkip += excess;
    while (this.tail.length > 0 && this.tailSkip >= this.tail[0]!.lines) this.tailSkip -= this.tail.shift()!.lines;
  }

  /** The tail's line `fromEnd` lines before its last (0: the last), read back from the end of its text. */
  private tailLine(fromEnd: number): StyledLine {
    if (this.tailReadVersion !== this.version) {
      this.tailRead = [];
      this.tailReadVersion = this.version;
      this.tailReadPiece = this.tail.length - 1;
      // Every piece ends with the newline of its last line.
      this.tailReadEnd = this.tail[this.tailReadPiece]!.text.length - 1;
    }
    // fromEnd < tailLines, so this never reaches the skipped lines at the tail's start.
    while (this.tailRead.length <= fromEnd) {
      const text = this.tail[this.tailReadPiece]!.text;
      const start = this.tailReadEnd === 0 ? 0 : text.lastIndexOf("\n", this.tailReadEnd - 1) + 1;
      this.tailRead.push(this.styledTailLine(text.slice(start, this.tailReadEnd)));
      if (start > 0) this.tailReadEnd = start - 1;
      else if (--this.tailReadPiece >= 0) this.tailReadEnd = this.tail[this.tailReadPiece]!.text.length - 1;
    }
    return this.tailRead[fromEnd]!;
  }

  private styledTailLine(text: string): StyledLine {
    return text === "" ? [] : [{ text: text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text, attr: this.tailAttr }];
  }

  /** Makes the tail's lines into styled lines, after `done`. */
  private settle(): void {
    if (this.tail.length === 0) return;
    let skip = this.tailSkip;
    for (const piece of this.tail) {
      let start = 0;
      for (let end = piece.text.indexOf("\n"); end !== -1; end = piece.text.indexOf("\n", end + 1)) {
        if (skip > 0) skip--;
        else this.done.push(this.styledTailLine(piece.text.slice(start, end)));
        start = end + 1;
      }
    }
    this.clearTail();
  }

  private clearTail(): void {
    this.tail = [];
    this.tailLines = 0;
    this.tailSkip = 0;
    this.tailRead = [];
    this.tailReadVersion = -1;
  }

  private addText(text: string): void {
    if (this.carriage) {
      // A carriage return followed by text redraws the line (progress bars): the last state wins.
      this.current = [];
      this.currentChars = 0;
      this.carriage = false;
    }
    if (this.currentChars >= MAX_LINE_CHARS) return;
    const room = MAX_LINE_CHARS - this.currentChars;
    const piece = text.length > room ? `${text.slice(0, room)}…` : text;
    const last = this.current[this.current.length - 1];
    if (last && last.attr === this.attr) last.text += piece;
    else this.current.push({ text: piece, attr: this.attr });
    this.currentChars += piece.length;
  }

  private backspace(): void {
    const last = this.current[this.current.length - 1];
    if (!last) return;
    last.text = last.text.slice(0, -1);
    this.currentChars = Math.max(0, this.currentChars - 1);
    if (last.text === "") this.current.pop();
  }

  /** Ends the line under way (the tail settled before it). */
  private newline(): void {
    this.carriage = false;
    this.done.push(this.current);
    this.current = [];
    this.currentChars = 0;
    // Trimmed in batches: removing from the front of an array costs its whole length.
    this.trim();
  }
}

interface EscapeMatch {
  length: number;
  csi: boolean;
  params: string;
  final: string;
}

function matchEscape(data: string, at: number): EscapeMatch | undefined {
  const next = data[at + 1];
  if (next === undefined) return undefined;
  if (next === "[") {
    let j = at + 2;
    while (j < data.length && data.charCodeAt(j) >= 0x20 && data.charCodeAt(j) <= 0x3f) j++;
    if (j >= data.length) return undefined;
    return { length: j + 1 - at, csi: true, params: data.slice(at + 2, j), final: data[j]! };
  }
  if (next === "]" || next === "P" || next === "_" || next === "^") {
    // OSC / DCS / APC / PM: up to BEL or ST.
    for (let j = at + 2; j < data.length; j++) {
      if (data[j] === "\x07") return { length: j + 1 - at, csi: false, params: "", final: "" };
      if (data[j] === "\x1b" && data[j + 1] === "\\") return { length: j + 2 - at, csi: false, params: "", final: "" };
      if (j - at > 4096) return { length: j - at, csi: false, params: "", final: "" };
    }
    return undefined;
  }
  return { length: 2, csi: false, params: "", final: next };
}
