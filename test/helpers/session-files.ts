// Writes session files for tests and benches without holding them in memory: a header, then turns
// of a prompt, a tool call and a large tool result, in the format pitwall writes (old-style records
// without ids when asked, as files from before record ids).
import { closeSync, openSync, writeSync } from "node:fs";

export interface LongSessionOptions {
  turns: number;
  /** Characters of each tool result. */
  resultChars: number;
  /** Write records without ids, as pitwall did before they existed. */
  withoutIds?: boolean;
  provider?: string;
  model?: string;
}

/** Returns the bytes written. */
export function writeLongSession(path: string, options: LongSessionOptions): number {
  const fd = openSync(path, "w");
  let bytes = 0;
  let pending = "";
  let n = 0;
  const put = (record: Record<string, unknown>): void => {
    const id = options.withoutIds ? {} : { id: (n++).toString(16).padStart(8, "0") };
    pending += `${JSON.stringify({ ...record, ...id })}\n`;
    if (pending.length > 1 << 20) flush();
  };
  const flush = (): void => {
    bytes += writeSync(fd, pending);
    pending = "";
  };
  try {
    const provider = options.provider ?? "anthropic";
    const model = options.model ?? "claude-sonnet-5-5";
    pending += `${JSON.stringify({ type: "session", version: 1, id: "long-session", timestamp: "2026-11-01T00:00:00.000Z", cwd: "/work/project", provider, model, thinkingLevel: "off", pitwallVersion: "0.1.0" })}\n`;
    const filler = "0123456789abcdef ".repeat(Math.ceil(options.resultChars / 17)).slice(0, options.resultChars);
    const usage = { input: 1000, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 1050, cost: null };
    for (let i = 0; i < options.turns; i++) {
      put({ type: "message", message: { role: "user", content: `task ${i}: look at part ${i}`, timestamp: i } });
      put({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `Reading part ${i}.` }, { type: "toolCall", id: `call_${i}`, name: "read", arguments: { file_path: `part-${i}.txt` } }], provider, model, usage, stopReason: "toolUse", timestamp: i } });
      put({ type: "message", message: { role: "toolResult", toolCallId: `call_${i}`, toolName: "read", content: `part-${i}: ${filler}`, isError: false, timestamp: i } });
      put({ type: "message", message: { role: "assistant", content: [{ type: "text", text: `Part ${i} is fine.` }], provider, model, usage, stopReason: "stop", timestamp: i } });
    }
    flush();
  } finally {
    closeSync(fd);
  }
  return bytes;
}
