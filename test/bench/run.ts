// `npm run bench`: runs the real CLI in a pseudo-terminal against the fake LLM and prints a table
// of what a person feels: startup against bare node (startup-measurements.ts, with the shell
// tool's round trip against its floor), memory when idle, frame time while a long reply
// streams, how fast a typed key shows while a tool floods output, the jobs' rows
// (job-measurements.ts: output throughput against raw node-pty, key latency while a job floods on
// screen, memory after eight 50 MB jobs), the sandbox's cost (sandbox-measurements.ts: a bash round
// trip and a job's flood, fenced against unfenced in the same run), a 2,000-turn soak in JSON mode
// (soak.ts), a 10 MB streamed tool argument (stream-measurements.ts), several agents
// (agents-measurements.ts: memory per extra idle agent, keys and frames with four agents streaming
// and four jobs flooding) and the remote rows over a loopback sshd (remote-measurements.ts). Each
// measurement is a function returning rows,
// so adding one is adding a function to MEASUREMENTS; `npm run bench -- "job memory"` runs only the
// ones named.
import { readFileSync } from "node:fs";
import { removeTempDirs } from "../helpers/temp-dir.js";
import { launch, ms, quantile, rssOf, typingLatencies, type Measurement, type Row } from "./bench-harness.js";
import { agentsBudget } from "./agents-measurements.js";
import { bashRoundTrip } from "./bash-measurements.js";
import { sandboxCost } from "./sandbox-measurements.js";
import { jobKeyLatency, jobMemory, jobThroughput } from "./job-measurements.js";
import { day } from "./day.js";
import { soak } from "./soak.js";
import { startup, seqRoundTrip } from "./startup-measurements.js";
import { largeArgument } from "./stream-measurements.js";
import { remoteRows } from "./remote-measurements.js";

const idleRss: Measurement = async () => {
  const run = await launch([{ kind: "reply", text: "Hello there." }]);
  try {
    await run.t.waitForText("● ready", 20_000);
    // V8 gives back memory it grew while loading once the process has been idle for a few seconds.
    await new Promise((r) => setTimeout(r, 15_000));
    const fresh = rssOf(run.t.pid);
    run.t.type("hi");
    run.t.press("Enter");
    await run.t.waitForText("Hello there.", 20_000);
    await new Promise((r) => setTimeout(r, 15_000));
    const afterTurn = rssOf(run.t.pid);
    return [
      { metric: "RSS when idle (15 s after start)", value: `${fresh.toFixed(1)} MB`, target: "≤ 80 MB", pass: fresh <= 80 },
      { metric: "RSS when idle after one turn (SDK loaded)", value: `${afterTurn.toFixed(1)} MB`, target: "" },
    ];
  } finally {
    await run.done();
  }
};

/** ~50 000 tokens of markdown: paragraphs, lists and code, streamed in small deltas. */
function longReply(): string {
  const parts: string[] = [];
  for (let i = 0; parts.join("").length < 200_000; i++) {
    parts.push(`## Section ${i}\n\nThis paragraph explains step ${i} with **bold** words, *emphasis*, and \`inline code\`; it runs long enough to wrap across the chat pane several times so that wrapping is measured too.\n\n`);
    parts.push(`- item one of ${i}\n- item two with a [link](https://example.com/${i})\n\n`);
    if (i % 4 === 0) parts.push("```ts\nfunction add(a: number, b: number): number {\n  return a + b; // sum\n}\n```\n\n");
  }
  return parts.join("");
}

const streamFrames: Measurement = async () => {
  const text = longReply();
  // About 10 tokens a delta, paced so the stream lasts several seconds (a fast model, not a burst).
  const run = await launch([{ kind: "reply", text, chunkSize: 40, delayMs: 1, usage: { input: 100, output: 50_000 } }]);
  try {
    await run.t.waitForText("● ready", 20_000);
    const started = performance.now();
    run.t.type("write a long answer");
    run.t.press("Enter");
    await run.t.waitForText("50k tok", 120_000);
    const seconds = (performance.now() - started) / 1000;
    run.t.press("Ctrl+D");
    await run.t.waitForExit();
    const stats = JSON.parse(readFileSync(run.statsPath, "utf8")) as { frames: number; recent: number[] };
    const p50 = quantile(stats.recent, 0.5);
    const p95 = quantile(stats.recent, 0.95);
    return [
      { metric: `frame time while 50 000 tokens stream (p50 / p95 of ${stats.recent.length} frames)`, value: `${ms(p50)} / ${ms(p95)}`, target: "p95 < 33 ms (one frame budget)", pass: p95 < 33 },
      { metric: "frame time while streaming, max", value: ms(Math.max(...stats.recent)), target: "" },
      { metric: "50 000 tokens streamed and shown in", value: `${seconds.toFixed(1)} s (${(stats.frames / seconds).toFixed(0)} frames/s)`, target: "" },
    ];
  } finally {
    await run.done();
  }
};

/** A bash command that floods its output far longer than the measurement (it is aborted after). */
const FLOOD = "for i in $(seq 1 1000); do seq 1 150000; done";

const keyLatency: Measurement = async () => {
  const run = await launch([
    { kind: "reply", text: "Flooding.", toolCalls: [{ name: "bash", arguments: { command: FLOOD } }] },
    { kind: "reply", text: "Flood over." },
  ]);
  try {
    const { t } = run;
    await t.waitForText("● ready", 20_000);
    const idle = await typingLatencies(t, 30);
    await t.waitForNoText(/› [a-z]/, 10_000);
    t.type("flood the output");
    t.press("Enter");
    await t.waitForText("▸ bash for i in", 20_000);
    // Wait until output is streaming into the tool-output pane.
    await t.waitForText(/\n│ \d{3,}\s+│/, 20_000);
    const flooding = () => /▸ bash for i in.*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(t.screenText());
    const latencies = await typingLatencies(t, 80, () => !flooding());
    const stillFlooding = flooding();
    t.press("Escape");
    await t.waitForText("● ready", 20_000);
    const p50 = quantile(latencies, 0.5);
    const p95 = quantile(latencies, 0.95);
    return [
      { metric: `key → screen latency while a tool floods (p50 / p95 of ${latencies.length} keys)`, value: `${ms(p50)} / ${ms(p95)}`, target: "p95 < 50 ms", pass: p95 < 50 && latencies.length >= 40 && stillFlooding },
      { metric: "key → screen latency when idle (p50 / p95)", value: `${ms(quantile(idle, 0.5))} / ${ms(quantile(idle, 0.95))}`, target: "" },
    ];
  } finally {
    await run.done();
  }
};

export const MEASUREMENTS: Array<{ name: string; run: Measurement }> = [
  { name: "startup", run: startup },
  { name: "seq round trip", run: seqRoundTrip },
  { name: "idle memory", run: idleRss },
  { name: "streaming", run: streamFrames },
  { name: "key latency", run: keyLatency },
  { name: "bash round trip", run: bashRoundTrip },
  { name: "sandbox cost", run: sandboxCost },
  { name: "job throughput", run: jobThroughput },
  { name: "job key latency", run: jobKeyLatency },
  { name: "job memory", run: jobMemory },
  { name: "soak", run: soak },
  { name: "day", run: day },
  { name: "large argument", run: largeArgument },
  { name: "agents", run: agentsBudget },
  { name: "remote", run: remoteRows },
];

function printTable(rows: Row[]): void {
  const header: Row = { metric: "metric", value: "value", target: "target" };
  const all = [header, ...rows];
  const widths = {
    metric: Math.max(...all.map((r) => r.metric.length)),
    value: Math.max(...all.map((r) => r.value.length)),
    target: Math.max(...all.map((r) => r.target.length)),
  };
  const line = (r: Row, result: string): string => `${r.metric.padEnd(widths.metric)}  ${r.value.padEnd(widths.value)}  ${r.target.padEnd(widths.target)}  ${result}`;
  process.stdout.write(`${line(header, "result")}\n${"-".repeat(widths.metric + widths.value + widths.target + 14)}\n`);
  for (const r of rows) process.stdout.write(`${line(r, r.pass === undefined ? "" : r.pass ? "pass" : "FAIL")}\n`);
}

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const rows: Row[] = [];
  for (const m of MEASUREMENTS) {
    if (only.length > 0 && !only.includes(m.name)) continue;
    process.stderr.write(`bench: ${m.name}…\n`);
    try {
      rows.push(...(await m.run()));
    } catch (error) {
      rows.push({ metric: m.name, value: `error: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`, target: "", pass: false });
    } finally {
      // Fixture folders a failed measurement left behind (vitest removes them in tests; nothing here does).
      removeTempDirs();
    }
  }
  printTable(rows);
  return rows.some((r) => r.pass === false) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
