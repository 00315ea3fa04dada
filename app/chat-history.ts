// Where the chat reads back the messages it let go of: the current branch of the session file.
import type { CodingAgent } from "../agent/coding-agent.js";
import { readPageBefore } from "../agent/sessions/branch-pages.js";
import type { OlderReader } from "../panes/chat/chat-log.js";

export function sessionHistory(coding: CodingAgent): OlderReader {
  return async (isStart, max) => {
    const store = coding.session;
    const tree = coding.sessionTree();
    // No session file (--no-session): nothing was let go of that could come back.
    if (!store || !tree) return { messages: [], more: false };
    const branch = new Set(tree.pathTo().map((node) => node.id));
    return readPageBefore(store.path, branch, isStart, max);
  };
}
