// Pages of a branch's conversation read back from the session file, for a front end that keeps
// only recent messages in memory (the dashboard's chat): the messages just before one it still
// holds, streamed from the file so a 5,000-turn session costs one pass and at most a page in memory.
import type { Message } from "../messages.js";
import { readMessageRecords } from "./session-load.js";

export interface BranchPage {
  /** Oldest first. */
  messages: Message[];
  /** Whether the branch has messages before these. */
  more: boolean;
}

/**
 * The last `max` messages of the branch (`branch`: its record ids) that come before the first one
 * `isStart` accepts (the oldest message the reader still holds); `max` undefined reads every one.
 * None when no message is accepted (not saved, or not on this branch): the reader would otherwise
 * be given again what it holds.
 */
export async function readPageBefore(path: string, branch: ReadonlySet<string>, isStart: (message: Message) => boolean, max?: number): Promise<BranchPage> {
  const page: Message[] = [];
  let dropped = 0;
  let found = false;
  for await (const { id, message } of readMessageRecords(path)) {
    if (!branch.has(id)) continue;
    if (isStart(message)) {
      found = true;
      break;
    }
    page.push(message);
    // Cut in batches, not one shift a message: a long file has thousands before the page.
    if (max !== undefined && page.length >= 2 * max) dropped += page.splice(0, page.length - max).length;
  }
  if (!found) return { messages: [], more: false };
  if (max !== undefined && page.length > max) dropped += page.splice(0, page.length - max).length;
  return { messages: page, more: dropped > 0 };
}
