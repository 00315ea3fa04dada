// Key names as keymap files write them, checked and put in the one spelling the key decoder
// produces (key.ts): modifiers in the order ctrl, alt, shift, lower case; named keys lower case;
// Shift with a printable key written as the character itself ("shift+x" is "X").
import { knownKey, type Key } from "./key.js";

const NAMED = new Set([
  "enter", "escape", "tab", "backspace", "delete", "insert", "space",
  "up", "down", "left", "right", "home", "end", "pageup", "pagedown", "clear",
  ...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
]);

const ALIASES: Record<string, string> = {
  return: "enter", esc: "escape", del: "delete", ins: "insert", pgup: "pageup", pgdn: "pagedown",
  pagedn: "pagedown", bs: "backspace", arrowup: "up", arrowdown: "down", arrowleft: "left", arrowright: "right",
};

const MODIFIERS: Record<string, "ctrl" | "alt" | "shift"> = {
  ctrl: "ctrl", control: "ctrl", c: "ctrl", alt: "alt", meta: "alt", option: "alt", opt: "alt", m: "alt", shift: "shift", s: "shift",
};

/** The canonical name of a key, or undefined when it is not a key pitwall can recognise. */
export function canonicalKeyName(raw: string): Key | undefined {
  const text = raw.trim();
  if (text === "") return undefined;
  if ([...text].length === 1) return knownKey(text === " " ? "space" : text);
  // "+" itself can be the key: "ctrl++".
  const parts = text.endsWith("++") ? [...text.slice(0, -2).split("+"), "+"] : text.split(/[+-](?=.)/);
  let ctrl = false;
  let alt = false;
  let shift = false;
  for (const m of parts.slice(0, -1)) {
    const mod = MODIFIERS[m.toLowerCase()];
    if (!mod) return undefined;
    if (mod === "ctrl") ctrl = true;
    else if (mod === "alt") alt = true;
    else shift = true;
  }
  let base = parts[parts.length - 1]!;
  if ([...base].length === 1) {
    if (shift) {
      base = base.toUpperCase();
      shift = false;
    }
    if (ctrl && /^[A-Z]$/.test(base) && !parts.slice(0, -1).some((m) => MODIFIERS[m.toLowerCase()] === "shift")) base = base.toLowerCase();
    if (base === " ") base = "space";
  } else {
    base = base.toLowerCase();
    base = ALIASES[base] ?? base;
    if (!NAMED.has(base)) return undefined;
  }
  return knownKey(`${ctrl ? "ctrl+" : ""}${alt ? "alt+" : ""}${shift ? "shift+" : ""}${base}`);
}

/** A key name that must be valid (a test's, a built-in one): its Key, or an error naming it. */
export function key(name: string): Key {
  const canonical = canonicalKeyName(name);
  if (canonical === undefined) throw new Error(`"${name}" is not a key name`);
  return canonical;
}

const SHOWN: Record<string, string> = { pageup: "PgUp", pagedown: "PgDn", escape: "Esc", space: "Space" };

/** How a key is shown to a person: "Ctrl+C", "Ctrl+Shift+X", "Alt+Enter", "F1", "x", "X", "?". */
export function displayKeyName(name: Key): string {
  const parts = name.split(/\+(?=.)/);
  const base = parts.pop()!;
  if (parts.length === 0) return SHOWN[base] ?? (base.length === 1 ? base : base[0]!.toUpperCase() + base.slice(1));
  const mods = parts.map((m) => m[0]!.toUpperCase() + m.slice(1));
  // With a modifier, a letter is shown upper case; an upper-case letter means Shift was held too.
  if (base.length === 1 && /[A-Z]/.test(base)) mods.push("Shift");
  const key = base.length === 1 ? base.toUpperCase() : (SHOWN[base] ?? base[0]!.toUpperCase() + base.slice(1));
  return [...mods, key].join("+");
}
