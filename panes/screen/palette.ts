// Which shade each of pitwall's own colours (styled-text.ts `Color`) gets on the person's terminal,
// chosen when the frame is written: the theme (dark or light background) and how many colours the
// terminal has. A program's colours (0–255) pass through untouched. Also how the theme is learned:
// config.json's `theme`, the terminal's answer to the background query (OSC 11), or COLORFGBG.
import { UI_COLOR_BASE } from "../text/styled-text.js";

export type Theme = "dark" | "light";

/** The selection's and the status line's backgrounds, per theme, on a 256-colour terminal. */
const SELECTION_GREY: Record<Theme, number> = { dark: 238, light: 252 };
const BAR_GREY: Record<Theme, number> = { dark: 235, light: 254 };

/**
 * On a light background: the base colours that nearly vanish on white, as darker 256-colour
 * shades (yellow #af8700, green #008700, cyan #0087af). The others read on both.
 */
const LIGHT_SHADES: Readonly<Record<number, number>> = { 2: 28, 3: 136, 6: 31, 10: 28, 11: 136, 14: 31 };

/**
 * The palette index to send for a colour of an attribute: a program's colour as it is; one of
 * pitwall's by the theme. With 16 colours or fewer (TERM=linux) the base colours stay themselves,
 * the selection is blue and the status line black, as on a console.
 */
export function resolveColor(color: number, theme: Theme, colors: number): number {
  if (color < UI_COLOR_BASE || color === 0x1ff) return color;
  const index = color - UI_COLOR_BASE;
  if (index === 16) return colors >= 256 ? SELECTION_GREY[theme] : 4;
  if (index === 17) return colors >= 256 ? BAR_GREY[theme] : 0;
  if (index > 15) return 0x1ff;
  return colors >= 256 && theme === "light" ? (LIGHT_SHADES[index] ?? index) : index;
}

/** How long the terminal gets to answer the background query before the theme stays as it is. */
export const BACKGROUND_QUERY_TIMEOUT_MS = 1000;

/** OSC 11 with "?": the terminal answers with its background colour. */
export const BACKGROUND_QUERY = "\x1b]11;?\x1b\\";

/**
 * The theme for an answer to the background query ("rgb:ffff/ffff/ffff", 1 to 4 hex digits a
 * channel, or "#rrggbb"): light when the background's luminance is above the middle.
 */
export function themeForBackground(answer: string): Theme | undefined {
  let channels: number[] | undefined;
  const rgb = /rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})/i.exec(answer);
  if (rgb) channels = rgb.slice(1, 4).map((h) => Number.parseInt(h, 16) / (16 ** h.length - 1));
  const hash = /#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})\b/i.exec(answer);
  if (!channels && hash) channels = hash.slice(1, 4).map((h) => Number.parseInt(h, 16) / 255);
  if (!channels || channels.some((c) => !Number.isFinite(c))) return undefined;
  const [r, g, b] = channels as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.5 ? "light" : "dark";
}

/**
 * A first guess before the terminal answers: COLORFGBG ("15;0": light text on black), which
 * rxvt, Konsole and others set. A white background (7 or 15) is light.
 */
export function themeFromEnvironment(env: NodeJS.ProcessEnv): Theme | undefined {
  const parts = (env.COLORFGBG ?? "").split(";");
  const bg = Number.parseInt(parts[parts.length - 1] ?? "", 10);
  if (!Number.isInteger(bg) || bg < 0 || bg > 15) return undefined;
  return bg === 7 || bg === 15 ? "light" : "dark";
}
