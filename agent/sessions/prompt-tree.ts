// The session tree as the person thinks of it: their own messages as nodes, each followed by the
// messages of theirs that came after it (several when they went back and tried again). What /tree
// shows, and where choosing a node goes: the end of that message's turn (the last record before
// their next message), along the current branch where it passes, else along the newest.
import type { SessionTreeView, TreeNode } from "./session-tree.js";

export interface PromptNode {
  node: TreeNode;
  /** The person's messages that follow this one, oldest first. */
  children: PromptNode[];
  /** The record its turn ends with: where switching to this node takes the conversation. */
  turnEnd: string;
  /** On the path to the current leaf. */
  onCurrentPath: boolean;
  /** The current leaf is in this message's turn. */
  current: boolean;
}

export function promptTree(tree: SessionTreeView): PromptNode[] {
  const childrenOf = new Map<string | null, TreeNode[]>();
  for (const node of tree.nodes()) {
    const list = childrenOf.get(node.parentId);
    if (list) list.push(node);
    else childrenOf.set(node.parentId, [node]);
  }
  const path = tree.pathTo();
  const onPath = new Set(path.map((node) => node.id));
  const currentPrompt = [...path].reverse().find((node) => node.person)?.id;

  /** The person's messages first met below `id`, through records that are not. */
  const promptsBelow = (id: string | null): TreeNode[] => {
    const found: TreeNode[] = [];
    const stack = [...(childrenOf.get(id) ?? [])].reverse();
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.person) found.push(node);
      else stack.push(...[...(childrenOf.get(node.id) ?? [])].reverse());
    }
    return found;
  };
  const turnEnd = (id: string): string => {
    let at = id;
    for (;;) {
      const next = (childrenOf.get(at) ?? []).filter((node) => !node.person);
      if (next.length === 0) return at;
      at = (next.find((node) => onPath.has(node.id)) ?? next.at(-1)!).id;
    }
  };
  // Built without recursion: a day-long session is a chain of thousands of prompts.
  const make = (node: TreeNode): PromptNode => ({ node, children: [], turnEnd: turnEnd(node.id), onCurrentPath: onPath.has(node.id), current: node.id === currentPrompt });
  const roots = promptsBelow(null).map(make);
  const stack = [...roots];
  while (stack.length > 0) {
    const item = stack.pop()!;
    item.children = promptsBelow(item.node.id).map(make);
    stack.push(...item.children);
  }
  return roots;
}
