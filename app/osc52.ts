// Copying to the person's clipboard through their terminal (OSC 52), which works over SSH and
// inside tmux without any clipboard program. Inside tmux the sequence is sent twice: as is (tmux
// takes it when `set-clipboard` is on) and wrapped in tmux's passthrough (the outer terminal gets
// it when `allow-passthrough` is on). Each way is ignored when its option is off, and setting the
// clipboard twice to the same text is harmless, so no tmux option has to be read.

/** Terminals and tmux refuse very long sequences; what is copied is cut to this many bytes (its end kept). */
export const OSC52_MAX_BYTES = 512 * 1024;

export interface ClipboardPayload {
  /** The escape sequence(s) to write to the terminal. */
  sequence: string;
  /** Bytes of text copied (after any cut). */
  bytes: number;
  /** True when the text was longer than OSC52_MAX_BYTES and only its end was copied. */
  cut: boolean;
}

/** `ESC ] 52 ; c ; <base64> BEL`, and inside tmux also the passthrough form. */
export function osc52(text: string, options: { tmux?: boolean; maxBytes?: number } = {}): ClipboardPayload {
  const max = options.maxBytes ?? OSC52_MAX_BYTES;
  let bytes = Buffer.from(text, "utf8");
  const cut = bytes.length > max;
  if (cut) {
    bytes = bytes.subarray(bytes.length - max);
    // Do not start in the middle of a UTF-8 character.
    let start = 0;
    while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
    bytes = bytes.subarray(start);
  }
  const plain = `\x1b]52;c;${bytes.toString("base64")}\x07`;
  // tmux passthrough: DCS tmux; <sequence with each ESC doubled> ST.
  const wrapped = options.tmux ? `\x1bPtmux;${plain.replace(/\x1b/g, "\x1b\x1b")}\x1b\\` : "";
  return { sequence: plain + wrapped, bytes: bytes.length, cut };
}
