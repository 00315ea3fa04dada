// The terminal modes the dashboard turns on, and turns off again however it ends (quit, crash,
// signal) or while it is suspended (Ctrl+Z): raw keyboard input, bracketed paste, the kitty
// keyboard protocol and xterm's modifyOtherKeys (so Shift+Enter is a key of its own), xterm's
// metaSendsEscape (so Alt+1 arrives as Esc 1, not as "±"), focus reporting (DECSET 1004: whether
// the person is looking, for notifications), and SGR mouse reporting without motion when --mouse
// asks for it, or more while a job in front asked for it (setMouse). Terminals that know none of
// these ignore them.
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
/**
 * Mouse reports asked of the terminal, always in SGR (1006): none; presses, releases and the wheel
 * (1000: --mouse, or a job that asked for as much); drags too (1002); any motion (1003).
 */
export type MouseLevel = "off" | "buttons" | "drag" | "any";
const MOUSE_MODE: Record<Exclude<MouseLevel, "off">, number> = { buttons: 1000, drag: 1002, any: 1003 };

/** The bytes that turn mouse reports on at `level` (nothing for off). */
function mouseOn(level: MouseLevel): string {
  return level === "off" ? "" : `\x1b[?${MOUSE_MODE[level]}h\x1b[?1006h`;
}

/** The bytes that turn mouse reports at `level` off again (nothing for off). */
function mouseOff(level: MouseLevel): string {
  return level === "off" ? "" : `\x1b[?${MOUSE_MODE[level]}l\x1b[?1006l`;
}

export interface TerminalModes {
  /** Turns everything off for a while (Ctrl+Z): the shell gets the terminal as it was. */
  suspend(): void;
  /** Turns everything on again after a suspend. */
  resume(): void;
  /** Turns everything back off for good; safe to call more than once. */
  restore(): void;
  /**
   * The mouse reports wanted now (a job in front asked for them, job-mouse.ts); never less than
   * --mouse asks for. Written at once unless suspended.
   */
  setMouse(level: MouseLevel): void;
}

/** The bytes that turn the modes on, and off again (mouse reports at `mouse`). */
export function modeSequences(mouse: boolean | MouseLevel): { on: string; off: string } {
  const level: MouseLevel = mouse === true ? "buttons" : mouse === false ? "off" : mouse;
  return {
    on: ENABLE_PASTE + PUSH_KITTY_KEYS + MODIFY_OTHER_KEYS + SAVE_META_SENDS_ESCAPE + META_SENDS_ESCAPE + ENABLE_FOCUS + mouseOn(level),
    off: DISABLE_PASTE + POP_KITTY_KEYS + RESET_MODIFY_OTHER_KEYS + RESTORE_META_SENDS_ESCAPE + DISABLE_FOCUS + mouseOff(level),
  };
}

const LEVELS: MouseLevel[] = ["off", "buttons", "drag", "any"];

export function enableTerminalModes(options: { input: NodeJS.ReadStream; output: NodeJS.WriteStream; mouse: boolean }): TerminalModes {
  const { input, output } = options;
  const base: MouseLevel = options.mouse ? "buttons" : "off";
  let level: MouseLevel = base;
  const on = (): void => {
    if (input.isTTY) input.setRawMode(true);
    input.setEncoding("utf8");
    input.resume();
    output.write(modeSequences(level).on);
  };
  const off = (): void => {
    try {
      output.write(modeSequences(level).off);
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
    setMouse: (wanted) => {
      const next = LEVELS[Math.max(LEVELS.indexOf(base), LEVELS.indexOf(wanted))]!;
      if (next === level || restored) return;
      const previous = level;
      level = next;
      if (suspended) return;
      try {
        output.write(mouseOff(previous) + mouseOn(next));
      } catch {
        // The terminal is gone (SIGHUP).
      }
    },
  };
}
