// Runtime patch: replaces blessed's Screen.draw with a frame writer that
// - keeps a wide grapheme and the empty cell after it together, so a changed emoji never shifts
//   the rest of its row (blessed's own table thinks 🚀 is one column);
// - after a grapheme of several code points (where terminals disagree on the width) moves the
//   cursor to the column it must be in, so the right border stays put whatever the terminal did;
// - writes italic, strikethrough and dim, which blessed's attributes cannot express, and a job's
//   24-bit colours, blink, overline and underline styles (cell-extras.ts) as far as the terminal
//   shows them (24-bit colour rounded to 256 otherwise);
// - keeps the columns a job's emulator gave a grapheme (a wide one it counts narrow stays wide);
// - always sends Unicode box drawing (no ACS switching), for a UTF-8 terminal;
// - on an 8-colour terminal (TERM=linux) draws grey as white: reduced the usual way it is black,
//   and borders and hints vanish on the console's black;
// - without colours (NO_COLOR) keeps bold, underline and reverse, and draws a background colour
//   (a selection, the status line) as reverse video, so what stood out still does;
// - resolves pitwall's own colours for the theme (screen/palette.ts); a theme learned after the
//   first frame repaints every cell.
import type { Widgets } from "blessed";
import { screenInternals, type CellRow, type ScreenInternals } from "../blessed-internals.js";
import { blessedColors } from "../blessed-parts.js";
import { Flag } from "../../text/styled-text.js";
import { extrasSgr, type ExtraCapabilities } from "../cell-extras.js";
import { resolveColor, type Theme } from "../palette.js";
import { graphemeWidth } from "../../text/text-width.js";

const sgrCache = new Map<number, string>();
const { reduce: reduceColor } = blessedColors;

/** `colors` for a terminal drawn without colours (NO_COLOR). */
export const MONOCHROME = 1;

function colorCode(color: number, base: number, colors: number, theme: Theme): string {
  const resolved = resolveColor(color, theme, colors);
  const c = colors >= 256 ? resolved : colors <= 8 && resolved === 8 ? 7 : reduceColor(resolved, colors);
  if (c < 8) return `${base + c}`;
  if (c < 16) return `${base + 60 + c - 8}`;
  return `${base + 8};5;${c}`;
}

/** The SGR sequence that sets exactly this attribute (starting from a reset). */
export function sgrFor(attr: number, colors = 256, theme: Theme = "dark"): string {
  const key = (attr * 4 + (colors >= 256 ? 3 : colors >= 16 ? 2 : colors > MONOCHROME ? 1 : 0)) * 2 + (theme === "light" ? 1 : 0);
  let s = sgrCache.get(key);
  if (s !== undefined) return s;
  const flags = (attr >> 18) & 0x1ff;
  const fg = (attr >> 9) & 0x1ff;
  const bg = attr & 0x1ff;
  s = "\x1b[0";
  if (flags & Flag.bold) s += ";1";
  if (flags & Flag.dim) s += ";2";
  if (flags & Flag.italic) s += ";3";
  if (flags & Flag.underline) s += ";4";
  if (colors <= MONOCHROME) {
    if (flags & Flag.inverse || bg !== 0x1ff) s += ";7";
  } else if (flags & Flag.inverse) s += ";7";
  if (flags & Flag.strike) s += ";9";
  if (colors > MONOCHROME) {
    if (fg !== 0x1ff) s += `;${colorCode(fg, 30, colors, theme)}`;
    if (bg !== 0x1ff) s += `;${colorCode(bg, 40, colors, theme)}`;
  }
  s += "m";
  sgrCache.set(key, s);
  return s;
}

function cellWidth(ch: string): number {
  if (ch.length === 1) {
    const code = ch.charCodeAt(0);
    if (code >= 0x20 && code < 0x7f) return 1;
  }
  return graphemeWidth(ch) === 2 ? 2 : 1;
}

/** Several code points (combining marks, flags): the terminal may count them differently. */
function needsCursorFix(ch: string): boolean {
  return ch.length > 2 || (ch.length === 2 && !(ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) <= 0xdbff));
}

const EXTRAS = Flag.extras << 18;
const extrasCache = new Map<string, string>();

/** The SGR sequence for a cell whose attribute has Flag.extras (cell-extras.ts), as the terminal can show it. */
function sgrForExtras(attr: number, extras: string, colors: number, can: ExtraCapabilities, theme: Theme): string {
  const key = `${attr}|${extras}|${colors}|${can.truecolor ? 1 : 0}${can.styledUnderline ? 1 : 0}|${theme}`;
  let s = extrasCache.get(key);
  if (s === undefined) {
    s = extrasSgr(attr, extras, (a) => sgrFor(a, colors, theme), colors > MONOCHROME, can);
    if (extrasCache.size > 4096) extrasCache.clear();
    extrasCache.set(key, s);
  }
  return s;
}

/** What the terminal is written for: its colours (MONOCHROME without), what it shows beyond them, its background. */
export interface DrawTarget extends Partial<ExtraCapabilities> {
  colors: number;
  theme?: Theme;
}

/** The bytes that bring the terminal from `olines` to `lines` for rows start..end; updates `olines`. */
export function diffRows(s: ScreenInternals, start: number, end: number, target: number | DrawTarget = s.tput.colors): string {
  const colors = typeof target === "number" ? target : target.colors;
  const can: ExtraCapabilities = typeof target === "number" ? { truecolor: false, styledUnderline: false } : { truecolor: target.truecolor === true, styledUnderline: target.styledUnderline === true };
  const theme: Theme = typeof target === "number" ? "dark" : (target.theme ?? "dark");
  let out = "";
  // The style last written: its attribute and extras, and its SGR sequence.
  let attr = -1;
  let attrExtras: string | undefined;
  let sgr = "";
  for (let y = start; y <= end; y++) {
    const line: CellRow | undefined = s.lines[y];
    const old: CellRow | undefined = s.olines[y];
    if (!line || !old || !line.dirty) continue;
    line.dirty = false;
    let cursorX = -1;
    const n = line.length;
    for (let x = 0; x < n; ) {
      const cell = line[x]!;
      let ch = cell[1];
      const measured = ch === "" ? 1 : cellWidth(ch);
      const wideInGrid = ch !== "" && x + 1 < n && line[x + 1]![1] === "";
      let w = measured;
      // Where terminals may count the columns differently, the cursor is put where the next cell goes.
      let unsure = needsCursorFix(ch);
      if (w === 2 && !wideInGrid) {
        // The right half was painted over (or there is no room): show a space instead.
        w = 1;
        ch = " ";
        unsure = false;
      } else if (w === 1 && wideInGrid) {
        // A job's emulator counted it wide where our table does not: it keeps both columns.
        w = 2;
        unsure = true;
      }
      const extras = (cell[0] & EXTRAS) !== 0 ? cell[2] : undefined;
      const o = old[x]!;
      const same = o[0] === cell[0] && o[1] === ch && (extras === undefined || o[2] === extras) && (w === 1 || (old[x + 1]![0] === line[x + 1]![0] && old[x + 1]![1] === ""));
      if (same) {
        x += w;
        continue;
      }
      if (cursorX !== x) out += `\x1b[${y + 1};${x + 1}H`;
      if (cell[0] !== attr || extras !== attrExtras) {
        attr = cell[0];
        attrExtras = extras;
        const cellSgr = extras === undefined ? sgrFor(attr, colors, theme) : sgrForExtras(attr, extras, colors, can, theme);
        if (cellSgr !== sgr) {
          out += cellSgr;
          sgr = cellSgr;
        }
      }
      // Both columns blank first: a terminal that draws it narrow leaves the second one clean.
      if (w === 2 && measured === 1) out += `  \x1b[${x + 1}G`;
      out += ch === "" ? " " : ch;
      o[0] = cell[0];
      o[1] = ch;
      if (extras !== undefined) o[2] = extras;
      if (w === 2) {
        const o2 = old[x + 1]!;
        o2[0] = line[x + 1]![0];
        o2[1] = "";
        // Writing over the left half of an old wide character erased its right half too.
        const o3 = old[x + 2];
        if (o3 && o3[1] === "") o3[1] = "\0";
      }
      x += w;
      cursorX = x;
      if (unsure && x < n) out += `\x1b[${x + 1}G`;
    }
  }
  if (out) out += "\x1b[0m";
  return out;
}

export interface DiffDrawOptions extends Partial<ExtraCapabilities> {
  monochrome?: boolean;
  /** The theme of the first frame (FrameWriter.setTheme changes it). */
  theme?: Theme;
}

/** What the frame writer can be told after it is installed. */
export interface FrameWriter {
  readonly theme: Theme;
  /** Draws pitwall's colours for this theme from the next frame on (every cell is written again). */
  setTheme(theme: Theme): void;
}

const drawOptions = new WeakMap<Widgets.Screen, DiffDrawOptions>();
const writers = new WeakMap<Widgets.Screen, FrameWriter>();

/** The frame writer installed on a screen (createScreen installs one). */
export function frameWriter(screen: Widgets.Screen): FrameWriter | undefined {
  return writers.get(screen);
}

export function installDiffDraw(screen: Widgets.Screen, options: DiffDrawOptions = {}): FrameWriter {
  const s = screenInternals(screen);
  const own = { ...options };
  drawOptions.set(screen, own);
  s.draw = (start: number, end: number): void => {
    const out = diffRows(s, start, end, { colors: own.monochrome ? MONOCHROME : s.tput.colors, truecolor: own.truecolor, styledUnderline: own.styledUnderline, theme: own.theme });
    if (out) s.program._write(out);
  };
  const writer: FrameWriter = {
    get theme() {
      return own.theme ?? "dark";
    },
    setTheme(next: Theme): void {
      if (next === (own.theme ?? "dark")) return;
      own.theme = next;
      // The cells did not change, their colours did: forget what the terminal shows.
      for (const row of s.olines) for (const cell of row) cell[0] = -1;
      for (const row of s.lines) row.dirty = true;
    },
  };
  writers.set(screen, writer);
  return writer;
}

/**
 * What the terminal was found to show after the screen was made (a reply to a query). Returns true
 * when that changed something: the screen must then be drawn again whole.
 */
export function updateDrawCapabilities(screen: Widgets.Screen, can: Partial<ExtraCapabilities>): boolean {
  const own = drawOptions.get(screen);
  if (!own) return false;
  let changed = false;
  for (const key of ["truecolor", "styledUnderline"] as const) {
    if (can[key] !== undefined && can[key] !== (own[key] === true)) {
      own[key] = can[key];
      changed = true;
    }
  }
  return changed;
}
