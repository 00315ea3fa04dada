// How a selected row is drawn in every list (jobs, files, the session picker, the chat's tool
// lines): one background colour across the whole row, its text bright and bold. Reverse video,
// span by span, turned each coloured span into a block of its own colour (a "candy stripe").
// Without colours (NO_COLOR) the frame writer draws the background as reverse video.
import { attr, Color, DEFAULT_COLOR, fgOf, lineText, withStyle, type StyledLine } from "./styled-text.js";
import { textWidth } from "./text-width.js";

export const SELECTION_BG = Color.blue;

/** Colours that would vanish on the selection's blue: drawn bright white instead. */
const UNREADABLE_ON_SELECTION = new Set<number>([DEFAULT_COLOR, Color.black, Color.grey, Color.blue, Color.white, Color.brightBlue]);

/** The row as selected: every span on the selection background, readable on it, padded to `width` when given. */
export function selectedRow(row: StyledLine, width?: number): StyledLine {
  const out = row.map((span) => {
    const fg = fgOf(span.attr);
    const readable = UNREADABLE_ON_SELECTION.has(fg) ? Color.brightWhite : fg === Color.red ? Color.brightRed : fg;
    return { text: span.text, attr: withStyle(span.attr, { fg: readable, bg: SELECTION_BG, bold: true, inverse: false }) };
  });
  const rest = width === undefined ? 0 : width - textWidth(lineText(row));
  if (rest > 0) out.push({ text: " ".repeat(rest), attr: attr({ fg: Color.brightWhite, bg: SELECTION_BG }) });
  return out;
}
