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

/** The 16 base colours follow the person's terminal theme; prefer them over the 256-colour cube. */
export const Color = {
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
