// The bench's soak row: a long session in JSON mode against the fake LLM. 1,000 prompts, each
// answered by a `read` of a ~20 KB file and then a short reply: 2,000 turns (model requests), in a
// 64k window, so the conversation compacts every few turns. Memory must stay flat (RSS at the end
// within 1.15× RSS after 500 turns, as the day bench counts: by then V8 has grown its heap to what
// this load keeps it at, and a heap snapshot then and at the end holds the same ~13 MB of live
// objects) and no request may be larger than the window.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm, type FakeReply, type RecordedRequest } from "../fake-llm/index.js";
import { CLI_PATH } from "../helpers/cli-process.js";
import { isSummaryRequest } from "../helpers/wire-check.js";
import { rssOf, type Measurement } from "./bench-harness.js";

const PROMPTS = 1_000;
const WINDOW = 64_000;
const EARLY_TURNS = 500;

/** The last message of a request is a tool result: the model answers; else it reads the file. */
function endsWithToolResult(request: RecordedRequest): boolean {
  const messages = request.json["messages"];
  const last = Array.isArray(messages) ? (messages.at(-1) as Record<string, unknown> | undefined) : undefined;
  if (!last) return false;
  if (last["role"] === "tool") return true;
  const content = last["content"];
  return Array.isArray(content) && (content.at(-1) as { type?: string } | undefined)?.type === "tool_result";
}

export const soak: Measurement = async () => {
  const cwd = mkdtempSync(join(tmpdir(), "pitwall-soak-"));
  // ~20 KB to read: 250 lines of 80 characters.
  writeFileSync(join(cwd, "data.txt"), Array.from({ length: 250 }, (_, i) => `${String(i).padStart(4, "0")} ${"lorem ipsum dolor sit amet ".repeat(3).slice(0, 75)}`).join("\n"));
  const llm = await startFakeLlm({ keepRequests: 4 });
  let largest = 0;
  let summaries = 0;
  let turns = 0;
  llm.setFallback((request): FakeReply => {
    largest = Math.max(largest, request.bodyBytes);
    if (isSummaryRequest(request)) {
      summaries++;
      return { kind: "reply", text: `## Goal\n- Read data.txt on request, again and again (summary ${summaries}).\n## Open\n- Keep reading when asked.`, estimateUsage: true };
    }
    turns++;
    return endsWithToolResult(request)
      ? { kind: "reply", text: "The file still has 250 lines.", estimateUsage: true }
      : { kind: "reply", text: "Reading it.", toolCalls: [{ name: "read", arguments: { file_path: "data.txt" } }], estimateUsage: true };
  });

  const child = spawn(process.execPath, [CLI_PATH, "--json", "--context-window", String(WINDOW), "--cwd", cwd], {
    env: { PATH: process.env.PATH, HOME: cwd, PITWALL_HOME: join(cwd, ".pitwall"), ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let early: number | undefined;
  let ends = 0;
  let compactions = 0;
  let pending = "";
  const done = new Promise<void>((resolve, reject) => {
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`pitwall --json exited with ${code}`))));
  });
  // Events are only counted, never kept: the bench must not be what grows.
  const allDone = new Promise<void>((resolve) => {
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      pending += chunk;
      let newline: number;
      while ((newline = pending.indexOf("\n")) !== -1) {
        const line = pending.slice(0, 120);
        pending = pending.slice(newline + 1);
        if (line.startsWith('{"type":"turn_end"') && turns >= EARLY_TURNS && early === undefined) early = rssOf(child.pid!);
        else if (line.startsWith('{"type":"compaction_end"')) compactions++;
        else if (line.startsWith('{"type":"agent_end"') && ++ends === PROMPTS) resolve();
      }
    });
  });
  const started = performance.now();
  for (let i = 0; i < PROMPTS; i++) child.stdin.write(`${JSON.stringify({ type: "message", content: `read data.txt (${i})` })}\n`);
  try {
    await allDone;
    const end = rssOf(child.pid!);
    const seconds = (performance.now() - started) / 1000;
    child.stdin.end();
    await done;
    const ratio = end / early!;
    const largestTokens = Math.ceil(largest / 4);
    return [
      { metric: `soak: RSS after ${turns} turns vs after ${EARLY_TURNS} (JSON mode, ~20 KB read each, 64k window)`, value: `${end.toFixed(0)} MB vs ${early!.toFixed(0)} MB (${ratio.toFixed(2)}×)`, target: "≤ 1.15×", pass: ratio <= 1.15 && turns >= 2 * PROMPTS },
      { metric: "soak: largest request body (bytes / 4) vs the window", value: `${(largestTokens / 1000).toFixed(1)}k of ${WINDOW / 1000}k tokens (${(largest / 1024).toFixed(0)} KB)`, target: "≤ window", pass: largestTokens <= WINDOW },
      { metric: "soak: compactions, summary requests, time", value: `${compactions}, ${summaries}, ${seconds.toFixed(0)} s`, target: "" },
    ];
  } finally {
    child.kill();
    await llm.close();
    rmSync(cwd, { recursive: true, force: true });
  }
};
