// One dashboard under test: the fake LLM, the real CLI in a pseudo-terminal pointed at it, and a
// temporary working folder; `done()` ends them all. `endDashboardsAfterEach()` makes sure every
// dashboard a test started, and every folder from `tempFolder()`, is gone after the test.
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startFakeLlm, type FakeLlm, type FakeScript } from "../fake-llm/index.js";
import { afterEach } from "vitest";
import { PitwallTerminal, type TerminalOptions } from "./terminal-harness.js";
import { tempDir } from "./temp-dir.js";

const running = new Set<DashboardSession>();

/** A temporary folder (test/helpers/temp-dir.ts), removed when the test file ends. */
export function tempFolder(purpose = "test"): string {
  return tempDir(purpose);
}

/** Registers the cleanup: after each test, every dashboard still running ends and temp folders go. */
export function endDashboardsAfterEach(): void {
  afterEach(async (context) => {
    if (context.task.result?.state === "fail") for (const session of running) console.error(whatHappened(session));
    for (const session of [...running]) await session.done();
  });
}

/**
 * For a failed test, what the screen does not show: the model requests that arrived (the tails of
 * the last few transcripts) and the end of every session file (each agent's conversation, its tool
 * results included). A failure seen only under load can then be read from the log of that run.
 */
function whatHappened(session: DashboardSession): string {
  const tail = (text: string, chars: number): string => (text.length > chars ? `…${text.slice(-chars)}` : text);
  const requests = session.llm.requests;
  const parts = [`${requests.length} model request(s) arrived.`];
  for (let i = Math.max(0, requests.length - 3); i < requests.length; i++) {
    parts.push(`request ${i + 1}, its transcript's end:\n${tail(requests[i]!.transcript, 1200)}`);
  }
  try {
    for (const file of sessionFiles(session.t.home)) parts.push(`session file ${file.path}, its end:\n${tail(file.text, 2000)}`);
  } catch {
    parts.push("(no session files)");
  }
  return parts.join("\n\n");
}

/** Every session file pitwall wrote under its home, with its text. */
export function sessionFiles(home: string): { path: string; text: string }[] {
  const root = join(home, "sessions");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => ({ path: join(root, name), text: readFileSync(join(root, name), "utf8") }));
}

export interface DashboardSession {
  t: PitwallTerminal;
  llm: FakeLlm;
  cwd: string;
  done(): Promise<void>;
}

export interface DashboardSessionOptions extends TerminalOptions {
  replies?: FakeScript[];
  /** Without an API key (the fake server is still started, unused). */
  noKey?: boolean;
  /** Wait for the status line to say ready, or that no model is configured (default true). */
  waitReady?: boolean;
}

export async function startDashboard(options: DashboardSessionOptions = {}): Promise<DashboardSession> {
  const llm = await startFakeLlm();
  if (options.replies) llm.enqueue(...options.replies);
  const cwd = options.cwd ?? tempDir("cwd");
  // No host ahead of need and no throwaway drawing (idle-warm-up.ts): ~0.6 s of CPU a dashboard, most
  // of which never runs a command. A test of the warm-up itself turns it back on in its env.
  const env: Record<string, string> = {
    PITWALL_IDLE_WARM_UP: "0",
    ...(options.noKey ? {} : { ANTHROPIC_API_KEY: "test-key", ANTHROPIC_BASE_URL: llm.anthropicBaseUrl }),
  };
  const t = new PitwallTerminal({ ...options, cwd, env: { ...env, ...options.env } });
  let ended: Promise<void> | undefined;
  const done = (): Promise<void> =>
    (ended ??= (async () => {
      running.delete(session);
      await t.close();
      await llm.close();
      if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
    })());
  const session: DashboardSession = { t, llm, cwd, done };
  running.add(session);
  if (options.waitReady !== false) {
    try {
      await t.waitForText(/● ready|○ no model configured/, 20_000);
    } catch (error) {
      await done();
      throw error;
    }
  }
  return session;
}
