// Sessions from the command line: a session folder that cannot be written makes print and JSON mode
// fail (exit 1) with the reason; a second pitwall continuing a session another one writes gets a
// copy and is told so; a damaged session still resumes, with warnings and no stack trace.
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { waitFor } from "../helpers/conditions.js";
import { cliEnv, runCli, startCli } from "../helpers/cli-process.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();
// Each test runs pitwall two or three times; on a loaded machine that takes more than the default 5 s.
const SLOW = { timeout: 60_000 };

function setupDirs() {
  const home = mkdtempSync(join(tmpdir(), "pitwall-home-"));
  const project = mkdtempSync(join(tmpdir(), "pitwall-project-"));
  const env = cliEnv({ home, apiKey: "sk-ant-session-safety-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl });
  const folder = sessionFolder(join(home, ".pitwall", "sessions"), project);
  return { home, project, env, folder };
}

function sessionFiles(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
}

/** A --session-dir that cannot be created: its parent is a regular file (fails as root too). */
function unwritableSessionDir(home: string): string {
  writeFileSync(join(home, "not-a-folder"), "");
  return join(home, "not-a-folder", "sessions");
}

describe("a session that cannot be saved", SLOW, () => {
  it("print mode answers, says the conversation was not saved, and exits 1", async () => {
    const { home, project, env } = setupDirs();
    llm.enqueue({ kind: "reply", text: "The answer." });
    const result = await runCli(["-p", "question", "--cwd", project, "--session-dir", unwritableSessionDir(home)], env, { cwd: project });
    expect(result.stdout).toContain("The answer.");
    expect(result.stderr).toMatch(/pitwall: The session could not be saved to .*not-a-folder\/sessions\/.*\.jsonl: ENOTDIR/);
    expect(result.stderr).toMatch(/pitwall: 2 records of this conversation could not be saved to .*\.jsonl \(ENOTDIR: not a directory, mkdir .*\) and are lost\.\n$/);
    expect(result.code).toBe(1);
  });

  it("JSON mode reports an error event with source session and exits 1", async () => {
    const { home, project, env } = setupDirs();
    llm.enqueue({ kind: "reply", text: "ok" });
    const result = await runCli(["--json", "--cwd", project, "--session-dir", unwritableSessionDir(home)], env, {
      cwd: project,
      input: '{"type":"message","content":"hi"}\n',
    });
    const events = result.stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string; source?: string; message?: string });
    const sessionErrors = events.filter((e) => e.type === "error" && e.source === "session");
    expect(sessionErrors.map((e) => e.message)).toEqual([
      expect.stringContaining("The session could not be saved to"),
      expect.stringMatching(/records of this conversation could not be saved/),
    ]);
    expect(result.code).toBe(1);
  });
});

describe("two pitwalls on one session", SLOW, () => {
  it("the second one (print mode) continues in a copy, says so, and leaves the original to the first", async () => {
    const { project, env, folder } = setupDirs();
    llm.enqueue({ kind: "reply", text: "Still thinking about it", holdOpen: true });
    const first = startCli(["-p", "first task", "--cwd", project], env, project);
    const closed = new Promise((resolve) => first.on("close", resolve));
    try {
      await waitFor(() => sessionFiles(folder).length === 1, "the first pitwall's session file");
      const [original] = sessionFiles(folder);
      // The file exists before its first lines are written: the original is what the first pitwall
      // wrote once its prompt is recorded (its reply is held open, so nothing follows until the end).
      const before = await waitFor(() => {
        const text = readFileSync(join(folder, original!), "utf8");
        return text.includes("first task") && text.endsWith("\n") ? text : undefined;
      }, "the first pitwall to record its prompt");
      llm.enqueue({ kind: "reply", text: "Answer in the copy." });
      const second = await runCli(["-c", "-p", "second task", "--cwd", project], env, { cwd: project });
      expect(second.code).toBe(0);
      expect(second.stdout).toContain("Answer in the copy.");
      expect(second.stderr).toMatch(
        new RegExp(`is open in another pitwall \\(pid ${first.pid}, since .*\\)\\. Writing to it from two pitwalls would interleave their messages, so this conversation continues in a copy: `),
      );
      expect(readFileSync(join(folder, original!), "utf8")).toBe(before);
      const copy = sessionFiles(folder).find((name) => name !== original)!;
      const copied = await loadSession(join(folder, copy));
      expect(copied.header.forkedFrom).toBe(join(folder, original!));
      expect(copied.messages.map((m) => m.role)).toEqual(["user", "user", "assistant"]);
    } finally {
      first.kill("SIGKILL");
      await closed;
    }
  });
});

describe("a damaged session still resumes", SLOW, () => {
  it("wrong-shaped lines and a torn tail are skipped with warnings naming their lines; the new record starts a fresh line", async () => {
    const { project, env, folder } = setupDirs();
    llm.enqueue({ kind: "reply", text: "first answer" });
    await runCli(["-p", "first", "--cwd", project], env, { cwd: project });
    const [file] = sessionFiles(folder);
    const path = join(folder, file!);
    appendFileSync(path, '{"type":"message"}\nnull\n{"type":"message","message":{"role":"user","cont');
    llm.enqueue({ kind: "reply", text: "second answer" });
    const resumed = await runCli(["-c", "-p", "second", "--cwd", project], env, { cwd: project });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("second answer");
    expect(resumed.stderr).toContain(`line 4, a "message" record, has the wrong shape`);
    expect(resumed.stderr).toContain("line 5 is null, not a session record");
    expect(resumed.stderr).toContain("the last line (6) was cut off");
    expect(resumed.stderr).not.toMatch(/TypeError|at .*\.js:\d+/);
    expect(llm.requests[1]!.transcript).toContain("first answer");
    const reloaded = await loadSession(path);
    expect(reloaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });
});
