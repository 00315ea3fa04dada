// What an idle dashboard does after "ready", so that the person's first answer and first command
// run as fast as later ones: the code cache is saved (a first start after an install), the
// markdown parser loads, the job host starts, and a throwaway answer and command output are drawn
// (marked's block rules are regular expressions compiled on their first use, ~25 ms of the first
// answer's frame on this VM; a command's output goes through the tool-output log line by line,
// which V8 optimizes only once it has run a while); then, once those are done, one collection of
// what all that and the start left behind, which the first command's output would otherwise meet.
import type { CodingAgent } from "../agent/coding-agent.js";
import { loadMarkdownParser, renderMarkdown } from "../panes/markdown/markdown-render.js";
import { TerminalTextLog } from "../panes/text/terminal-text.js";
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

/** Lines of command output per chunk, and chunks: enough for V8 to optimize the log's loop. */
const OUTPUT_LINES = 2000;
const OUTPUT_CHUNKS = 4;

/** Draws a throwaway answer and a throwaway command's output (seq-like lines), and keeps neither. */
export function warmUpRendering(): void {
  renderMarkdown(SAMPLE_ANSWER, 80);
  const log = new TerminalTextLog();
  for (let chunk = 0; chunk < OUTPUT_CHUNKS; chunk++) {
    let text = "";
    for (let line = 1; line <= OUTPUT_LINES; line++) text += `${chunk * OUTPUT_LINES + line}\n`;
    log.write(text);
  }
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
