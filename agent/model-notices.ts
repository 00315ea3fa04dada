// What pitwall tells the model between turns (a job exited, the person killed a job): lines given
// to the Agent (notify) and lines pulled from sources (the job service's notices) before every model
// request, delivered together as one user message that starts with "[pitwall notice]".
import type { UserMessage } from "./messages.js";

/** Lines to tell the model, pulled before every request; [] when there is nothing new. */
export type NoticeSource = () => string[] | Promise<string[]>;

export class ModelNotices {
  private lines: string[] = [];

  constructor(private readonly sources: readonly NoticeSource[]) {}

  add(text: string): void {
    this.lines.push(text);
  }

  /** Everything to tell with the next request, as one message ([] when there is nothing). */
  async take(): Promise<UserMessage[]> {
    const fromSources = await Promise.all(this.sources.map(async (source) => source()));
    const lines = [...this.lines, ...fromSources.flat()];
    this.lines = [];
    return lines.length ? [{ role: "user", content: `[pitwall notice]\n${lines.join("\n")}`, origin: "notice", timestamp: Date.now() }] : [];
  }
}
