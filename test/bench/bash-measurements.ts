// The bench's bash row: how long a bash call that prints a lot takes from the tool's start to its
// result, seen from outside (JSON mode's tool_execution_start and tool_execution_end events as they
// arrive). The first call of a run pays for anything started on demand (the job host); the later
// ones are what every call costs.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlm, type FakeScript } from "../fake-llm/index.js";
import { CLI_PATH } from "../helpers/cli-process.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { ms, quantile, type Measurement } from "./bench-harness.js";

const CALLS = 7;
const COMMAND = "seq 1 200000";

export const bashRoundTrip: Measurement = async () => {
  const took = await bashCallTimes();
  const later = took.slice(1);
  return [
    { metric: `bash \`${COMMAND}\` start → result, first call of a run`, value: ms(took[0]!), target: "" },
    { metric: `the same, later calls (median / max of ${later.length})`, value: `${ms(quantile(later, 0.5))} / ${ms(Math.max(...later))}`, target: "" },
  ];
};

/** One run of pitwall --json (with `args`) making CALLS bash calls: each call's start → result, in ms. */
export async function bashCallTimes(args: string[] = []): Promise<number[]> {
  const cwd = mkdtempSync(join(tmpdir(), "pitwall-bench-bash-"));
  const llm = await startFakeLlm();
  const script: FakeScript[] = [];
  for (let i = 0; i < CALLS; i++) script.push({ kind: "reply", text: "Counting.", toolCalls: [{ name: "bash", arguments: { command: COMMAND } }] });
  script.push({ kind: "reply", text: "Counted." });
  llm.enqueue(...script);
  const child = spawn(process.execPath, [CLI_PATH, "--json", "--cwd", cwd, ...args], {
    env: { PATH: process.env.PATH, HOME: cwd, TMPDIR: cwd, PITWALL_HOME: join(cwd, ".pitwall"), ANTHROPIC_API_KEY: "bench-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl },
    stdio: ["pipe", "pipe", "inherit"],
  });
  try {
    const started = new Map<string, number>();
    const took: number[] = [];
    const events = new JsonLineReader<{ type: string; toolCallId?: string; content?: string }>(child.stdout);
    // Times are taken as the lines arrive, not when the reader is asked.
    child.stdout.on("data", () => {
      for (const event of events.items.splice(0)) {
        if (event.type === "tool_execution_start") started.set(event.toolCallId!, performance.now());
        if (event.type === "tool_execution_end") {
          if (!event.content?.includes("200000")) throw new Error(`the bash call did not return the output: ${event.content?.slice(0, 200)}`);
          took.push(performance.now() - started.get(event.toolCallId!)!);
        }
      }
    });
    child.stdin.write(`${JSON.stringify({ type: "message", content: "count" })}\n`);
    child.stdin.end();
    await new Promise<void>((resolve, reject) => child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`pitwall --json exited with ${code}`)))));
    if (took.length !== CALLS) throw new Error(`expected ${CALLS} bash calls, saw ${took.length}`);
    return took;
  } finally {
    child.kill("SIGKILL");
    await llm.close();
    rmSync(cwd, { recursive: true, force: true });
  }
}
