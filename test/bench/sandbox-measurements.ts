// The bench's sandbox rows, each measured fenced and unfenced in the same run, taking turns so the
// machine's load weighs on both alike: a bash call's round trip under the workspace profile against
// the same call with --sandbox off (the median of a run's later calls), and a job's 100 MiB flood
// under workspace against the same job run again under off (one dashboard, the person's job
// restarted under each profile in turn). The round trip is judged on the median of five
// back-to-back pairs: a pair's two runs meet the same load, where the best of five of each (as
// these rows were judged until November 28) compared two lucky runs. The flood's target (5 %) is
// smaller than one flood's own spread on the 2-core VM (one flood's speed varies by ~10 % from run
// to run, fenced or not, as raw node-pty's does, and one pair's ratio by ~14 %; a 300 MiB flood
// varies as much, so it is not the start), so it takes forty pairs, the fenced run first in every
// other one, and is judged on all of each side's floods together (MiB over seconds): a median of
// five pairs moved by ±8 %, twenty pairs together by ±5 % (94-105 % in six runs of one build).
import { bwrapAvailability } from "../../tools/sandbox/index.js";
import { bashCallTimes } from "./bash-measurements.js";
import { launch, ms, paired, quantile, spread, type Measurement, type Row } from "./bench-harness.js";

const ROUNDS = 5;
const FLOOD_PAIRS = 40;
const MIB = 1024 * 1024;
const FLOOD_BYTES = 100 * MIB;
const LOG_LINE = "2026-11-22T10:00:00Z INFO request handled in 12ms path=/api/items?id=42 status=200";
const FLOOD = `yes "${LOG_LINE}" | head -c ${FLOOD_BYTES}`;

/** Median of a run's later calls (the first pays for the job host's start). */
async function laterMedian(args: string[]): Promise<number> {
  return quantile((await bashCallTimes(args)).slice(1), 0.5);
}

async function roundTrips(): Promise<Row[]> {
  const off: number[] = [];
  const workspace: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    off.push(await laterMedian(["--sandbox", "off"]));
    workspace.push(await laterMedian(["--sandbox", "workspace"]));
  }
  const { baseline, measured, ratios, ratio } = paired(off, workspace);
  return [
    { metric: `bash round trip, later calls' median (median of ${ROUNDS} runs): --sandbox off`, value: ms(baseline), target: "" },
    { metric: `  the same under the workspace profile (bwrap), taking turns (median of ${ROUNDS} pairs, range)`, value: `${ms(measured)} (${ratio.toFixed(2)}×, pairs ${spread(ratios, 2)}×)`, target: "≤ 1.2× off", pass: ratio <= 1.2 },
  ];
}

async function floods(): Promise<Row[]> {
  const b = await launch();
  try {
    const { t } = b;
    await t.waitForText("● ready", 20_000);
    // The job host starts with the first job, before any clock runs.
    t.type("/run true");
    t.press("Enter");
    await t.waitForText(/1 true .*exit 0/, 20_000);
    let restarts = -1;
    /** Runs the flood as job 2 (its first run, then restarts under `profile`): MB/s from Enter to its exit in the list. */
    const flood = async (profile: "off" | "workspace"): Promise<number> => {
      restarts++;
      const started = performance.now();
      t.type(restarts === 0 ? `/run ${FLOOD}` : `/restart 2 ${profile}`);
      t.press("Enter");
      const tag = profile === "workspace" ? "workspace " : "";
      await t.waitForText(new RegExp(`2 yes .*${tag}${restarts > 0 ? `↻${restarts} ` : ""}exit 0`), 300_000);
      return FLOOD_BYTES / MIB / ((performance.now() - started) / 1000);
    };
    // The person's jobs run off by default: the first run is unfenced, and warms the host up.
    await flood("off");
    const off: number[] = [];
    const workspace: number[] = [];
    for (let pair = 0; pair < FLOOD_PAIRS; pair++) {
      // Which goes first alternates, so neither side always meets what the other left behind.
      if (pair % 2 === 0) workspace.push(await flood("workspace"));
      off.push(await flood("off"));
      if (pair % 2 === 1) workspace.push(await flood("workspace"));
    }
    // All of a side's floods together: MiB over the seconds they took.
    const overall = (speeds: number[]): number => speeds.length / speeds.reduce((seconds, speed) => seconds + 1 / speed, 0);
    const ratio = overall(workspace) / overall(off);
    const { ratios } = paired(off, workspace);
    return [
      { metric: `a job's ${FLOOD_BYTES / MIB} MiB flood through the dashboard (all ${FLOOD_PAIRS} runs together, range): profile off`, value: `${overall(off).toFixed(1)} MB/s (${spread(off)})`, target: "" },
      {
        metric: `  the same job restarted under workspace (bwrap), taking turns (${FLOOD_PAIRS} pairs together, range of pairs)`,
        value: `${overall(workspace).toFixed(1)} MB/s (${(ratio * 100).toFixed(0)} %, pairs ${spread(ratios, 2)}×)`,
        target: "≥ 95 % of off",
        pass: ratio >= 0.95,
      },
    ];
  } finally {
    await b.done();
  }
}

export const sandboxCost: Measurement = async () => {
  const available = await bwrapAvailability();
  if (!available.ok) return [{ metric: "sandbox cost", value: `not measured: ${available.reason}`, target: available.fix, pass: false }];
  return [...(await roundTrips()), ...(await floods())];
};
