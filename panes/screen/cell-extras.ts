// What a cell of the screen's grid may carry beyond blessed's attribute number, which holds only
// 256-colour indexes and a few styles: 24-bit colours, blink, overline and an underline's style
// (double, curly, dotted, dashed). Only the job terminal paints such cells, because a job's program
// asked for them. They ride in the cell's third slot as one short string, compared by value, and
// count only while the attribute has Flag.extras (blessed's own drawing never sets it, so a cell
// blessed paints over loses them). The attribute itself keeps the 256-colour form, which is what a
// terminal without 24-bit colour is sent. The frame writer (blessed-patches/diff-draw.ts) turns
// them into SGR as the outer terminal can show them (outer-terminal.ts).
import { DEFAULT_COLOR, Flag, flagsOf, withStyle } from "../text/styled-text.js";

export interface CellExtras {
  /** 24-bit colours, 0xRRGGBB. */
  fg?: number;
  bg?: number;
  blink?: boolean;
  overline?: boolean;
  /** SGR 4's sub-parameter: 2 double, 3 curly, 4 dotted, 5 dashed (1 or absent: a plain underline). */
  underlineStyle?: number;
}

/** What the outer terminal draws beyond xterm-256color's basics (outer-terminal.ts finds out). */
export interface ExtraCapabilities {
  /** 24-bit colour (`38;2;r;g;b`); otherwise the 256-colour form is sent. */
  truecolor: boolean;
  /** Underline styles as sub-parameters (`4:3`); otherwise a plain underline. */
  styledUnderline: boolean;
}

const NONE: ExtraCapabilities = { truecolor: false, styledUnderline: false };

function hex(rgb: number | undefined): string {
  return rgb === undefined ? "" : rgb.toString(16).padStart(6, "0");
}

/** The string a cell carries for these extras, or undefined when there is nothing beyond the attribute. */
export function extrasKey(extras: CellExtras): string | undefined {
  const style = (extras.blink ? 1 : 0) | (extras.overline ? 2 : 0) | ((extras.underlineStyle ?? 0) > 1 ? extras.underlineStyle! << 2 : 0);
  if (extras.fg === undefined && extras.bg === undefined && style === 0) return undefined;
  return `${hex(extras.fg)}/${hex(extras.bg)}/${style}`;
}

export function parseExtras(key: string): CellExtras {
  const [fg = "", bg = "", style = "0"] = key.split("/");
  const bits = Number.parseInt(style, 10) || 0;
  return {
    ...(fg ? { fg: Number.parseInt(fg, 16) } : {}),
    ...(bg ? { bg: Number.parseInt(bg, 16) } : {}),
    ...(bits & 1 ? { blink: true } : {}),
    ...(bits & 2 ? { overline: true } : {}),
    ...(bits >> 2 > 1 ? { underlineStyle: bits >> 2 } : {}),
  };
}

function rgbParams(base: 38 | 48, rgb: number): string {
  return `${base};2;${(rgb >> 16) & 0xff};${(rgb >> 8) & 0xff};${rgb & 0xff}`;
}

/**
 * The SGR sequence for a cell with extras: `sgrFor` of its attribute (what every cell gets, in
 * the terminal's colours) with the 24-bit colours and the styles it can show put in. `colours` is
 * false for a terminal drawn without colours (NO_COLOR): the styles still go.
 */
export function extrasSgr(attr: number, key: string, sgrFor: (attr: number) => string, colours: boolean, can: ExtraCapabilities = NONE): string {
  const extras = parseExtras(key);
  let a = attr & ~(Flag.extras << 18);
  const params: string[] = [];
  if (colours && can.truecolor) {
    if (extras.fg !== undefined) {
      a = withStyle(a, { fg: DEFAULT_COLOR });
      params.push(rgbParams(38, extras.fg));
    }
    if (extras.bg !== undefined) {
      a = withStyle(a, { bg: DEFAULT_COLOR });
      params.push(rgbParams(48, extras.bg));
    }
  }
  if (can.styledUnderline && extras.underlineStyle !== undefined && (flagsOf(a) & Flag.underline) !== 0) {
    a = withStyle(a, { underline: false });
    params.push(`4:${extras.underlineStyle}`);
  }
  if (extras.blink) params.push("5");
  if (extras.overline) params.push("53");
  const base = sgrFor(a);
  return params.length === 0 ? base : `${base.slice(0, -1)};${params.join(";")}m`;
}
