// Select Graphic Rendition sequences (SGR, ESC [ … m: colours, bold, underline…) in a flood's text:
// the one kind of escape sequence a stretch of output may hold and still be skipped by the emulator
// (emulator-skip.ts) or counted by the log (log-skip.ts), since coloured log lines are as common as
// plain ones. An SGR moves nothing and draws nothing; it sets character attributes, each to a fixed
// value (there are no toggles), so all a skipped stretch leaves behind is the attributes it set last.

const OPEN_BRACKET = 0x5b;
const FINAL_M = 0x6d;
const C1 = /[\x80-\x9f]/;

/** A parameter byte of an SGR: a digit, ";" or ":" (a private marker or an intermediate makes another sequence). */
function isParameter(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x3b || code === 0x3a;
}

/**
 * Whether text holds a C1 control (U+0080–U+009F), which xterm takes as a control too (U+009B is
 * CSI): no skipped or counted stretch may. Pure ASCII has none, so only other text is scanned.
 */
export function hasC1Control(text: string): boolean {
  return Buffer.byteLength(text, "utf8") !== text.length && C1.test(text);
}

/** The index right after the complete SGR sequence that starts with the ESC at text[at], or -1. */
export function sgrEnd(text: string, at: number, end: number = text.length): number {
  if (text.charCodeAt(at + 1) !== OPEN_BRACKET) return -1;
  for (let i = at + 2; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === FINAL_M) return i + 1;
    // ESC [ > 4 ; 2 m, say, sets key modifiers, not colours.
    if (!isParameter(c)) return -1;
  }
  return -1;
}

/**
 * The characters taken by SGR sequences in text[from, end) when every ESC there starts a complete
 * one (0 when there is no ESC), or -1 when some escape is anything else or is cut off by `end`.
 */
export function sgrChars(text: string, from: number = 0, end: number = text.length): number {
  let chars = 0;
  for (let at = text.indexOf("\x1b", from); at !== -1 && at < end; at = text.indexOf("\x1b", at + 1)) {
    const after = sgrEnd(text, at, end);
    if (after === -1) return -1;
    chars += after - at;
    at = after - 1;
  }
  return chars;
}

/**
 * Where a chunk ends inside an SGR sequence (a pty read can cut one in two): the index of that
 * last ESC when everything after it could still become one ("\x1b", "\x1b[", "\x1b[38;5"), else -1.
 */
export function cutSgrAt(text: string): number {
  const at = text.lastIndexOf("\x1b");
  if (at === -1) return -1;
  if (at + 1 < text.length && text.charCodeAt(at + 1) !== OPEN_BRACKET) return -1;
  for (let i = at + 2; i < text.length; i++) if (!isParameter(text.charCodeAt(i))) return -1;
  return at;
}

/**
 * Whether an SGR sequence sets every attribute back to its default before anything else: its first
 * parameter is 0 or empty (ESC [ m, ESC [ 0 m, ESC [ 0 ; 31 m). Nothing set before it survives it.
 */
export function resetsAll(sequence: string): boolean {
  for (let i = 2; i < sequence.length; i++) {
    const c = sequence.charCodeAt(i);
    if (c === 0x3b || c === FINAL_M) return true;
    if (c !== 0x30) return false;
  }
  return false;
}

/**
 * Hands the complete SGR sequences of text[from, end) to `take`, last first, until it returns true
 * (then returns true). Going backwards lets a caller that wants what a stretch left set stop at the
 * last full reset instead of reading every colour of a flood.
 */
export function sgrsBackwards(text: string, from: number, end: number, take: (sequence: string) => boolean): boolean {
  if (end <= from) return false;
  for (let at = text.lastIndexOf("\x1b", end - 1); at !== -1 && at >= from; at = at > 0 ? text.lastIndexOf("\x1b", at - 1) : -1) {
    const after = sgrEnd(text, at, end);
    if (after !== -1 && take(text.slice(at, after))) return true;
  }
  return false;
}
