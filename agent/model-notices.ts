// What pitwall tells the model between turns (a job exited, the person killed a job): lines given
// to the Agent (notify) and lines pulled from sources (the job service's notices) before every model
// request. They reach the model in the order things happened: a notice goes before a queued message
// (a steer, a trigger's lines, the prompt) that came after what it tells, and notices side by side
// are one user message that starts with "[pitwall notice]".
import type { UserMessage } from "./messages.js";

/** A line to tell the model, and when what it tells happened (ms since the epoch). */
export interface TimedNotice {
  text: string;
  at: number;
}

/**
 * Lines to tell the model, pulled before every request; [] when there is nothing new. A line given
 * as a plain string counts as having happened when it is pulled.
 */
export type NoticeSource = () => Array<string | TimedNotice> | Promise<Array<string | TimedNotice>>;

export const NOTICE_HEADER = "[pitwall notice]";

export class ModelNotices {
  private lines: TimedNotice[] = [];

  constructor(private readonly sources: readonly NoticeSource[]) {}

  add(text: string): void {
    this.lines.push({ text, at: Date.now() });
  }

  /** Everything to tell with the next request, oldest first ([] when there is nothing). */
  async take(): Promise<TimedNotice[]> {
    const fromSources = await Promise.all(this.sources.map(async (source) => source()));
    const pulled = Date.now();
    const lines = [...this.lines, ...fromSources.flat().map((line) => (typeof line === "string" ? { text: line, at: pulled } : line))];
    this.lines = [];
    // Stable: lines of the same moment keep the order they were given in.
    return lines.sort((a, b) => a.at - b.at);
  }
}

/**
 * The user messages a turn delivers, in the order things happened: `messages` (queued steers, a
 * trigger's lines, the prompt, follow-ups) keep their order, and each notice goes before the first
 * of them that was sent after it happened; notices side by side become one notice message.
 */
export function inTimeOrder(messages: readonly UserMessage[], notices: readonly TimedNotice[]): UserMessage[] {
  const out: UserMessage[] = [];
  let next = 0;
  const flush = (until: number): void => {
    const group: TimedNotice[] = [];
    while (next < notices.length && notices[next]!.at <= until) group.push(notices[next++]!);
    if (group.length > 0) out.push({ role: "user", content: `${NOTICE_HEADER}\n${group.map((n) => n.text).join("\n")}`, origin: "notice", timestamp: group[0]!.at });
  };
  for (const message of messages) {
    flush(message.timestamp);
    out.push(message);
  }
  flush(Infinity);
  return out;
}
