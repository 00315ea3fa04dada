/**
 * What `npm test` runs once the build is done: ESLint and every vitest tier at the same time, since
 * the lint is one long single-threaded job (a type-aware pass over the whole program) that would
 * otherwise add its whole time to the run. The lint runs at a lower priority: the tests wait on
 * processes of their own much of the time (a third of two cores sits idle in a run alone), and the
 * lint fills those gaps rather than taking a core from a test that a deadline or a timed screen
 * waits on. Vitest's report streams as it comes; ESLint's follows it. Exits non-zero when either
 * fails, and ends both if it is stopped itself.
 *
 *   node dist/test/helpers/run-checks.js [vitest arguments...]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { setPriority } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const require = createRequire(join(root, "package.json"));

/** The file a package's command runs (`bin` in its package.json), as npm would put it on PATH. */
function binOf(pkg: string, command: string): string {
  const manifest = require(`${pkg}/package.json`) as { bin?: string | Record<string, string> };
  const bin = typeof manifest.bin === "string" ? manifest.bin : manifest.bin?.[command];
  if (!bin) throw new Error(`${pkg} has no "${command}" command: is it installed (npm install)?`);
  return join(dirname(require.resolve(`${pkg}/package.json`)), bin);
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  seconds: number;
}

const running = new Set<ChildProcess>();

/** The lint's niceness: below the tests, which it must not slow. */
const LINT_PRIORITY = 10;

function run(command: string, args: string[], output: "inherit" | "collect", collected: string[] = [], priority?: number): Promise<Outcome> {
  const started = performance.now();
  const child = spawn(process.execPath, [command, ...args], { cwd: root, stdio: output === "inherit" ? "inherit" : ["ignore", "pipe", "pipe"] });
  running.add(child);
  if (priority !== undefined && child.pid !== undefined) {
    try {
      setPriority(child.pid, priority);
    } catch {
      // Where priorities cannot be set, both run as equals, as before.
    }
  }
  child.stdout?.setEncoding("utf8").on("data", (text: string) => collected.push(text));
  child.stderr?.setEncoding("utf8").on("data", (text: string) => collected.push(text));
  return new Promise((resolve) => {
    child.on("error", (error) => {
      collected.push(`${error.message}\n`);
      resolve({ code: 1, signal: null, seconds: 0 });
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      resolve({ code, signal, seconds: (performance.now() - started) / 1000 });
    });
  });
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    for (const child of running) child.kill(signal);
    process.exitCode = 1;
  });
}

function verdict(outcome: Outcome): string {
  if (outcome.code === 0) return `passed (${outcome.seconds.toFixed(0)} s)`;
  return outcome.signal ? `stopped by ${outcome.signal}` : `failed (exit ${outcome.code})`;
}

const lintOutput: string[] = [];
const lint = run(binOf("eslint", "eslint"), [], "collect", lintOutput, LINT_PRIORITY);
const tests = run(binOf("vitest", "vitest"), ["run", "--config", "test/vitest.config.ts", ...process.argv.slice(2)], "inherit");
const [testsDone, lintDone] = await Promise.all([tests, lint]);

const lintText = lintOutput.join("");
if (lintText.trim() !== "") process.stdout.write(`\nESLint:\n${lintText}`);
process.stdout.write(`\nnpm test: tests ${verdict(testsDone)}, lint ${verdict(lintDone)}\n`);
if (testsDone.code !== 0 || lintDone.code !== 0) process.exitCode = 1;
