// The terminal modes the dashboard turns on, and turns off again however it ends (quit, crash,
// signal) or while it is suspended (Ctrl+Z): raw keyboard input, bracketed paste, the kitty
// keyboard protocol and xterm's modifyOtherKeys (so Shift+Enter is a key of its own), xterm's
// metaSendsEscape (so Alt+1 arrives as Esc 1, not as "±"), focus reporting (DECSET 1004: whether
// the person is looking, for notifications), and SGR mouse reporting without motion when --mouse
// asks for it. Terminals that know none of these ignore them.
//
// metaSendsEscape is saved first and restored at the end (XTSAVE / XTRESTORE, CSI ? 1036 s / r),
// so an xterm whose person turned it off gets it back off. tmux ignores all three sequences (it
// reads Alt from the outer terminal itself).

const ENABLE_PASTE = "\x1b[?2004h";
const DISABLE_PASTE = "\x1b[?2004l";
const PUSH_KITTY_KEYS = "\x1b[>1u";
const POP_KITTY_KEYS = "\x1b[<u";
const MODIFY_OTHER_KEYS = "\x1b[>4;1m";
const RESET_MODIFY_OTHER_KEYS = "\x1b[>4;0m";
const SAVE_META_SENDS_ESCAPE = "\x1b[?1036s";
const META_SENDS_ESCAPE = "\x1b[?1036h";
const RESTORE_META_SENDS_ESCAPE = "\x1b[?1036r";
/** Focus reporting: the terminal sends CSI I when it gains focus and CSI O when it loses it. */
const ENABLE_FOCUS = "\x1b[?1004h";
const DISABLE_FOCUS = "\x1b[?1004l";
const ENABLE_MOUSE = "\x1b[?1000h\x1b[?1006h";
const DISABLE_MOUSE = "\x1b[?1000l\x1b[?1006l";

export interface TerminalModes {
  /** Turns everything off for a while (Ctrl+Z): the shell gets the terminal as it was. */
  suspend(): void;
  /** Turns everything on again after a suspend. */
  resume(): void;
  /** Turns everything back off for good; safe to call more than once. */
  restore(): void;
}

/** The bytes that turn the modes on, and off again. */
export function modeSequences(mouse: boolean): { on: string; off: string } {
  return {
    on: ENABLE_PASTE + PUSH_KITTY_KEYS + MODIFY_OTHER_KEYS + SAVE_META_SENDS_ESCAPE + META_SENDS_ESCAPE + ENABLE_FOCUS + (mouse ? ENABLE_MOUSE : ""),
    off: DISABLE_PASTE + POP_KITTY_KEYS + RESET_MODIFY_OTHER_KEYS + RESTORE_META_SENDS_ESCAPE + DISABLE_FOCUS + (mouse ? DISABLE_MOUSE : ""),
  };
}

export function enableTerminalModes(options: { input: NodeJS.ReadStream; output: NodeJS.WriteStream; mouse: boolean }): TerminalModes {
  const { input, output } = options;
  const sequences = modeSequences(options.mouse);
  const on = (): void => {
    if (input.isTTY) input.setRawMode(true);
    input.setEncoding("utf8");
    input.resume();
    output.write(sequences.on);
  };
  const off = (): void => {
    try {
      output.write(sequences.off);
      if (input.isTTY) input.setRawMode(false);
      input.pause();
    } catch {
      // The terminal is gone (SIGHUP): nothing left to restore.
    }
  };
  on();
  let restored = false;
  let suspended = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    if (!suspended) off();
  };
  process.once("exit", restore);
  return {
    suspend: () => {
      if (restored || suspended) return;
      suspended = true;
      off();
    },
    resume: () => {
      if (restored || !suspended) return;
      suspended = false;
      on();
    },
    restore,
  };
}
