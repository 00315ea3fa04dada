// The bench's day in the cockpit (`npm run bench -- day`): the dashboard in a pty at 160x48 against
// the fake LLM for 5,000 turns, each a `read` of a few KB and a short reply, in a 32k window (so it
// compacts every few turns), with two jobs running throughout (a ticker, and a flood every few
// seconds) and the person's keys arriving now and then. Measured over the turns up to 500 and the
// turns up to 5,000, in windows of 100 turns: the dashboard's and the job host's memory, frame time,
// key → screen, time per turn, open descriptors and temp files. A day must not cost more than an hour.
// Memory is each process's peak RSS over its window, sampled every 100 ms: one reading at the end
// of a window lands anywhere in a collector's cycle (the host's RSS climbs ~8 MB between V8's full
// collections, which let the old generation grow by that much past what is live), so two single
// readings differed by that cycle, not by the length of the day.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm, type FakeReply, type RecordedRequest } from "../fake-llm/index.js";
import { jobHostPids } from "../helpers/job-hosts.js";
import { removeTempDirs } from "../helpers/temp-dir.js";
import { PitwallTerminal } from "../helpers/terminal-harness.js";
import { isSummaryRequest } from "../helpers/wire-check.js";
import { ms, quantile, rssOf, type Measurement, type Row } from "./bench-harness.js";

const TURNS = 5_000;
const EARLY = 500;
/** Each figure is taken over the last WINDOW turns before EARLY and before TURNS. */
const WINDOW = 100;
const CONTEXT_WINDOW = 32_000;
/** Outside the windows, the person types a prompt key by key this often (inside them, every turn). */
const TYPED_EVERY = 50;
const RATIO = 1.15;
const RSS_SAMPLE_MS = 100;

interface Figures {
  dashboardRss: number;
  hostRss: number;
  frameP50: number;
  frameP95: number;
  keyP95: number;
  turnMs: number;
  fds: number;
  hostFds: number;
  tempFiles: number;
}

function endsWithToolResult(request: RecordedRequest): boolean {
  const messages = request.json["messages"];
  const last = Array.isArray(messages) ? (messages.at(-1) as Record<string, unknown> | undefined) : undefined;
  const content = last?.["content"];
  return Array.isArray(content) && (content.at(-1) as { type?: string } | undefined)?.type === "tool_result";
}

function fdCount(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The peak RSS of each process from start() until stop(), read every RSS_SAMPLE_MS. */
class PeakRss {
  private readonly peak = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  start(pids: () => Record<string, number | undefined>): void {
    this.peak.clear();
    const sample = (): void => {
      for (const [name, pid] of Object.entries(pids())) {
        if (pid === undefined) continue;
        try {
          this.peak.set(name, Math.max(this.peak.get(name) ?? 0, rssOf(pid)));
        } catch {
          // Between a process's exit and its pid leaving the list: nothing to read.
        }
      }
    };
    sample();
    this.timer = setInterval(sample, RSS_SAMPLE_MS);
    // A run that fails mid-window must not be held open by the sampler.
    this.timer.unref();
  }

  /** Stops sampling; each process's peak in MB (absent when it was never read). */
  stop(): Record<string, number> {
    clearInterval(this.timer);
    return Object.fromEntries(this.peak);
  }
}

/** Files under the run's temp folders (pitwall's full-output files and the like). */
function tempFileCount(folder: string): number {
  let n = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) if (entry.isFile() && entry.parentPath.includes("pitwall-")) n++;
  return n;
}

export const day: Measurement = async () => {
  const cwd = mkdtempSync(join(tmpdir(), "pitwall-day-"));
  const temp = join(cwd, "tmp");
  writeFileSync(join(cwd, "notes.txt"), Array.from({ length: 60 }, (_, i) => `${String(i).padStart(3, "0")} ${"a day in the cockpit, one read at a time ".repeat(2)}`).join("\n"));
  const statsPath = join(cwd, "frame-stats.json");
  const llm = await startFakeLlm({ keepRequests: 4 });
  let answered = 0;
  let summaries = 0;
  llm.setFallback((request): FakeReply => {
    if (isSummaryRequest(request)) {
      summaries++;
      return { kind: "reply", text: `## Goal\n- Read notes.txt when asked (summary ${summaries}).\n## Open\n- Keep reading.`, estimateUsage: true };
    }
    if (endsWithToolResult(request)) {
      answered++;
      return { kind: "reply", text: `Read it (${answered}).`, estimateUsage: true };
    }
    return { kind: "reply", text: "Reading.", toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }], estimateUsage: true };
  });
  mkdirSync(temp);
  const t = new PitwallTerminal({
    cols: 160,
    rows: 48,
    cwd,
    args: ["--context-window", String(CONTEXT_WINDOW)],
    env: { ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl, PITWALL_FRAME_STATS: statsPath, TMPDIR: temp },
  });
  try {
    await t.waitForText("● ready", 30_000);
    const command = async (text: string, shows: RegExp): Promise<void> => {
      t.press("Alt+0");
      t.type(text);
      t.press("Enter");
      await t.waitForText(shows, 30_000);
    };
    await command("/run while true; do echo tick $(date +%s); sleep 1; done", /▶ 1 /);
    await command("/run while true; do seq -f 'flood line %g' 1 20000; sleep 4; done", /2 while true; do seq/);
    t.press("Alt+0");

    const frames = (): number[] => (JSON.parse(readFileSync(statsPath, "utf8")) as { recent: number[] }).recent;
    const newWindow = (): Promise<void> => {
      process.kill(t.pid, "SIGUSR2");
      return new Promise((r) => setTimeout(r, 100));
    };
    const keys: number[] = [];
    /** Types "go" key by key, each key's latency recorded, then Enter. */
    const typePrompt = async (record: boolean): Promise<void> => {
      let typed = "";
      for (const ch of "go") {
        await new Promise((r) => setTimeout(r, 40));
        typed += ch;
        const sentAt = performance.now();
        t.type(ch);
        // The input's row (the lowest that starts "│ › "): the chat above shows earlier prompts too.
        const shown = new RegExp(`^│ › ${typed}\\s*│$`);
        await t.waitFor(() => shown.test(t.screenText().split("\n").filter((line) => line.startsWith("│ › ")).at(-1) ?? ""), 15_000, `the input to show ${typed}`);
        if (record) keys.push(performance.now() - sentAt);
      }
      t.press("Enter");
    };
    const figures: Figures[] = [];
    let windowStarted = 0;
    // jobHostPids looks in the folder and in its .pitwall both.
    const hostPid = (): number | undefined => jobHostPids(t.home)[0];
    const rss = new PeakRss();
    for (let turn = 1; turn <= TURNS; turn++) {
      const inWindow = (turn > EARLY - WINDOW && turn <= EARLY) || turn > TURNS - WINDOW;
      if (turn === EARLY - WINDOW + 1 || turn === TURNS - WINDOW + 1) {
        await newWindow();
        keys.length = 0;
        windowStarted = performance.now();
        rss.start(() => ({ dashboard: t.pid, host: hostPid() }));
      }
      if (inWindow || turn % TYPED_EVERY === 0) await typePrompt(inWindow);
      else {
        t.type("go");
        t.press("Enter");
      }
      const want = turn;
      await new Promise<void>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`turn ${turn} got no answer in 60 s`)), 60_000);
        const check = (): void => {
          if (answered >= want) {
            clearTimeout(deadline);
            resolve();
          } else setTimeout(check, 2);
        };
        check();
      });
      // The reply is drawn and the agent idle before the next prompt.
      await t.waitForText(`Read it (${turn}).`, 30_000);
      await t.waitForText("● ready", 30_000);
      if (turn === EARLY || turn === TURNS) {
        const turnMs = (performance.now() - windowStarted) / WINDOW;
        const peaks = rss.stop();
        await newWindow();
        const window = frames();
        const host = hostPid();
        figures.push({
          dashboardRss: peaks["dashboard"] ?? NaN,
          hostRss: peaks["host"] ?? NaN,
          frameP50: quantile(window, 0.5),
          frameP95: quantile(window, 0.95),
          keyP95: quantile(keys, 0.95),
          turnMs,
          fds: fdCount(t.pid),
          hostFds: host ? fdCount(host) : NaN,
          tempFiles: tempFileCount(temp),
        });
        process.stderr.write(`bench: day: ${turn} turns, ${summaries} compactions\n`);
      }
    }
    const [early, late] = figures as [Figures, Figures];
    const within = (a: number, b: number, slackMs = 0): boolean => b <= Math.max(a * RATIO, a + slackMs);
    const mb = (n: number): string => `${n.toFixed(0)} MB`;
    const row = (metric: string, a: number, b: number, show: (n: number) => string, slackMs = 0): Row => ({
      metric: `day: ${metric}, after ${EARLY} / ${TURNS} turns`,
      value: `${show(a)} / ${show(b)} (${(b / a).toFixed(2)}×)`,
      target: slackMs ? `≤ ${RATIO}× or +${slackMs} ms` : `≤ ${RATIO}×`,
      pass: within(a, b, slackMs),
    });
    return [
      row("dashboard RSS (peak in the window)", early.dashboardRss, late.dashboardRss, mb),
      row("job host RSS (peak in the window)", early.hostRss, late.hostRss, mb),
      row("frame time p50", early.frameP50, late.frameP50, ms, 2),
      row("frame time p95", early.frameP95, late.frameP95, ms, 2),
      row("key → screen p95", early.keyP95, late.keyP95, ms, 2),
      row("time per turn", early.turnMs, late.turnMs, ms),
      {
        metric: `day: open fds (dashboard, host) and temp files, after ${EARLY} / ${TURNS} turns`,
        value: `${early.fds}, ${early.hostFds}, ${early.tempFiles} / ${late.fds}, ${late.hostFds}, ${late.tempFiles}`,
        target: "equal",
        pass: early.fds === late.fds && early.hostFds === late.hostFds && early.tempFiles === late.tempFiles,
      },
      { metric: "day: compactions (summary requests)", value: String(summaries), target: "" },
    ];
  } finally {
    await t.close();
    await llm.close();
    rmSync(cwd, { recursive: true, force: true });
    removeTempDirs();
  }
};
