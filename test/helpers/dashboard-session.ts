// One dashboard under test: the fake LLM, the real CLI in a pseudo-terminal pointed at it, and a
// temporary working folder; `done()` ends them all. `endDashboardsAfterEach()` makes sure every
// dashboard a test started, and every folder from `tempFolder()`, is gone after the test.
import { rmSync } from "node:fs";
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
  afterEach(async () => {
    for (const session of [...running]) await session.done();
  });
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
