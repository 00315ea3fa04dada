// Styled text as the panes keep it: a line is a list of spans, each a run of text with one cell
// attribute. The attribute is blessed's cell number (flags << 18 | fg << 9 | bg), extended with
// italic, strikethrough and dim, which pitwall's own frame writer (blessed-patches/diff-draw.ts)
// knows how to send; blessed's widgets never set those bits.

export interface Span {
  text: string;
  attr: number;
}
export type StyledLine = Span[];

/** The terminal's default colour. */
export const DEFAULT_COLOR = 0x1ff;

/**
 * A program's colours (a job's output, a command's SGR) as it sent them: the terminal's own palette
 * index, 0–255, shown as the program asked.
 */
export const Palette = {
  black: 0,
  red: 1,
  green: 2,
  yellow: 3,
  blue: 4,
  magenta: 5,
  cyan: 6,
  white: 7,
  grey: 8,
  brightRed: 9,
  brightGreen: 10,
  brightYellow: 11,
  brightBlue: 12,
  brightMagenta: 13,
  brightCyan: 14,
  brightWhite: 15,
} as const;

/** Where pitwall's own colours start in an attribute's 9-bit colour (0–255 are a program's). */
export const UI_COLOR_BASE = 256;

/**
 * pitwall's own colours, named by the 16 base colours, plus the selection's and the status line's
 * backgrounds. The frame writer resolves them when it writes (screen/palette.ts): on a dark
 * terminal each is that base colour of the person's own theme; on a light one the shades that would
 * vanish on white (yellow, cyan, green) are drawn darker. Resolving at write time lets the theme
 * change after the first frame (the terminal's answer to the background query comes later).
 */
export const Color = {
  black: UI_COLOR_BASE + Palette.black,
  red: UI_COLOR_BASE + Palette.red,
  green: UI_COLOR_BASE + Palette.green,
  yellow: UI_COLOR_BASE + Palette.yellow,
  blue: UI_COLOR_BASE + Palette.blue,
  magenta: UI_COLOR_BASE + Palette.magenta,
  cyan: UI_COLOR_BASE + Palette.cyan,
  white: UI_COLOR_BASE + Palette.white,
  grey: UI_COLOR_BASE + Palette.grey,
  brightRed: UI_COLOR_BASE + Palette.brightRed,
  brightGreen: UI_COLOR_BASE + Palette.brightGreen,
  brightYellow: UI_COLOR_BASE + Palette.brightYellow,
  brightBlue: UI_COLOR_BASE + Palette.brightBlue,
  brightMagenta: UI_COLOR_BASE + Palette.brightMagenta,
  brightCyan: UI_COLOR_BASE + Palette.brightCyan,
  brightWhite: UI_COLOR_BASE + Palette.brightWhite,
  /** A selected row's background: a neutral grey a shade off the terminal's background. */
  selection: UI_COLOR_BASE + 16,
  /** The status line's background: a faint grey, never a black stripe on a light terminal. */
  bar: UI_COLOR_BASE + 17,
} as const;

/** Base colours of a program's palette (0–15) as pitwall's own: highlighted code follows the theme. */
export function asUiColors(a: number): number {
  const fg = fgOf(a);
  const bg = bgOf(a);
  return withStyle(a, { fg: fg < 16 ? UI_COLOR_BASE + fg : fg, bg: bg < 16 ? UI_COLOR_BASE + bg : bg });
}

export const Flag = {
  bold: 1,
  underline: 2,
  italic: 4,
  inverse: 8,
  strike: 16,
  dim: 32,
  /** The cell carries more than this number holds: 24-bit colours, rarer styles (screen/cell-extras.ts). */
  extras: 256,
} as const;

export interface Style {
  fg?: number;
  bg?: number;
  bold?: boolean;
  underline?: boolean;
  italic?: boolean;
  inverse?: boolean;
  strike?: boolean;
  dim?: boolean;
}

export function attr(style: Style = {}): number {
  let flags = 0;
  if (style.bold) flags |= Flag.bold;
  if (style.underline) flags |= Flag.underline;
  if (style.italic) flags |= Flag.italic;
  if (style.inverse) flags |= Flag.inverse;
  if (style.strike) flags |= Flag.strike;
  if (style.dim) flags |= Flag.dim;
  return (flags << 18) | ((style.fg ?? DEFAULT_COLOR) << 9) | (style.bg ?? DEFAULT_COLOR);
}

export const PLAIN = attr();

export function fgOf(a: number): number {
  return (a >> 9) & 0x1ff;
}
export function bgOf(a: number): number {
  return a & 0x1ff;
}
export function flagsOf(a: number): number {
  return (a >> 18) & 0x1ff;
}

/** The same attribute with some parts replaced. */
export function withStyle(a: number, style: Style): number {
  let flags = flagsOf(a);
  const set = (flag: number, on: boolean | undefined): void => {
    if (on === true) flags |= flag;
    else if (on === false) flags &= ~flag;
  };
  set(Flag.bold, style.bold);
  set(Flag.underline, style.underline);
  set(Flag.italic, style.italic);
  set(Flag.inverse, style.inverse);
  set(Flag.strike, style.strike);
  set(Flag.dim, style.dim);
  return (flags << 18) | ((style.fg ?? fgOf(a)) << 9) | (style.bg ?? bgOf(a));
}

export function lineText(l: StyledLine): string {
  let s = "";
  for (const sp of l) s += sp.text;
  return s;
}
