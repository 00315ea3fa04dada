// A unified diff as styled lines: added lines green, removed red, hunk headers cyan, file headers
// bold. Shared by the tool-output pane (an edit call) and the files pane (a file's last edit).
import { attr, Color, type StyledLine } from "./styled-text.js";
import { sanitizeText } from "./terminal-text.js";

const ADDED = attr({ fg: Color.green });
const REMOVED = attr({ fg: Color.red });
const HUNK = attr({ fg: Color.cyan });
const HEADER = attr({ bold: true });

export function diffLines(diff: string): StyledLine[] {
  return sanitizeText(diff)
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => {
      if (l.startsWith("+++") || l.startsWith("---")) return [{ text: l, attr: HEADER }];
      if (l.startsWith("+")) return [{ text: l, attr: ADDED }];
      if (l.startsWith("-")) return [{ text: l, attr: REMOVED }];
      if (l.startsWith("@@")) return [{ text: l, attr: HUNK }];
      return [{ text: l, attr: attr() }];
    });
}
