// What a terminal would send a program for a mouse event, so a job that asked for mouse reports
// gets them as it would in xterm (or tmux): filtered by the tracking it asked for (DECSET 9 presses
// only, 1000 presses, releases and the wheel, 1002 drags too, 1003 any motion) and in its encoding
// (X10's bytes, CSI M Cb Cx Cy, or SGR 1006, CSI < Cb ; x ; y M/m), with the job's own
// coordinates. The rules are xterm's, as the job's emulator (xterm.js's CoreMouseService) applies
// them. pitwall's terminal always reports to pitwall in SGR, whose button code has the same bits.
import type { MouseEvent } from "./key-decoder.js";
import type { MouseEncoding, MouseTracking } from "../../tools/jobs/index.js";

export interface PtyMouseModes {
  mouseTracking: MouseTracking;
  mouseEncoding: MouseEncoding;
}

const MODIFIERS = 4 | 8 | 16;

/** Whether the job's tracking reports this event at all. */
function reported(event: MouseEvent, tracking: MouseTracking): boolean {
  switch (tracking) {
    case "none":
      return false;
    case "x10":
      return event.action === "press";
    case "vt200":
      return event.action !== "motion";
    case "drag":
      // Motion only with a button held (the button bits say 3 without one).
      return event.action !== "motion" || (event.code & 3) !== 3;
    case "any":
      return true;
  }
}

/**
 * The bytes for `event` at the job's cell (`col`, `row`, from 1), or undefined when the job's
 * modes do not report it (or X10's bytes cannot hold the position: past column or row 223).
 * SGR pixels (1016) are never produced: pitwall does not know the cell size in pixels.
 */
export function encodeMouse(event: MouseEvent, col: number, row: number, modes: PtyMouseModes): string | undefined {
  if (!reported(event, modes.mouseTracking)) return undefined;
  // X10 tracking reports no modifiers.
  let code = modes.mouseTracking === "x10" ? event.code & ~MODIFIERS : event.code;
  if (modes.mouseEncoding === "sgr") return `\x1b[<${code};${col};${row}${event.action === "release" ? "m" : "M"}`;
  if (modes.mouseEncoding !== "default") return undefined;
  // X10's bytes cannot say which button was released: 3 stands for any.
  if (event.action === "release") code |= 3;
  const bytes = [code + 32, col + 32, row + 32];
  if (bytes.some((b) => b > 255)) return undefined;
  // Past column or row 95 a byte is above 127: the job's pty gets it as UTF-8, as a job in an
  // xterm.js terminal (VS Code's) does; programs that click there ask for SGR anyway.
  return `\x1b[M${String.fromCharCode(...bytes)}`;
}
