// What a terminal would send a program for a key, so an attached job gets the bytes it expects.
// pitwall's own terminal speaks the kitty keyboard protocol and modifyOtherKeys to pitwall, which
// programs in a job mostly do not understand: keys are decoded (key-decoder.ts) and encoded
// again here in the classic xterm form, following the job's own modes (application cursor keys,
// bracketed paste) as its emulator has recorded them.
import type { Key } from "./key.js";

export interface PtyModes {
  /** DECCKM: arrows as ESC O A instead of ESC [ A (vim, less, readline in some modes). */
  applicationCursorKeys: boolean;
  /** The program asked for pasted text between ESC[200~ and ESC[201~. */
  bracketedPaste: boolean;
}

const PLAIN_MODES: PtyModes = { applicationCursorKeys: false, bracketedPaste: false };

const CURSOR: Record<string, string> = { up: "A", down: "B", right: "C", left: "D", home: "H", end: "F" };
const TILDE: Record<string, number> = {
  insert: 2, delete: 3, pageup: 5, pagedown: 6,
  f5: 15, f6: 17, f7: 18, f8: 19, f9: 20, f10: 21, f11: 23, f12: 24,
};
const SS3_FUNCTION: Record<string, string> = { f1: "P", f2: "Q", f3: "R", f4: "S" };
const SIMPLE: Record<string, string> = { enter: "\r", tab: "\t", backspace: "\x7f", escape: "\x1b", space: " " };
const CONTROL_PUNCTUATION: Record<string, string> = { "@": "\x00", "[": "\x1b", "\\": "\x1c", "]": "\x1d", "^": "\x1e", _: "\x1f", "?": "\x7f", space: "\x00" };

interface Parsed {
  ctrl: boolean;
  alt: boolean;
  shift: boolean;
  base: string;
}

function parse(name: string): Parsed {
  const parts = name.split(/\+(?=.)/);
  const base = parts.pop()!;
  return { ctrl: parts.includes("ctrl"), alt: parts.includes("alt"), shift: parts.includes("shift"), base };
}

/** xterm's modifier parameter: 1 + shift + 2·alt + 4·ctrl. */
function modifierParam(p: Parsed): number {
  return 1 + (p.shift ? 1 : 0) + (p.alt ? 2 : 0) + (p.ctrl ? 4 : 0);
}

/**
 * The bytes for a key name as the key decoder spells it ("enter", "ctrl+c", "alt+x", "shift+tab",
 * "up", "f5", "X"), or undefined for a key a terminal would not send to a program.
 */
export function encodeKey(name: Key, modes: PtyModes = PLAIN_MODES): string | undefined {
  const p = parse(name);
  const mod = modifierParam(p);
  const cursor = CURSOR[p.base];
  if (cursor !== undefined) {
    if (mod > 1) return `\x1b[1;${mod}${cursor}`;
    return modes.applicationCursorKeys ? `\x1bO${cursor}` : `\x1b[${cursor}`;
  }
  const tilde = TILDE[p.base];
  if (tilde !== undefined) return mod > 1 ? `\x1b[${tilde};${mod}~` : `\x1b[${tilde}~`;
  const ss3 = SS3_FUNCTION[p.base];
  if (ss3 !== undefined) return mod > 1 ? `\x1b[1;${mod}${ss3}` : `\x1bO${ss3}`;
  if (p.base === "tab" && p.shift && !p.ctrl) return `${p.alt ? "\x1b" : ""}\x1b[Z`;
  const alt = p.alt ? "\x1b" : "";
  if (p.ctrl) {
    const control = controlByte(p.base);
    return control === undefined ? undefined : alt + control;
  }
  const simple = SIMPLE[p.base];
  if (simple !== undefined) return alt + simple;
  // A printable character (the decoder already applied Shift to it).
  if ([...p.base].length === 1) return alt + p.base;
  return undefined;
}

function controlByte(base: string): string | undefined {
  if (/^[a-z]$/i.test(base)) return String.fromCharCode(base.toLowerCase().charCodeAt(0) - 96);
  if (base === "enter") return "\r";
  if (base === "backspace") return "\x08";
  if (base === "tab") return "\t";
  return CONTROL_PUNCTUATION[base];
}

/** Pasted text as a terminal sends it: line breaks as Enter, bracketed when the program asked. */
export function encodePaste(text: string, modes: PtyModes = PLAIN_MODES): string {
  const body = text.replace(/\r\n?|\n/g, "\r");
  return modes.bracketedPaste ? `\x1b[200~${body.replace(/\x1b\[201~/g, "")}\x1b[201~` : body;
}
