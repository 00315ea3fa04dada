// The modes of a job's emulator that its public typings do not expose but a faithful view of the
// job needs: whether the program hid its cursor (DECTCEM, `?25l`) and which shape it asked for
// (DECSCUSR), how its mouse reports are encoded (`?1006h` SGR, `?1016h` SGR pixels), and the
// style of an underline (SGR 4:2 double, 4:3 curly, …). They are read through one typed accessor
// to xterm's core; an xterm without them gives the defaults (a visible cursor of the terminal's
// shape, X10 bytes, a plain underline), and emulator-modes.test.ts fails, which is how an upgrade
// that moved them gets noticed.
import type { IBufferCell, Terminal } from "@xterm/headless";

/** Mouse reports a program asked for: none, presses (DECSET 9), presses and releases (1000), drags too (1002), any motion (1003). */
export type MouseTracking = "none" | "x10" | "vt200" | "drag" | "any";
/** How they are encoded: X10's bytes (CSI M Cb Cx Cy, the default), SGR (1006), or SGR with pixel positions (1016). */
export type MouseEncoding = "default" | "sgr" | "sgr-pixels";

export interface EmulatorModes {
  cursorVisible: boolean;
  /** DECSCUSR's parameter: 0 the terminal's own shape; 1/2 block, 3/4 underline, 5/6 bar (odd: blinking). */
  cursorShape: number;
  mouseTracking: MouseTracking;
  mouseEncoding: MouseEncoding;
}

interface XtermCore {
  coreService?: { isCursorHidden?: boolean; decPrivateModes?: { cursorStyle?: string; cursorBlink?: boolean } };
  coreMouseService?: { activeEncoding?: string };
}

function coreOf(terminal: Terminal): XtermCore | undefined {
  return (terminal as unknown as { _core?: XtermCore })._core;
}

const SHAPES: Record<string, number> = { block: 1, underline: 3, bar: 5 };
const ENCODINGS: Record<string, MouseEncoding> = { DEFAULT: "default", SGR: "sgr", SGR_PIXELS: "sgr-pixels" };

export function emulatorModes(terminal: Terminal): EmulatorModes {
  const core = coreOf(terminal);
  const private_ = core?.coreService?.decPrivateModes;
  const base = private_?.cursorStyle === undefined ? undefined : SHAPES[private_.cursorStyle];
  return {
    cursorVisible: core?.coreService?.isCursorHidden !== true,
    // A shape without its blink asked for is steady (DECSCUSR's even numbers).
    cursorShape: base === undefined ? 0 : base + (private_?.cursorBlink === true ? 0 : 1),
    mouseTracking: terminal.modes.mouseTrackingMode,
    mouseEncoding: ENCODINGS[core?.coreMouseService?.activeEncoding ?? "DEFAULT"] ?? "default",
  };
}

/** A cell's underline style as SGR 4's sub-parameter: 1 single, 2 double, 3 curly, 4 dotted, 5 dashed (0: none). */
export function underlineStyle(cell: IBufferCell): number {
  if (!cell.isUnderline()) return 0;
  const style = (cell as unknown as { extended?: { underlineStyle?: number } }).extended?.underlineStyle;
  return typeof style === "number" && style >= 1 && style <= 5 ? style : 1;
}
