// Startup as a person feels it, against the floor the machine allows, all measured in one run so
// a loaded machine slows both sides alike: bare `node` to its first output, pitwall's launch → first
// complete frame and launch → ready (the status says ready, and a prompt typed then reaches the
// model at once), each the median of 7 interleaved launches; and `seq 1 200000` through the bash
// tool, Enter → final answer, against the same two model answers and the same command run without
// pitwall in the loop.
import { spawn } from "node:child_process";
import * as pty from "node-pty";
import { startFakeLlm, type FakeScript } from "../fake-llm/index.js";
import { launch, ms, quantile, type Measurement, type Row } from "./bench-harness.js";

const LAUNCHES = 7;

/** Time from spawning `node -e` in a pseudo-terminal to its first output: what any Node program pays. */
function bareNode(): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const p = pty.spawn(process.execPath, ["-e", "process.stdout.write('hello\\n')"], { cols: 120, rows: 40, env: process.env as Record<string, string> });
    let first: number | undefined;
    p.onData(() => (first ??= performance.now() - started));
    p.onExit(() => (first === undefined ? reject(new Error("bare node printed nothing")) : resolve(first)));
  });
}

/** Time of arrival of the first chunk that ends a synchronized frame. */
function firstFrameAt(chunks: ReadonlyArray<{ data: string; at: number }>): number | undefined {
  return chunks.find((c) => c.data.includes("\x1b[?2026l"))?.at;
}

interface Launch {
  frame: number;
  ready: number;
  /** From typing a prompt at the ready moment (and Enter) to the request's arrival at the model. */
  promptToRequest: number;
}

async function launchOnce(): Promise<Launch> {
  const run = await launch([{ kind: "reply", text: "Hello." }]);
  try {
    await run.t.waitForText("● ready", 20_000);
    const ready = performance.now() - run.spawnedAt;
    const frameAt = firstFrameAt(run.t.chunks);
    if (frameAt === undefined) throw new Error("no synchronized frame was drawn");
    const typedAt = performance.now();
    run.t.type("hi");
    run.t.press("Enter");
    await run.llm.waitForRequest(1, 20_000);
    const promptToRequest = performance.now() - typedAt;
    return { frame: frameAt - run.spawnedAt, ready, promptToRequest };
  } finally {
    await run.done();
  }
}

const ratio = (value: number, floor: number): string => `${(value / floor).toFixed(1)}× node`;

export const startup: Measurement = async () => {
  const bare: number[] = [];
  const launches: Launch[] = [];
  for (let i = 0; i < LAUNCHES; i++) {
    bare.push(await bareNode());
    launches.push(await launchOnce());
  }
  const node = quantile(bare, 0.5);
  const frame = quantile(launches.map((l) => l.frame), 0.5);
  const ready = quantile(launches.map((l) => l.ready), 0.5);
  const send = quantile(launches.map((l) => l.promptToRequest), 0.5);
  return [
    { metric: `bare node → first output (median of ${LAUNCHES})`, value: ms(node), target: "" },
    { metric: "launch → first complete frame (median)", value: `${ms(frame)} (${ratio(frame, node)})`, target: "< 200 ms", pass: frame < 200 },
    {
      metric: "launch → ready (median)",
      value: `${ms(ready)} (${ratio(ready, node)}, node + ${ms(ready - node)})`,
      target: "≤ 200 ms, or ≤ node + 130 ms",
      pass: ready <= 200 || ready - node <= 130,
    },
    { metric: "prompt typed at ready → request at the model (median)", value: ms(send), target: "< 50 ms", pass: send < 50 },
  ];
};

const SEQ = "seq 1 200000";
const ROUND_TRIP: FakeScript[] = [
  { kind: "reply", text: "Counting.", toolCalls: [{ name: "bash", arguments: { command: SEQ } }] },
  { kind: "reply", text: "Counted to 200000." },
];

/** The fastest the round trip could be: the same two streamed answers and the same command, no pitwall. */
async function roundTripFloor(): Promise<number> {
  const llm = await startFakeLlm();
  try {
    llm.enqueue(...ROUND_TRIP);
    const ask = async (body: object): Promise<void> => {
      const response = await fetch(`${llm.anthropicBaseUrl}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "bench-key", "anthropic-version": "2023-06-01" },
        body: JSON.stringify(body),
      });
      await response.text();
    };
    const started = performance.now();
    await ask({ model: "claude-sonnet-5-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: "count" }] });
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn("/bin/sh", ["-c", SEQ], { stdio: ["ignore", "pipe", "pipe"] });
      const parts: Buffer[] = [];
      child.stdout.on("data", (d: Buffer) => parts.push(d));
      child.on("error", reject);
      child.on("close", () => resolve(Buffer.concat(parts).toString("utf8")));
    });
    // The tool result pitwall sends is capped; send the same amount of text back.
    await ask({ model: "claude-sonnet-5-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: output.slice(0, 30_000) }] });
    return performance.now() - started;
  } finally {
    await llm.close();
  }
}

async function roundTripInPitwall(): Promise<number> {
  const run = await launch(ROUND_TRIP);
  try {
    await run.t.waitForText("● ready", 20_000);
    run.t.type("count to 200000");
    const started = performance.now();
    run.t.press("Enter");
    await run.t.waitForText("Counted to 200000.", 60_000);
    return performance.now() - started;
  } finally {
    await run.done();
  }
}

export const seqRoundTrip: Measurement = async (): Promise<Row[]> => {
  const floors: number[] = [];
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    floors.push(await roundTripFloor());
    times.push(await roundTripInPitwall());
  }
  const floor = quantile(floors, 0.5);
  const time = quantile(times, 0.5);
  return [
    { metric: `\`${SEQ}\` via bash, Enter → final answer (median of 5)`, value: `${ms(time)} (${(time / floor).toFixed(2)}× the floor)`, target: "≤ 1.1× the floor", pass: time <= floor * 1.1 },
    { metric: "  floor: the same answers and command without pitwall (median)", value: ms(floor), target: "" },
  ];
};
