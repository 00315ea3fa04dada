// The terminal modes the dashboard turns on, and turns off again however it ends (quit, crash,
// signal): raw keyboard input, bracketed paste, the kitty keyboard protocol and xterm's
// modifyOtherKeys (so Shift+Enter is a key of its own), and SGR mouse reporting without motion
// when --mouse asks for it. Terminals that know none of these ignore them.

const ENABLE_PASTE = "\x1b[?2004h";
const DISABLE_PASTE = "\x1b[?2004l";
const PUSH_KITTY_KEYS = "\x1b[>1u";
const POP_KITTY_KEYS = "\x1b[<u";
const MODIFY_OTHER_KEYS = "\x1b[>4;1m";
const RESET_MODIFY_OTHER_KEYS = "\x1b[>4;0m";
const ENABLE_MOUSE = "\x1b[?1000h\x1b[?1006h";
const DISABLE_MOUSE = "\x1b[?1000l\x1b[?1006l";

export interface TerminalModes {
  /** Turns everything back off; safe to call more than once. */
  restore(): void;
}

export function enableTerminalModes(options: { input: NodeJS.ReadStream; output: NodeJS.WriteStream; mouse: boolean }): TerminalModes {
  const { input, output } = options;
  if (input.isTTY) input.setRawMode(true);
  input.setEncoding("utf8");
  input.resume();
  output.write(ENABLE_PASTE + PUSH_KITTY_KEYS + MODIFY_OTHER_KEYS + (options.mouse ? ENABLE_MOUSE : ""));
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    try {
      output.write(DISABLE_PASTE + POP_KITTY_KEYS + RESET_MODIFY_OTHER_KEYS + (options.mouse ? DISABLE_MOUSE : ""));
      if (input.isTTY) input.setRawMode(false);
      input.pause();
    } catch {
      // The terminal is gone (SIGHUP): nothing left to restore.
    }
  };
  process.once("exit", restore);
  return { restore };
}
