// The bench's job rows: how fast a job's output gets through pitwall (pty → the job host's registry
// and emulator → screen updates over the socket → the job terminal on screen) next to node-pty alone
// reading the same command on this machine, in the same run; how soon a typed key shows while a job
// floods with its terminal on screen; and the dashboard's memory after eight jobs printed 50 MiB
// each, the job host's (which holds the emulators and logs now) beside it.
import * as pty from "node-pty";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";
import { jobHostPids } from "../helpers/job-hosts.js";
import { launch, ms, paired, quantile, rssOf, spread, typingLatencies, type Measurement } from "./bench-harness.js";

const LOG_LINE = "2026-11-22T10:00:00Z INFO request handled in 12ms path=/api/items?id=42 status=200";
/** The same line as a logger that colours its levels prints it (printf turns \033 into ESC). */
const COLOURED_LINE = "2026-11-22T10:00:00Z \\033[32mINFO\\033[0m request handled in 12ms path=/api/items?id=42 status=200";
const MIB = 1024 * 1024;
/** A job printing log lines as fast as it can: `bytes` of them, then it exits. */
const floodCommand = (bytes: number, line = LOG_LINE): string => `yes "$(printf '${line}')" | head -c ${bytes}`;
const THROUGHPUT_BYTES = 100 * MIB;

/** node-pty alone reading the command: bytes received and seconds until the exit. */
function rawPty(command: string): Promise<{ bytes: number; seconds: number }> {
  return new Promise((resolve) => {
    const started = performance.now();
    let bytes = 0;
    const proc = pty.spawn("/bin/bash", ["-c", command], { cols: 120, rows: 30, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    proc.onData((data) => {
      bytes += Buffer.byteLength(data);
    });
    proc.onExit(() => resolve({ bytes, seconds: (performance.now() - started) / 1000 }));
  });
}

function run(t: PitwallTerminal, command: string): void {
  t.type(`/run ${command}`);
  t.press("Enter");
}

const mbps = (bytes: number, seconds: number): number => bytes / MIB / seconds;

/**
 * One pitwall for all the floods of a row, as raw node-pty's runs share one process: a host that
 * starts cold each time (its code not yet optimized, the first ~0.5 s of a flood at half speed)
 * would measure a start-up no user meets twice, while raw node-pty's runs after its first are warm.
 */
async function pitwallSession(): Promise<{ flood(command: string, bytes: number): Promise<number>; done(): Promise<void> }> {
  const b = await launch();
  let jobs = 0;
  try {
    await b.t.waitForText("● ready", 20_000);
    // The job host starts with a folder's first job, once (~250 ms of node starting): a job that
    // ends at once has it running before the clock starts, as raw node-pty's process is.
    run(b.t, "true");
    jobs++;
    await b.t.waitForText(/1 true .*exit 0/, 20_000);
  } catch (error) {
    await b.done();
    throw error;
  }
  return {
    /** The flood through pitwall: its job's output in MB/s, from Enter to the exit in the jobs list. */
    async flood(command: string, bytes: number): Promise<number> {
      const id = ++jobs;
      const started = performance.now();
      run(b.t, command);
      // The job's exit in the list; the emulator has parsed it all by then (the pty is paused while it lags).
      await b.t.waitForText(new RegExp(`${id} yes .*exit 0`), 300_000);
      const seconds = (performance.now() - started) / 1000;
      // Its terminal shows the last lines, as a terminal would.
      const screen = b.t.screenText();
      if (!screen.includes("status=200")) throw new Error(`the job terminal does not show the output:\n${screen}`);
      return mbps(bytes, seconds);
    },
    done: () => b.done(),
  };
}

/** Runs of raw node-pty and of pitwall, taken in turns, for each line kind of the throughput row. */
const PAIRS = 5;

/**
 * Raw node-pty reading the flood and the flood through pitwall, in MB/s, PAIRS times each in
 * turns (bench-harness.ts's `paired`: on this VM raw node-pty alone ranges by a third within an
 * hour, so a best run of either measures the VM's luck more than pitwall).
 */
async function throughput(line: string): Promise<{ raw: number[]; through: number[] }> {
  const command = floodCommand(THROUGHPUT_BYTES, line);
  const raw: number[] = [];
  const through: number[] = [];
  const pitwall = await pitwallSession();
  try {
    for (let i = 0; i < PAIRS; i++) {
      const r = await rawPty(command);
      raw.push(mbps(r.bytes, r.seconds));
      through.push(await pitwall.flood(command, r.bytes));
    }
  } finally {
    await pitwall.done();
  }
  return { raw, through };
}

export const jobThroughput: Measurement = async () => {
  const plain = await throughput(LOG_LINE);
  const coloured = await throughput(COLOURED_LINE);
  const pairs = { plain: paired(plain.raw, plain.through), coloured: paired(coloured.raw, coloured.through) };
  const percent = ({ ratio, ratios }: ReturnType<typeof paired>): string => `${(ratio * 100).toFixed(0)} % (pairs ${spread(ratios.map((r) => r * 100), 0)} %)`;
  return [
    { metric: `raw node-pty reading a job's ${THROUGHPUT_BYTES / MIB} MiB of log lines (median of ${PAIRS}, range)`, value: `${pairs.plain.baseline.toFixed(1)} MB/s (${spread(plain.raw)})`, target: "" },
    { metric: `the same through the job host's emulator and the job terminal on screen (median of ${PAIRS}, range)`, value: `${pairs.plain.measured.toFixed(1)} MB/s (${spread(plain.through)})`, target: "" },
    { metric: `  through pitwall / raw, each pair run back to back (median of ${PAIRS} pairs)`, value: percent(pairs.plain), target: "≥ 75 % of raw", pass: pairs.plain.ratio >= 0.75 },
    { metric: "  with the level coloured (SGR): raw / through pitwall (medians), through / raw (median of pairs)", value: `${pairs.coloured.baseline.toFixed(1)} / ${pairs.coloured.measured.toFixed(1)} MB/s, ${percent(pairs.coloured)}`, target: "" },
  ];
};

export const jobKeyLatency: Measurement = async () => {
  const b = await launch();
  try {
    const { t } = b;
    await t.waitForText("● ready", 20_000);
    // An endless flood, its terminal on screen (a new job is selected), the input focused.
    run(t, `yes "${LOG_LINE}"`);
    // The job terminal keeps a one-column margin inside its border.
    await t.waitForText(/│ ?2026-11-22T10:00:00Z INFO/, 20_000);
    const flooding = (): boolean => /▶ 1 yes .*up \d/.test(t.screenText());
    const latencies = await typingLatencies(t, 80, () => !flooding());
    const stillFlooding = flooding();
    t.press("Alt+3");
    t.type("X");
    await t.waitForText(/1 yes .*killed KILL/, 20_000);
    const p50 = quantile(latencies, 0.5);
    const p95 = quantile(latencies, 0.95);
    return [
      { metric: `key → screen latency while a job floods on screen (p50 / p95 of ${latencies.length} keys)`, value: `${ms(p50)} / ${ms(p95)}`, target: "p95 < 30 ms", pass: p95 < 30 && latencies.length >= 40 && stillFlooding },
    ];
  } finally {
    await b.done();
  }
};

export const jobMemory: Measurement = async () => {
  const JOBS = 8;
  const calls = Array.from({ length: JOBS }, () => ({ name: "bash_stream", arguments: { command: floodCommand(50 * MIB), yieldMs: 1000 } }));
  // The model's jobs: they keep the registry's 120×30 emulators (the person's start at the pane's size).
  const b = await launch([{ kind: "reply", text: "Eight floods.", toolCalls: calls }, { kind: "reply", text: "All started." }]);
  try {
    const { t } = b;
    await t.waitForText("● ready", 20_000);
    t.type("flood");
    t.press("Enter");
    await t.waitForText("All started.", 60_000);
    // Every job has started; when none is up any more, all have printed their 50 MiB.
    await t.waitFor(() => (/\d+ jobs? up/.test(t.screenText().split("\n").at(-1) ?? "") ? undefined : true), 300_000, `all ${JOBS} jobs to finish`);
    const finished = (t.screenText().match(/exit 0/g) ?? []).length;
    if (finished < 4) throw new Error(`expected the finished jobs in the list:\n${t.screenText()}`);
    const atEnd = rssOf(t.pid);
    const [hostPid] = jobHostPids(t.home);
    if (hostPid === undefined) throw new Error("no job host runs for the dashboard's jobs");
    const hostAtEnd = rssOf(hostPid);
    // Finished jobs keep their terminals and logs (listed for 30 minutes). V8 hands back the heap a
    // flood grew once the process has been idle for a while (as in the idle row): wait for that.
    let settled = atEnd;
    for (let waited = 0; waited < 30_000; waited += 1000) {
      await new Promise((r) => setTimeout(r, 1000));
      settled = Math.min(settled, rssOf(t.pid));
    }
    const hostSettled = rssOf(hostPid);
    return [
      { metric: `dashboard RSS after ${JOBS} jobs printed 50 MiB each (right after / settled, within 30 s idle)`, value: `${atEnd.toFixed(0)} MB / ${settled.toFixed(0)} MB`, target: "right after < 150 MB", pass: atEnd < 150 },
      { metric: "the job host's RSS then (its emulators and logs; right after / 30 s later)", value: `${hostAtEnd.toFixed(0)} MB / ${hostSettled.toFixed(0)} MB`, target: "" },
    ];
  } finally {
    await b.done();
  }
};
