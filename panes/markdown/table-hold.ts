// What of a streaming reply's open tail is drawn yet, so a table never shows first as raw
// "| file | tests |" rows and then jumps into a grid: a line that may be a table's header waits
// until the next line says whether it is (a separator row such as "| --- | ---: |"), and inside a
// table a row still being written waits for its end, so columns do not change width mid-row.

/** A table's separator row: cells of dashes, optionally aligned with colons, between pipes. */
const SEPARATOR = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-*:?\s*)*\|?\s*$/;
/** What a separator row can look like before it is complete. */
const SEPARATOR_START = /^\s*\|?[\s:|-]*$/;

function isRow(line: string): boolean {
  return line.includes("|");
}

/** The part of `open` (the text after the last finished block) to render now. */
export function shownTail(open: string): string {
  const end = open.lastIndexOf("\n");
  const complete = open.slice(0, end + 1);
  const partial = open.slice(end + 1);
  const lines = complete.split("\n").slice(0, -1);
  // The block being written: the lines after the last blank one.
  let start = lines.length;
  while (start > 0 && lines[start - 1]!.trim() !== "") start--;
  const block = lines.slice(start);
  const separator = block.findIndex((line, i) => i > 0 && SEPARATOR.test(line) && isRow(block[i - 1]!));
  if (separator > 0) {
    // A table: its complete rows show; the row being written waits for its end.
    return partial.trimStart().startsWith("|") ? complete : open;
  }
  const last = block[block.length - 1];
  if (last !== undefined && isRow(last) && SEPARATOR_START.test(partial)) {
    // Maybe a header: held (with what follows) until the next line shows whether it is one.
    return complete.slice(0, complete.length - last.length - 1);
  }
  // A line starting with a pipe may be a table's header: it waits for its end.
  if (partial.trimStart().startsWith("|")) return complete;
  return open;
}
