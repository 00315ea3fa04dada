// One name for a key, shared by the decoder (what the terminal sent), the keymap (what a binding
// says) and the pty encoder (what an attached job receives): modifiers in the order ctrl, alt,
// shift, lower case; named keys lower case ("enter", "pageup", "f5"); a printable key as the
// character itself, Shift already applied ("X", "?"). A plain string is not a Key: it becomes one
// through canonicalKeyName (key-names.ts), which checks it, or through the decoder.

declare const keyBrand: unique symbol;

export type Key = string & { readonly [keyBrand]: true };

/**
 * A name already in the canonical spelling, as the decoder builds it. Unchecked: anything read
 * from a person (a keymap file, a test) goes through canonicalKeyName instead.
 */
export function knownKey(name: string): Key {
  return name as Key;
}

/** The key a typed character stands for: the character itself, or "space". */
export function keyOfChar(ch: string): Key {
  return knownKey(ch === " " ? "space" : ch);
}

/** The key without its Alt: "ctrl+alt+]" is "ctrl+]"; undefined for a key without Alt. */
export function withoutAlt(key: Key): Key | undefined {
  return key.includes("alt+") ? knownKey(key.replace("alt+", "")) : undefined;
}
