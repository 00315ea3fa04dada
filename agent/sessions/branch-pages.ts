// Pages of a branch's conversation read back from the session file, for a front end that keeps
// only recent messages in memory (the dashboard's chat): the messages just before one it still
// holds, streamed from the file so a 5,000-turn session costs one pass and at most a page in memory.
import type { Message } from "../messages.js";
import { lineRecordId } from "./session-ids.js";
import { readLines } from "./session-load.js";
import { recordValidators } from "./session-schema.js";

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
  for await (const { text, number } of readLines(path)) {
    // Cheap test first: most lines of a long session are messages, but not every line is.
    if (!text.includes('"message"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue; // A damaged line: it was named when the session was loaded.
    }
    if (!recordValidators.message.check(value)) continue;
    if (!branch.has(value.id ?? lineRecordId(number))) continue;
    if (isStart(value.message)) {
      found = true;
      break;
    }
    page.push(value.message);
    if (max !== undefined && page.length > max) {
      page.shift();
      dropped++;
    }
  }
  return found ? { messages: page, more: dropped > 0 } : { messages: [], more: false };
}
