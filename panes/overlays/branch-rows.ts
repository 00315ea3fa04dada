// Rows of the two session-tree pickers: the rewind list (the person's messages on the current
// branch, newest first) and /tree (their messages as a tree, indented where they went back and
// tried again, the current branch marked). Each row is one line: time, tree guides, a marker, the
// message's first line.
import type { PromptNode } from "../../agent/sessions/prompt-tree.js";
import type { TreeNode } from "../../agent/sessions/session-tree.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";

const DIM = attr({ fg: Color.grey });
const PATH = attr({ fg: Color.cyan, bold: true });
const HERE = attr({ fg: Color.yellow, bold: true });

const pad = (n: number): string => String(n).padStart(2, "0");

/** "10:05" today, "11-21 10:05" another day. */
export function shortTime(timestamp: number, now = new Date()): string {
  const date = new Date(timestamp);
  if (!Number.isFinite(date.getTime()) || timestamp <= 0) return "     ";
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.toDateString() === now.toDateString() ? time : `${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** The message as one line: its text with whitespace folded, what kind of message, its images. */
function preview(node: TreeNode): string {
  const person = node.person!;
  const kind = person.origin === "steer" ? "steer: " : person.origin === "follow_up" ? "follow-up: " : "";
  const text = sanitizeText(person.preview).replace(/\s+/g, " ").trim() || "(empty)";
  const images = person.images > 0 ? ` [+${person.images} image${person.images === 1 ? "" : "s"}]` : "";
  return `${kind}${text}${images}`;
}

/** The times of some messages, right-aligned to the widest. */
function times(nodes: readonly TreeNode[], now: Date): string[] {
  const texts = nodes.map((node) => shortTime(node.person!.timestamp, now));
  const width = Math.max(0, ...texts.map((t) => t.length));
  return texts.map((t) => `${t.padStart(width)}  `);
}

/** The rewind list: one row per message, newest first (as given). */
export function rewindRows(messages: readonly TreeNode[], now = new Date()): StyledLine[] {
  const when = times(messages, now);
  return messages.map((node, i) => [
    { text: when[i]!, attr: DIM },
    { text: preview(node), attr: attr() },
  ]);
}

export interface TreeRows {
  rows: StyledLine[];
  /** The record each row switches to (the end of its message's turn). */
  targets: string[];
  /** The row of the current branch's last message (or the last row). */
  current: number;
  /** The conversation is before the person's first message (a rewind to it): no row is current. */
  atStart: boolean;
}

/** /tree: the person's messages depth first, oldest branch first, guides where a message was followed more than once. */
export function branchTreeRows(roots: readonly PromptNode[], now = new Date()): TreeRows {
  const rows: StyledLine[] = [];
  const targets: string[] = [];
  let current = -1;
  // Each entry: a node, the guides before its marker, the guides its descendants continue with.
  const stack: Array<{ item: PromptNode; guide: string; below: string }> = [];
  const pushChildren = (children: readonly PromptNode[], below: string): void => {
    const several = children.length > 1;
    for (let i = children.length - 1; i >= 0; i--) {
      const last = i === children.length - 1;
      stack.push({ item: children[i]!, guide: several ? `${below}${last ? "└─" : "├─"}` : below, below: several ? `${below}${last ? "  " : "│ "}` : below });
    }
  };
  pushChildren(roots, "");
  const items: Array<{ item: PromptNode; guide: string }> = [];
  while (stack.length > 0) {
    const { item, guide, below } = stack.pop()!;
    items.push({ item, guide });
    pushChildren(item.children, below);
  }
  const when = times(items.map(({ item }) => item.node), now);
  for (const [i, { item, guide }] of items.entries()) {
    if (item.current) current = rows.length;
    const text = item.onCurrentPath ? attr() : DIM;
    rows.push([
      { text: when[i]!, attr: DIM },
      { text: guide, attr: DIM },
      { text: item.onCurrentPath ? "● " : "○ ", attr: item.onCurrentPath ? PATH : DIM },
      { text: preview(item.node), attr: text },
      ...(item.current ? [{ text: "  ◀ now", attr: HERE }] : []),
    ]);
    targets.push(item.turnEnd);
  }
  return { rows, targets, current: current >= 0 ? current : rows.length - 1, atStart: current < 0 };
}
