// installJobCleanup ends every job however the process ends. It calls process.exit, so it is tested
// in a child node process that runs the compiled registry from dist/ (npm test builds it first).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { tempDir } from "./helpers.js";
import { waitFor } from "../helpers/conditions.js";
import { survivors } from "../helpers/processes.js";

const buildDir = join(REPO_ROOT, "dist");

beforeAll(assertBuilt);

type Ending = "SIGTERM" | "SIGINT" | "SIGHUP" | "uncaught" | "exit";

function childScript(ending: Ending): string {
  return `
import { JobRegistry, installJobCleanup } from ${JSON.stringify(join(buildDir, "tools/jobs/index.js"))};
const registry = new JobRegistry({ cwd: process.cwd(), env: process.env, settings: { killGraceMs: 500 } });
installJobCleanup(registry);
const jobs = [
  registry.start({ command: "sleep 300", startedBy: "agent" }),
  registry.start({ command: "sleep 301 & sleep 302 & echo forked; wait", stdinMode: "pipe", startedBy: "agent" }),
  registry.start({ command: "trap '' TERM HUP INT; echo armed; while true; do sleep 0.1; done", startedBy: "person" }),
];
// Both background sleeps of the pipe job are forked once it says so.
const armed = () => jobs[2].log.keptText().includes("armed") && jobs[1].log.keptText().includes("forked");
const timer = setInterval(() => {
  if (!armed()) return;
  clearInterval(timer);
  process.stdout.write("READY " + JSON.stringify(jobs.map((j) => j.pid)) + "\\n");
}, 20);
// The test says when to end (SIGUSR2), once it has seen every job process up.
${ending === "uncaught" ? 'process.on("SIGUSR2", () => setTimeout(() => { throw new Error("boom from the test"); }, 0));' : ""}
${ending === "exit" ? 'process.on("SIGUSR2", () => process.exit(0));' : ""}
setInterval(() => {}, 1000);
`;
}

async function runChild(ending: Ending): Promise<{ code: number | null; stderr: string; pgids: number[] }> {
  const dir = tempDir();
  const script = join(dir, "child.mjs");
  writeFileSync(script, childScript(ending));
  const child = spawn(process.execPath, [script], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolveExit) => child.on("exit", (code) => resolveExit(code)));
  try {
    await waitFor(() => stdout.includes("READY "), `the child to start its jobs (stderr: ${stderr})`, 20_000);
    const pgids = JSON.parse(stdout.slice(stdout.indexOf("READY ") + 6).split("\n")[0]!) as number[];
    expect(survivors(pgids).length).toBeGreaterThanOrEqual(4);
    child.kill(ending === "SIGTERM" || ending === "SIGINT" || ending === "SIGHUP" ? ending : "SIGUSR2");
    const code = await exited;
    return { code, stderr, pgids };
  } finally {
    if (child.exitCode === null) child.kill("SIGKILL");
  }
}

describe("installJobCleanup", () => {
  const cases: [Ending, number][] = [
    ["SIGTERM", 143],
    ["SIGINT", 130],
    ["SIGHUP", 129],
    ["uncaught", 1],
    ["exit", 0],
  ];
  for (const [ending, expectedCode] of cases) {
    it(`leaves no job process behind when pitwall ends by ${ending}`, async () => {
      const { code, stderr, pgids } = await runChild(ending);
      expect(code).toBe(expectedCode);
      if (ending === "uncaught") expect(stderr).toContain("boom from the test");
      // KILL is sent synchronously on 'exit'; give the kernel a moment to take the processes down.
      await waitFor(() => survivors(pgids).length === 0, "every job group to be gone", 5_000);
    }, 40_000);
  }
});
