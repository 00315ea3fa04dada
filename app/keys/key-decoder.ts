// Turns the bytes a terminal sends into keys, pasted text and mouse events. pitwall reads stdin
// itself instead of through blessed: blessed has no bracketed paste (a large paste would arrive as
// thousands of key events) and cannot tell Shift+Enter apart. Understood: legacy xterm sequences,
// SS3, modifyOtherKeys (CSI 27;m;k ~), the kitty keyboard protocol (CSI k;m u), SGR mouse,
// bracketed paste, and the terminal's answers to pitwall's questions (DCS replies, OSC reports such
// as the background colour), never typed text. Runs of typed characters arrive as one text event.
//
// Alt in xterm with metaSendsEscape off sets the eighth bit: Alt+1 arrives as "±" (0xB1, sent as
// UTF-8). terminal-modes.ts turns metaSendsEscape on, so this is rare; as a fallback only the
// C1 range (U+0080–U+009F: Alt with a control key, such as Alt+Enter = U+008D) is read as Alt,
// because nobody types those. "±", "é" and the rest of Latin-1 are letters people type, so they
// stay text.
import { knownKey, type Key } from "./key.js";

export interface KeyEvent {
  type: "key";
  /** "enter", "ctrl+c", "alt+enter", "shift+tab", "f1", "x", "X", "?", "space" (key.ts). */
  name: Key;
}
export interface TextEvent {
  type: "text";
  text: string;
}
export interface PasteEvent {
  type: "paste";
  text: string;
}
export interface MouseEvent {
  type: "mouse";
  /** "motion": the pointer moved (with a button held, or with none when any motion is reported). */
  action: "wheelup" | "wheeldown" | "wheelleft" | "wheelright" | "press" | "release" | "motion";
  /** 0 left, 1 middle, 2 right, 3 none (motion without a button). */
  button: number;
  /** The button code as the terminal sent it (SGR's Cb: button, Shift 4, Alt 8, Ctrl 16, motion 32, wheel 64). */
  code: number;
  /** 0-based cell coordinates. */
  x: number;
  y: number;
}
/** The terminal's answer to a question pitwall asked (a DCS string: DECRQSS, XTGETTCAP): its body, from after ESC P to before ST. */
export interface ReplyEvent {
  type: "reply";
  text: string;
}
/** The terminal answering an OSC question pitwall asked (OSC 11: its background colour), never a key. */
export interface ReportEvent {
  type: "report";
  /** The OSC number: 11 for the background. */
  code: number;
  /** What follows "code;": "rgb:ffff/ffff/ffff". */
  value: string;
}
export type InputEvent = KeyEvent | TextEvent | PasteEvent | MouseEvent | ReplyEvent | ReportEvent;

/** A terminal's DCS answer: DECRQSS (1$r… or 0$r), XTGETTCAP (1+r… or 0+r), XTVERSION (>|…), ended by ST or BEL. */
const DCS_REPLY = /^\x1bP((?:[01][$+]r|>\|)[^\x1b\x07]*)(?:\x1b\\|\x07)/;
/** The start of one, still arriving. */
const DCS_REPLY_START = /^\x1bP(?:[01](?:[$+]r?)?|>|(?:[01][$+]r|>\|)[^\x1b\x07]*\x1b?)?$/;

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const CSI_TILDE: Record<number, string> = {
  1: "home", 2: "insert", 3: "delete", 4: "end", 5: "pageup", 6: "pagedown", 7: "home", 8: "end",
  11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6", 18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12",
};
const CSI_LETTER: Record<string, string> = {
  A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", E: "clear", P: "f1", Q: "f2", R: "f3", S: "f4",
};
const SS3_LETTER: Record<string, string> = { ...CSI_LETTER, M: "enter" };

/** Names of keys by code point, for CSI u and modifyOtherKeys. */
function nameOfCode(code: number): string {
  switch (code) {
    case 13: return "enter";
    case 9: return "tab";
    case 27: return "escape";
    case 127: case 8: return "backspace";
    case 32: return "space";
    default: return String.fromCodePoint(code);
  }
}

/** Applies xterm's modifier parameter (1 + shift·1 + alt·2 + ctrl·4) to a base name. */
export function withModifiers(base: string, modifier: number): string {
  const m = Math.max(0, modifier - 1);
  const shift = (m & 1) !== 0;
  const alt = (m & 2) !== 0;
  const ctrl = (m & 4) !== 0;
  let name = base;
  if (shift && name.length === 1) {
    name = name.toUpperCase();
    // Shift on a printable character is already in the character.
    return prefix(ctrl, alt, false, name === " " ? "space" : name);
  }
  if (ctrl && name.length === 1) name = name.toLowerCase();
  return prefix(ctrl, alt, shift, name);
}

function prefix(ctrl: boolean, alt: boolean, shift: boolean, name: string): string {
  return `${ctrl ? "ctrl+" : ""}${alt ? "alt+" : ""}${shift ? "shift+" : ""}${name}`;
}

function controlName(code: number): string | undefined {
  if (code === 13) return "enter";
  if (code === 10) return "ctrl+j";
  if (code === 9) return "tab";
  if (code === 127 || code === 8) return "backspace";
  if (code === 0) return "ctrl+space";
  if (code >= 1 && code <= 26) return `ctrl+${String.fromCharCode(code + 96)}`;
  if (code === 28) return "ctrl+\\";
  if (code === 29) return "ctrl+]";
  if (code === 30) return "ctrl+^";
  if (code === 31) return "ctrl+_";
  return undefined;
}

/** Parses one CSI sequence body (between ESC [ and the final byte). */
function decodeCsi(params: string, final: string): string | undefined {
  const parts = params.split(";");
  const num = (i: number, fallback: number): number => {
    const v = Number.parseInt(parts[i] ?? "", 10);
    return Number.isFinite(v) ? v : fallback;
  };
  if (final === "~") {
    const first = num(0, 0);
    if (first === 27) return withModifiers(nameOfCode(num(2, 0)), num(1, 1));
    const base = CSI_TILDE[first];
    return base ? withModifiers(base, num(1, 1)) : undefined;
  }
  if (final === "u") {
    const [codeText] = (parts[0] ?? "").split(":");
    const code = Number.parseInt(codeText ?? "", 10);
    if (!Number.isFinite(code)) return undefined;
    const modifier = Number.parseInt((parts[1] ?? "1").split(":")[0] ?? "1", 10) || 1;
    return withModifiers(nameOfCode(code), modifier);
  }
  if (final === "Z") return "shift+tab";
  const base = CSI_LETTER[final];
  if (!base) return undefined;
  return withModifiers(base, parts.length > 1 ? num(1, 1) : 1);
}

export interface KeyDecoderOptions {
  /** How long a lone ESC waits for the rest of a sequence before it counts as the Escape key. */
  escapeTimeoutMs?: number;
  /** The terminal reported gaining (true) or losing focus (DECSET 1004's CSI I and CSI O); no key event. */
  onFocus?: (focused: boolean) => void;
}

export class KeyDecoder {
  private buffer = "";
  private paste: string | undefined;
  private escTimer: NodeJS.Timeout | undefined;
  private readonly escapeTimeout: number;

  constructor(
    private readonly emit: (event: InputEvent) => void,
    options: KeyDecoderOptions = {},
  ) {
    this.escapeTimeout = options.escapeTimeoutMs ?? 30;
    this.onFocus = options.onFocus;
  }

  private readonly onFocus: ((focused: boolean) => void) | undefined;

  feed(data: string): void {
    if (this.escTimer) {
      clearTimeout(this.escTimer);
      this.escTimer = undefined;
    }
    this.buffer += data;
    this.drain(false);
    if (this.buffer !== "" && this.paste === undefined) {
      this.escTimer = setTimeout(() => {
        this.escTimer = undefined;
        this.drain(true);
      }, this.escapeTimeout);
    }
  }

  dispose(): void {
    if (this.escTimer) clearTimeout(this.escTimer);
  }

  private drain(flush: boolean): void {
    let text = "";
    const flushText = (): void => {
      if (text) this.emit({ type: "text", text });
      text = "";
    };
    while (this.buffer.length > 0) {
      if (this.paste !== undefined) {
        const end = this.buffer.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a possible partial end marker in the buffer.
          const keep = partialSuffix(this.buffer, PASTE_END);
          this.paste += this.buffer.slice(0, this.buffer.length - keep);
          this.buffer = this.buffer.slice(this.buffer.length - keep);
          return;
        }
        this.paste += this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + PASTE_END.length);
        this.emit({ type: "paste", text: this.paste.replace(/\r\n?/g, "\n") });
        this.paste = undefined;
        continue;
      }
      const c = this.buffer.charCodeAt(0);
      if (c === 0x1b) {
        const result = this.decodeEscape(flush);
        if (result === "incomplete") break;
        flushText();
        this.buffer = this.buffer.slice(result.length);
        if (result.event) this.emit(result.event);
        continue;
      }
      if (c >= 0x80 && c <= 0x9f) {
        flushText();
        const control = controlName(c - 0x80);
        if (control) this.emit({ type: "key", name: knownKey(addAlt(control)) });
        this.buffer = this.buffer.slice(1);
        continue;
      }
      const control = c < 0x20 || c === 0x7f ? controlName(c) : undefined;
      if (control !== undefined || c < 0x20 || c === 0x7f) {
        flushText();
        if (control) this.emit({ type: "key", name: knownKey(control) });
        this.buffer = this.buffer.slice(1);
        continue;
      }
      // A run of printable characters.
      let i = 1;
      while (i < this.buffer.length) {
        const d = this.buffer.charCodeAt(i);
        if (d < 0x20 || d === 0x7f || d === 0x1b || (d >= 0x80 && d <= 0x9f)) break;
        i++;
      }
      text += this.buffer.slice(0, i);
      this.buffer = this.buffer.slice(i);
    }
    flushText();
  }

  /** Decodes the escape sequence at the start of the buffer. */
  private decodeEscape(flush: boolean): { length: number; event?: InputEvent } | "incomplete" {
    const b = this.buffer;
    if (b.length === 1) return flush ? { length: 1, event: keyEvent("escape") } : "incomplete";
    const second = b[1]!;
    if (second === "[") {
      if (b.startsWith(PASTE_START)) {
        this.paste = "";
        return { length: PASTE_START.length };
      }
      // CSI: parameters 0x30–0x3f, intermediates 0x20–0x2f, final 0x40–0x7e.
      let i = 2;
      while (i < b.length && b.charCodeAt(i) >= 0x20 && b.charCodeAt(i) <= 0x3f) i++;
      if (i >= b.length) return flush ? { length: b.length } : "incomplete";
      const final = b[i]!;
      const params = b.slice(2, i);
      const length = i + 1;
      if (params.startsWith("<") && (final === "M" || final === "m")) return { length, event: decodeMouse(params.slice(1), final) };
      if (params === "" && (final === "I" || final === "O")) {
        this.onFocus?.(final === "I");
        return { length };
      }
      const name = decodeCsi(params.replace(/^[?>=]/, ""), final);
      return { length, event: name ? keyEvent(name) : undefined };
    }
    if (second === "]") {
      // An OSC report ("ESC ] 11 ; rgb:… ST"), ended by ST (ESC backslash) or BEL; Alt+] has no digits after it.
      const report = /^\x1b\](\d+);([^\x07\x1b]*)(\x07|\x1b\\)/.exec(b);
      if (report) return { length: report[0].length, event: { type: "report", code: Number(report[1]), value: report[2]! } };
      if (/^\x1b\]\d+;[^\x07\x1b]*(\x1b)?$/.test(b)) return flush ? { length: b.length } : "incomplete";
      if (/^\x1b\]\d*$/.test(b) && !flush) return "incomplete";
    }
    if (second === "P") {
      // An answer to a question pitwall asked; anything else is Alt+P.
      const reply = DCS_REPLY.exec(b);
      if (reply) return { length: reply[0].length, event: { type: "reply", text: reply[1]! } };
      if (DCS_REPLY_START.test(b) && !flush) return "incomplete";
    }
    if (second === "O") {
      if (b.length < 3) return flush ? { length: 2, event: keyEvent("alt+O") } : "incomplete";
      const name = SS3_LETTER[b[2]!];
      return { length: 3, event: name ? keyEvent(name) : undefined };
    }
    if (second === "\x1b") {
      // ESC ESC [ … : Alt with a special key in some terminals; otherwise two Escapes.
      if (b.length > 2 && (b[2] === "[" || b[2] === "O")) {
        const saved = this.buffer;
        this.buffer = b.slice(1);
        const inner = this.decodeEscape(flush);
        this.buffer = saved;
        if (inner === "incomplete") return inner;
        const event = inner.event?.type === "key" ? keyEvent(addAlt(inner.event.name)) : inner.event;
        return { length: inner.length + 1, event };
      }
      return { length: 1, event: keyEvent("escape") };
    }
    const code = b.charCodeAt(1);
    const control = controlName(code);
    if (control) return { length: 2, event: keyEvent(addAlt(control)) };
    const cp = b.codePointAt(1)!;
    const ch = String.fromCodePoint(cp);
    return { length: 1 + ch.length, event: keyEvent(`alt+${ch === " " ? "space" : ch}`) };
  }
}

/** A key event for a name the decoder built (always in the canonical spelling). */
function keyEvent(name: string): KeyEvent {
  return { type: "key", name: knownKey(name) };
}

function addAlt(name: string): string {
  if (name.startsWith("ctrl+")) return `ctrl+alt+${name.slice(5)}`;
  return `alt+${name}`;
}

const WHEEL = ["wheelup", "wheeldown", "wheelleft", "wheelright"] as const;

function decodeMouse(params: string, final: string): MouseEvent | undefined {
  const [b, x, y] = params.split(";").map((v) => Number.parseInt(v, 10));
  if (b === undefined || x === undefined || y === undefined || [b, x, y].some((v) => !Number.isFinite(v))) return undefined;
  const base = { type: "mouse" as const, button: b & 3, code: b, x: x - 1, y: y - 1 };
  if (b & 64) return { ...base, action: WHEEL[b & 3]! };
  if (b & 32) return { ...base, action: "motion" };
  return { ...base, action: final === "M" ? "press" : "release" };
}

/** How many characters at the end of `text` could start `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) {
    if (text.endsWith(marker.slice(0, n))) return n;
  }
  return 0;
}
