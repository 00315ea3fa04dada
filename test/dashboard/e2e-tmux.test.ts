// Colours inside tmux: tmux sets TERM=tmux-256color, whose terminfo blessed cannot read (it would
// drop to 8 colours or none). pitwall still draws in colour there.
import { execFileSync } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { startFakeLlm, type FakeLlm } from "../fake-llm/index.js";
import { cliPath } from "../helpers/terminal-harness.js";
import { tempDir } from "../helpers/temp-dir.js";
import { waitFor } from "../helpers/conditions.js";

function hasTmux(): boolean {
  try {
    execFileSync("tmux", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const socket = `pitwall-test-${process.pid}`;
let llm: FakeLlm | undefined;
let home: string | undefined;
afterEach(async () => {
  try {
    execFileSync("tmux", ["-L", socket, "kill-server"], { stdio: "ignore" });
  } catch {
    // Already gone.
  }
  await llm?.close();
});

describe.skipIf(!hasTmux())("inside tmux", () => {
  test("the dashboard draws in colour with TERM=tmux-256color", async () => {
    llm = await startFakeLlm();
    llm.enqueue({ kind: "reply", text: "Coloured **answer**." });
    home = tempDir("home");
    const tmux = (...args: string[]): string => execFileSync("tmux", ["-L", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
    const env = `PITWALL_HOME=${home} HOME=${home} TMPDIR=${process.env.TMPDIR ?? "/tmp"} ANTHROPIC_API_KEY=test-key ANTHROPIC_BASE_URL=${llm.anthropicBaseUrl} LANG=C.UTF-8`;
    tmux("new-session", "-d", "-x", "120", "-y", "40", "-e", "TERM=tmux-256color", `env ${env} ${process.execPath} ${cliPath()}`);
    tmux("set-option", "-g", "default-terminal", "tmux-256color");
    const capture = (): string => tmux("capture-pane", "-p", "-e");
    await waitFor(() => capture().includes("ready"), "pitwall to start in tmux", 20_000);
    tmux("send-keys", "-l", "hello");
    tmux("send-keys", "Enter");
    // The answer, and the turn over ("● ready" again): the status says "working" until the turn ends.
    await waitFor(() => /Coloured[\s\S]*● ready/.test(capture()), "the answer and the status ready in tmux", 20_000);
    const screen = capture();
    // The focused input's border is cyan and "● ready" green.
    expect(screen).toMatch(/\x1b\[(?:[0-9;]*;)?36m├─(?:\x1b\[[0-9;]*m)* input/);
    expect(screen).toMatch(/\x1b\[(?:[0-9;]*;)?32m[^\x1b]*● ready/);
    // Bold reaches the terminal too.
    expect(screen).toMatch(/\x1b\[(?:[0-9;]*;)?1m[^\x1b]*answer/);
  }, 40_000);
});
