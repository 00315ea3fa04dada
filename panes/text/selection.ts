// How a selected row is drawn in every list (jobs, files, the pickers, the chat's tool lines, the
// tab bar): one neutral background across the whole row (a grey a shade off the terminal's own
// background, screen/palette.ts), its text bold. The row's status colours stay as they are, so a
// green "up 46.1s" or a red "exit 1" still reads; only the colours that would sink into the grey
// change: dim text becomes the terminal's own text colour, blue and red their bright shades. Reverse
// video, span by span, turned each coloured span into a block of its own colour (a "candy stripe").
// Without colours (NO_COLOR) the frame writer draws the background as reverse video.
import { attr, Color, DEFAULT_COLOR, fgOf, lineText, withStyle, type StyledLine } from "./styled-text.js";
import { textWidth } from "./text-width.js";

export const SELECTION_BG = Color.selection;

/** Colours that would not read on the selection's grey, and what they become there. */
const ON_SELECTION: ReadonlyMap<number, number> = new Map([
  [Color.grey, DEFAULT_COLOR],
  [Color.black, DEFAULT_COLOR],
  [Color.white, DEFAULT_COLOR],
  [Color.blue, Color.brightBlue],
  [Color.red, Color.brightRed],
]);

/** The row as selected: every span on the selection background, readable on it, padded to `width` when given. */
export function selectedRow(row: StyledLine, width?: number): StyledLine {
  const out = row.map((span) => {
    const fg = fgOf(span.attr);
    return { text: span.text, attr: withStyle(span.attr, { fg: ON_SELECTION.get(fg) ?? fg, bg: SELECTION_BG, bold: true, inverse: false, dim: false }) };
  });
  const rest = width === undefined ? 0 : width - textWidth(lineText(row));
  if (rest > 0) out.push({ text: " ".repeat(rest), attr: attr({ bg: SELECTION_BG }) });
  return out;
}
