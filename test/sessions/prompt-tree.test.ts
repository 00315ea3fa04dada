// What /tree shows and where each row goes: the person's messages as nodes (indented where they went
// back and tried again), the current path marked ● and its last message "◀ now", every branch's last
// message taking the conversation to that branch's leaf, and a note when the conversation is at its
// start (rewound to before the first message).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { promptTree } from "../../agent/sessions/prompt-tree.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { branchTreeRows } from "../../panes/overlays/branch-rows.js";
import { attr, Color } from "../../panes/text/styled-text.js";

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pitwall-prompt-tree-"));
  store = SessionStore.create({ root, cwd: "/home/me/project", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0" });
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

const user = (content: string): Message => ({ role: "user", content, timestamp: 1 });
const assistant = (text: string): AssistantMessage => ({ role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "claude-sonnet-5-5", usage: emptyUsage(), stopReason: "stop", timestamp: 2 });

/** Records a turn; returns the ids of the person's message and of the answer. */
function turn(prompt: string, answer: string): { prompt: string; answer: string } {
  store.recordMessage(user(prompt));
  const promptId = store.leafId!;
  store.recordMessage(assistant(answer));
  return { prompt: promptId, answer: store.leafId! };
}

/** Each row as plain text without its time column. */
const plain = (rows: ReturnType<typeof branchTreeRows>["rows"]): string[] => rows.map((row) => row.slice(1).map((span) => span.text).join(""));

describe("the /tree rows", () => {
  it("prompts as nodes, branches indented, the current path marked and every leaf reachable", () => {
    const a = turn("first", "one");
    const b = turn("second", "two");
    turn("third", "three");
    const leafOfOld = store.leafId!;
    store.moveLeaf(a.answer, "rewind");
    const b2 = turn("second, again", "two again");
    store.moveLeaf(b.answer, "rewind");
    const c2 = turn("third, again", "three again");

    const { rows, targets, current, atStart } = branchTreeRows(promptTree(store.tree));
    expect(plain(rows)).toEqual([
      "● first",
      "├─● second",
      "│ ├─○ third",
      "│ └─● third, again  ◀ now",
      "└─○ second, again",
    ]);
    expect(current).toBe(3);
    expect(atStart).toBe(false);
    // Rows on the current path are drawn in the path's colour, the others grey.
    const marker = (i: number): number => rows[i]![2]!.attr;
    expect(marker(0)).toBe(attr({ fg: Color.cyan, bold: true }));
    expect(marker(1)).toBe(attr({ fg: Color.cyan, bold: true }));
    expect(marker(2)).toBe(attr({ fg: Color.grey }));
    expect(marker(4)).toBe(attr({ fg: Color.grey }));
    // Each branch's last message goes to that branch's leaf; an inner one to the end of its turn on the current path.
    expect(targets).toEqual([a.answer, b.answer, leafOfOld, c2.answer, b2.answer]);
  });

  it("rewound to before the first message: no row is current and the rows say so", () => {
    turn("first", "one");
    store.moveLeaf(null, "rewind");
    const { rows, atStart } = branchTreeRows(promptTree(store.tree));
    expect(plain(rows)).toEqual(["○ first"]);
    expect(atStart).toBe(true);
  });
});
