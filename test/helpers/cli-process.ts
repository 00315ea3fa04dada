// Runs the bundled CLI (dist/bundle/cli.cjs, what `pitwall` runs) as a child process with a controlled environment: no
// inherited API keys, a private PITWALL_HOME, fast retries. For print and JSON mode tests.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "./temp-dir.js";

export const REPO_ROOT = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/dist\/?$/, "");
export const CLI_PATH = join(REPO_ROOT, "dist", "bundle", "cli.cjs");

export function assertBuilt(): void {
  if (!existsSync(CLI_PATH)) throw new Error(`${CLI_PATH} is missing: run \`npm run build\` (npm test does) before these tests.`);
}

export interface CliEnvOptions {
  anthropicBaseUrl?: string;
  openaiBaseUrl?: string;
  /** Sets ANTHROPIC_API_KEY (or OPENAI_API_KEY with provider openai). */
  apiKey?: string;
  provider?: "anthropic" | "openai";
  home?: string;
  extra?: Record<string, string>;
}

export function cliEnv(options: CliEnvOptions = {}): NodeJS.ProcessEnv {
  const home = options.home ?? tempDir("home");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    // The test file's own temp folder (helpers/setup.ts): what the CLI leaves there is removed with it.
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    HOME: home,
    PITWALL_HOME: join(home, ".pitwall"),
    PITWALL_RETRY_BASE_MS: "5",
    SHELL: "/bin/bash",
    LANG: "C.UTF-8",
    ...options.extra,
  };
  if (options.anthropicBaseUrl) env.ANTHROPIC_BASE_URL = options.anthropicBaseUrl;
  if (options.openaiBaseUrl) env.OPENAI_BASE_URL = options.openaiBaseUrl;
  if (options.apiKey) env[options.provider === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY"] = options.apiKey;
  return env;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export function startCli(args: string[], env: NodeJS.ProcessEnv, cwd: string = REPO_ROOT): ChildProcessWithoutNullStreams {
  assertBuilt();
  return spawn(process.execPath, [CLI_PATH, ...args], { env, cwd, stdio: "pipe" });
}

export function runCli(args: string[], env: NodeJS.ProcessEnv, options: { input?: string; cwd?: string; timeoutMs?: number } = {}): Promise<CliResult> {
  const child = startCli(args, env, options.cwd);
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`pitwall ${args.join(" ")} did not exit within ${options.timeoutMs ?? 30_000} ms.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}
