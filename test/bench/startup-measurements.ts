// Startup as a person feels it, against the floor the machine allows, all measured in one run so
// a loaded machine slows both sides alike: bare `node` to its first output, pitwall's launch → first
// complete frame and launch → ready (the status says ready, and a prompt typed then reaches the
// model at once), each the median of 7 interleaved launches; and `seq 1 200000` through the bash
// tool, Enter → final answer, first call of a dashboard and later ones, against the same two model
// answers and the same command in a raw pseudo-terminal without pitwall in the loop.
import * as pty from "node-pty";
import { startFakeLlm, type FakeScript } from "../fake-llm/index.js";
import { jobHostPids } from "../helpers/job-hosts.js";
import { launch, ms, quantile, rssOf, type Measurement, type Row } from "./bench-harness.js";

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
const CALLS_PER_RUN = 3;
const RUNS = 5;

const roundTrip = (n: number): FakeScript[] => [
  { kind: "reply", text: "Counting.", toolCalls: [{ name: "bash", arguments: { command: SEQ } }] },
  { kind: "reply", text: `Counted to 200000, call ${n}.` },
];

/**
 * The fastest the round trip could be with a terminal in the loop: the same two streamed answers,
 * and the same command run in a raw pseudo-terminal (what any agent that runs commands in a
 * terminal pays; a pipe is cheaper but no such agent uses one), with no pitwall.
 */
async function roundTripFloor(): Promise<number> {
  const llm = await startFakeLlm();
  try {
    llm.enqueue(...roundTrip(1));
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
    const output = await new Promise<string>((resolve) => {
      const child = pty.spawn("/bin/sh", ["-c", SEQ], { cols: 120, rows: 40 });
      const parts: string[] = [];
      child.onData((d) => parts.push(d));
      child.onExit(() => resolve(parts.join("")));
    });
    // The tool result pitwall sends is capped; send the same amount of text back.
    await ask({ model: "claude-sonnet-5-5", max_tokens: 1024, stream: true, messages: [{ role: "user", content: output.slice(0, 30_000) }] });
    return performance.now() - started;
  } finally {
    await llm.close();
  }
}

/**
 * One dashboard, CALLS_PER_RUN round trips, Enter → final answer each. The first prompt is typed
 * once the dashboard has started its job host in the background (it does within about a second
 * of being idle after ready, sooner than a person types a first prompt); the host's RSS then is
 * what a person who never runs a command pays.
 */
async function roundTripsInPitwall(): Promise<{ times: number[]; bashStages: number[]; hostRss: number }> {
  const replies: FakeScript[] = [];
  for (let n = 1; n <= CALLS_PER_RUN; n++) replies.push(...roundTrip(n));
  const run = await launch(replies);
  try {
    await run.t.waitForText("● ready", 20_000);
    const deadline = performance.now() + 20_000;
    let host: number | undefined;
    while ((host = jobHostPids(run.t.home)[0]) === undefined) {
      if (performance.now() > deadline) throw new Error("the idle dashboard did not start its job host within 20 s");
      await new Promise((r) => setTimeout(r, 50));
    }
    // The host is up once its pid is written; its memory settles once its first tick has run.
    await new Promise((r) => setTimeout(r, 2000));
    const hostRss = rssOf(host);
    const times: number[] = [];
    const bashStages: number[] = [];
    for (let n = 1; n <= CALLS_PER_RUN; n++) {
      run.t.type(`count to 200000, call ${n}`);
      const started = performance.now();
      run.t.press("Enter");
      await run.t.waitForText(`Counted to 200000, call ${n}.`, 60_000);
      times.push(performance.now() - started);
      // The bash stage as the model sees it: from the request its call answers to the request
      // with its result (the same streamed answer in between each time).
      const [asked, answered] = run.llm.requests.slice(-2);
      bashStages.push(answered!.receivedAt - asked!.receivedAt);
      await run.t.waitForText("● ready", 20_000);
    }
    return { times, bashStages, hostRss };
  } finally {
    await run.done();
  }
}

export const seqRoundTrip: Measurement = async (): Promise<Row[]> => {
  const floors: number[] = [];
  const firsts: number[] = [];
  const laters: number[] = [];
  const hostRss: number[] = [];
  const firstStages: number[] = [];
  const laterStages: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(await roundTripFloor());
    const run = await roundTripsInPitwall();
    firsts.push(run.times[0]!);
    laters.push(...run.times.slice(1));
    hostRss.push(run.hostRss);
    firstStages.push(run.bashStages[0]!);
    laterStages.push(...run.bashStages.slice(1));
  }
  const firstStage = quantile(firstStages, 0.5);
  const laterStage = quantile(laterStages, 0.5);
  const floor = quantile(floors, 0.5);
  const first = quantile(firsts, 0.5);
  const later = quantile(laters, 0.5);
  return [
    { metric: `\`${SEQ}\` via bash in the dashboard, Enter → final answer, first call of a run (median of ${RUNS})`, value: `${ms(first)} (${(first / floor).toFixed(2)}× the floor)`, target: "≤ 2× the floor", pass: first <= floor * 2 },
    { metric: `  the same, later calls (median of ${laters.length})`, value: `${ms(later)} (${(later / floor).toFixed(2)}× the floor)`, target: "≤ 1.3× the floor", pass: later <= floor * 1.3 },
    { metric: "  first call against later ones, Enter → answer", value: `${(first / later).toFixed(2)}×`, target: "" },
    {
      metric: "  the bash stage (request answered with the call → request with its result), first / later",
      value: `${ms(firstStage)} / ${ms(laterStage)} (${(firstStage / laterStage).toFixed(2)}×)`,
      target: "first ≤ 1.3× later",
      pass: firstStage <= laterStage * 1.3,
    },
    { metric: "  floor: the same answers, the command in a raw pty, no pitwall (median)", value: ms(floor), target: "" },
    { metric: "job host RSS when idle (started in the background, no command run yet; median)", value: `${quantile(hostRss, 0.5).toFixed(1)} MB`, target: "" },
  ];
};
