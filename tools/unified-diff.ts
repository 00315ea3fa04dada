// A unified diff of one file's change, for the UI's files pane and the edit tool's details. Uses
// the `diff` package (jsdiff) rather than a hand-written differ.
import { structuredPatch, formatPatch } from "diff";

export interface FileDiff {
  /** Unified diff text with `--- a/path` / `+++ b/path` headers and 3 lines of context. */
  diff: string;
  linesAdded: number;
  linesRemoved: number;
}

/** Diff of `before` → `after`, both with LF line endings, labelled with `displayPath`. */
export function unifiedDiff(displayPath: string, before: string, after: string): FileDiff {
  const patch = structuredPatch(`a/${displayPath}`, `b/${displayPath}`, before, after, undefined, undefined, {
    context: 3,
  });
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith("+")) linesAdded++;
      else if (line.startsWith("-")) linesRemoved++;
    }
  }
  const text = patch.hunks.length === 0 ? "" : formatPatch(patch, { includeIndex: false, includeUnderline: false, includeFileHeaders: true });
  return { diff: text, linesAdded, linesRemoved };
}
