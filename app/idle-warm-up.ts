// What an idle dashboard does after "ready", so that the person's first answer and first command
// run as fast as later ones: the code cache is saved (a first start after an install), the
// markdown parser loads, the job host starts, and a throwaway answer and command output are drawn
// (marked's block rules are regular expressions compiled on their first use, ~25 ms of the first
// answer's frame on this VM; a command's output goes through a tool call's record and its output
// log chunk by chunk, and its bottom rows are read back, code V8 optimizes only once it has run a
// while); then, once those are done, one collection of what all that and the start left behind,
// which the first command's output would otherwise meet.
import type { CodingAgent } from "../agent/coding-agent.js";
import { loadMarkdownParser, renderMarkdown } from "../panes/markdown/markdown-render.js";
import { ToolCallStore } from "../panes/tool-output/tool-calls.js";
import { collectStartupGarbage } from "../tools/process/startup-garbage.js";
import { saveCodeCache } from "./code-cache.js";

/** The markdown parser loads this long after "ready" when no answer has begun by then. */
const MARKDOWN_AFTER_MS = 1000;
/**
 * A second after "ready" with nothing else going on, the job host starts in the background (and
 * runs a no-op command), so the first bash call is as quick as the rest (a person who never runs a
 * command pays an idle process).
 */
const HOST_PRESTART_AFTER_MS = 1000;
/**
 * The collection comes once the warm-ups are done (the job host answers and has run its command),
 * so what they leave goes too: this long after, if the agent is not working then.
 */
const STARTUP_GARBAGE_AFTER_MS = 200;

/** An answer as models write them: the block and inline kinds marked tries on every paragraph. */
const SAMPLE_ANSWER = [
  "## Summary",
  "",
  "The **build** passes; `npm test` ran *all* files. See [the log](https://example.com/log).",
  "",
  "1. Read `src/app.ts`",
  "2. Fixed the import",
  "   - kept the old name",
  "",
  "> Note: nothing else changed.",
  "",
  "| file | lines |",
  "| --- | ---: |",
  "| app.ts | 12 |",
  "",
  "```",
  "npm run build",
  "```",
  "",
  "Done<br>.",
  "",
  "---",
].join("\n");

/**
 * Lines of command output per chunk (a pipe's 64 KB of `seq`: more lines than the log keeps, so
 * the path that drops a chunk's oldest lines runs too), chunks, and the rows read after each.
 */
const OUTPUT_LINES = 10_000;
const OUTPUT_CHUNKS = 6;
const ROWS_READ = 40;

/**
 * Draws a throwaway answer, and takes a throwaway bash call (seq-like lines) through a tool-call
 * store of its own as the tool-output pane would, reading its bottom rows; keeps neither.
 */
export function warmUpRendering(): void {
  renderMarkdown(SAMPLE_ANSWER, 80);
  const calls = new ToolCallStore();
  const id = "warm-up";
  const output = calls.handle({ type: "tool_execution_start", toolCallId: id, toolName: "bash", args: { command: "seq" } })?.output;
  for (let chunk = 0; chunk < OUTPUT_CHUNKS; chunk++) {
    let text = "";
    for (let line = 1; line <= OUTPUT_LINES; line++) text += `${chunk * OUTPUT_LINES + line}\n`;
    calls.handle({ type: "tool_execution_update", toolCallId: id, toolName: "bash", chunk: text });
    for (let row = 0; output && row < ROWS_READ; row++) output.line(output.lineCount - 1 - row);
  }
  calls.handle({ type: "tool_execution_end", toolCallId: id, toolName: "bash", content: "", isError: false, durationMs: 0 });
}

/**
 * Starts the idle work of a dashboard that has just shown "ready". Without `warmUp` (the idleWarmUp
 * setting), only the code cache and the markdown parser: no host ahead of need, nothing drawn.
 */
export function startIdleWork(coding: Pick<CodingAgent, "agent" | "bus" | "prepareTools">, warmUp: boolean): void {
  // A first start after an install: the next ones start from what was compiled so far, and once
  // its first turn with a tool has ended, from that too.
  setImmediate(saveCodeCache);
  let ranTool = false;
  const stopCaching = coding.bus.subscribe((event) => {
    if (event.type === "tool_execution_end") ranTool = true;
    if (event.type !== "agent_end" || !ranTool) return;
    stopCaching();
    setImmediate(saveCodeCache);
  });
  const idle = (): boolean => !coding.agent.state.isStreaming;
  // The parser loads when the first answer begins or after a second of quiet, whichever is first,
  // not in the way of the first request (text drawn before it is there is drawn again once it is).
  const load = (): Promise<void> => {
    clearTimeout(soon);
    stop();
    return loadMarkdownParser();
  };
  let rendered: Promise<void> = Promise.resolve();
  const soon = setTimeout(() => {
    rendered = load().then(() => {
      if (warmUp && idle()) warmUpRendering();
    });
  }, MARKDOWN_AFTER_MS);
  const stop = coding.bus.subscribe((event) => {
    if (event.type === "message_start" && event.message.role === "assistant") void load();
  });
  if (!warmUp) return;
  setTimeout(() => {
    void coding.prepareTools().then(() => rendered.then(() => collectStartupGarbage(STARTUP_GARBAGE_AFTER_MS, idle)));
  }, HOST_PRESTART_AFTER_MS).unref();
}
