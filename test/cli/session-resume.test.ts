// Sessions survive a SIGKILL: --continue resumes with every completed message, an interrupted tool
// call is closed, and the provider accepts the history. --resume lists sessions.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli, startCli } from "../helpers/cli-process.js";
import { anthropicHistoryProblems } from "../helpers/history-check.js";
import { tempDir } from "../helpers/temp-dir.js";
import { waitFor } from "../helpers/conditions.js";

const llm = useFakeLlm();

const KEY = "sk-ant-session-test-0123456789";

function setupDirs() {
  const home = tempDir("home");
  const project = tempDir("project");
  const env = cliEnv({ home, apiKey: KEY, anthropicBaseUrl: llm.anthropicBaseUrl });
  const folder = sessionFolder(join(home, ".pitwall", "sessions"), project);
  return { home, project, env, folder };
}

/** The session files in a folder (lock files of killed runs stay beside them). */
function sessionFiles(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
}

async function killWhen(args: string[], env: NodeJS.ProcessEnv, cwd: string, ready: () => Promise<unknown>): Promise<void> {
  const child = startCli(args, env, cwd);
  const closed = new Promise((resolve) => child.on("close", resolve));
  await ready();
  child.kill("SIGKILL");
  await closed;
}

describe("sessions across a crash", () => {
  it("SIGKILL mid-stream, then --continue: every completed message is there and the history is accepted", async () => {
    const { project, env, folder } = setupDirs();
    llm.enqueue(
      { kind: "reply", text: "Checking.", toolCalls: [{ name: "bash", arguments: { command: "echo tool-output-42" } }] },
      { kind: "reply", text: "This reply is streaming when pitwall is killed.", delayMs: 50, holdOpen: true },
    );
    await killWhen(["-p", "first prompt", "--cwd", project], env, project, () => llm.waitForRequest(2));
    const [file] = sessionFiles(folder);
    const lines = readFileSync(join(folder, file!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { type: string; message?: { role: string } });
    expect(lines.map((l) => l.message?.role ?? l.type)).toEqual(["session", "user", "assistant", "toolResult"]);

    llm.enqueue({ kind: "reply", text: "Resumed fine." });
    const resumed = await runCli(["-c", "-p", "second prompt", "--cwd", project], env, { cwd: project });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("Resumed fine.");
    const request = llm.requests[2]!;
    expect(request.transcript).toContain("first prompt");
    expect(request.transcript).toContain("tool-output-42");
    expect(request.transcript).toContain("second prompt");
    expect(anthropicHistoryProblems(request.json)).toEqual([]);
    expect(sessionFiles(folder)).toHaveLength(1);
    expect(readFileSync(join(folder, file!), "utf8")).not.toContain(KEY);
  });

  it("SIGKILL during a tool call: resuming closes the call with an error result", async () => {
    const { project, env, folder } = setupDirs();
    llm.enqueue({ kind: "reply", toolCalls: [{ id: "toolu_sleeper", name: "bash", arguments: { command: "echo $$ > started; sleep 30" } }] });
    await killWhen(["-p", "sleep a while", "--cwd", project], env, project, async () => {
      await llm.waitForRequest(1);
      // The shell creates the file before it writes its pid there: wait for the pid.
      await waitFor(() => readdirSync(project).includes("started") && /^\d+\n$/.test(readFileSync(join(project, "started"), "utf8")), "the bash call to start");
    });
    // A SIGKILL gives pitwall no chance to end the call's process group: the test does. (A pid read
    // from the file while empty was 0, and kill(-0) ended this test's own process group: vitest, npm
    // and whatever started them.)
    const leader = Number(readFileSync(join(project, "started"), "utf8"));
    expect(leader).toBeGreaterThan(1);
    try {
      process.kill(-leader, "SIGKILL");
    } catch {
      // already gone
    }
    llm.enqueue({ kind: "reply", text: "I see the call was interrupted." });
    const resumed = await runCli(["--continue", "-p", "what happened?", "--cwd", project], env, { cwd: project });
    expect(resumed.code).toBe(0);
    const request = llm.requests[1]!;
    expect(anthropicHistoryProblems(request.json)).toEqual([]);
    expect(request.transcript).toContain("interrupted");
    const [file] = sessionFiles(folder);
    const roles = readFileSync(join(folder, file!), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { message?: { role: string } }).message?.role);
    expect(roles.filter((r) => r === "toolResult")).toHaveLength(1);
  });

  it("--resume lists the directory's sessions as a numbered list in print mode", async () => {
    const { project, env } = setupDirs();
    llm.enqueue({ kind: "reply", text: "one" }, { kind: "reply", text: "two" });
    await runCli(["-p", "alpha task", "--cwd", project], env, { cwd: project });
    await runCli(["-p", "beta task", "--cwd", project], env, { cwd: project });
    const listed = await runCli(["--resume", "-p", "--cwd", project], env, { cwd: project });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ {2}1\. .*2 messages .*beta task/);
    expect(listed.stdout).toMatch(/ {2}2\. .*2 messages .*alpha task/);
  });

  it("--session opens a given file; --no-session writes nothing", async () => {
    const { project, env, folder } = setupDirs();
    llm.enqueue({ kind: "reply", text: "one" }, { kind: "reply", text: "two" }, { kind: "reply", text: "three" });
    await runCli(["-p", "remember 7", "--cwd", project], env, { cwd: project });
    const [file] = sessionFiles(folder);
    await runCli(["--session", join(folder, file!), "-p", "what number?", "--cwd", project], env, { cwd: project });
    expect(llm.requests[1]!.transcript).toContain("remember 7");
    await runCli(["--no-session", "-p", "ephemeral", "--cwd", project], env, { cwd: project });
    expect(sessionFiles(folder)).toHaveLength(1);
    const missing = await runCli(["--session", "/nonexistent/x.jsonl", "-p", "x"], env, { cwd: project });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("Cannot open session /nonexistent/x.jsonl");
  }, 30_000);
});
