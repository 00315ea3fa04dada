// The several-agents rows: the dashboard's memory for each extra idle agent, then four agents
// streaming long answers at once while four jobs flood, and meanwhile how soon a typed key shows
// and how long frames take.
import { readFileSync } from "node:fs";
import type { FakeScript } from "../fake-llm/index.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";
import { launch, ms, quantile, rssOf, typingLatencies, type Measurement } from "./bench-harness.js";

const AGENTS = 4;
/** Extra idle agents for the memory row: enough that their cost stands out of V8's own ups and downs. */
const IDLE_EXTRA = 8;
const JOBS = 4;
const IDLE_SETTLE_MS = 10_000;

/** A long markdown answer streamed slowly enough to last the measurement (about 30 s). */
function slowAnswer(agent: number): FakeScript {
  const text = Array.from({ length: 400 }, (_, i) => `Agent ${agent}, step ${i}: **bold**, \`code\` and a sentence long enough to wrap in the chat pane.\n\n`).join("");
  return { kind: "reply", text, chunkSize: 12, delayMs: 5, usage: { input: 100, output: 10_000 } };
}

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

export const agentsBudget: Measurement = async () => {
  const run = await launch(Array.from({ length: AGENTS }, (_, i) => slowAnswer(i + 1)));
  try {
    const { t } = run;
    await t.waitForText("● ready", 20_000);
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const oneAgent = rssOf(t.pid);
    for (let i = 2; i <= IDLE_EXTRA + 1; i++) {
      command(t, `/agent new a${i}`);
      await t.waitForText(`Agent a${i} started`, 20_000);
    }
    await new Promise((r) => setTimeout(r, IDLE_SETTLE_MS));
    const perAgent = (rssOf(t.pid) - oneAgent) / IDLE_EXTRA;

    for (let i = 1; i <= JOBS; i++) command(t, `/run yes "job ${i}: 2026-11-22T10:00:00Z INFO GET /api/items status=200 12ms"`);
    await t.waitForText(new RegExp(`${JOBS} @you yes .* up`), 20_000);
    // Four agents get a prompt each; the chat ends on the last one, all four answering.
    for (let i = 1; i <= AGENTS; i++) {
      command(t, `/agent ${i === 1 ? "main" : `a${i}`}`);
      await t.waitForText(`Agent ${i === 1 ? "main" : `a${i}`} is in the chat`, 20_000);
      command(t, `answer at length ${i}`);
      await t.waitForText(`Agent ${i}, step 0`, 20_000);
    }
    const streaming = (): boolean => /working/.test(t.screenText());
    const latencies = await typingLatencies(t, 80, () => !streaming());
    const stillStreaming = streaming();
    t.press("Ctrl+D");
    await t.waitForText("quit and stop them?", 20_000);
    t.type("y");
    await t.waitForExit(60_000);
    const stats = JSON.parse(readFileSync(run.statsPath, "utf8")) as { frames: number; recent: number[] };
    const keyP95 = quantile(latencies, 0.95);
    const frameP95 = quantile(stats.recent, 0.95);
    return [
      { metric: `RSS per extra idle agent (${IDLE_EXTRA} agents added, ${IDLE_SETTLE_MS / 1000} s idle)`, value: `${perAgent.toFixed(1)} MB (one agent: ${oneAgent.toFixed(1)} MB)`, target: "< 15 MB", pass: perAgent < 15 },
      {
        metric: `key → screen latency, ${AGENTS} agents streaming and ${JOBS} jobs flooding (p50 / p95 of ${latencies.length} keys)`,
        value: `${ms(quantile(latencies, 0.5))} / ${ms(keyP95)}`,
        target: "p95 < 30 ms",
        pass: keyP95 < 30 && latencies.length >= 40 && stillStreaming,
      },
      { metric: `frame time, ${AGENTS} agents streaming and ${JOBS} jobs flooding (p50 / p95 of ${stats.recent.length} frames)`, value: `${ms(quantile(stats.recent, 0.5))} / ${ms(frameP95)}`, target: "p95 < 33 ms (one frame)", pass: frameP95 < 33 },
    ];
  } finally {
    await run.done();
  }
};
