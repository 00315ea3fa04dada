// --export through the real CLI: after a print run (the session's branch as Markdown, said on
// stderr), alone with --continue (no model needed, `-` to stdout), and the usage errors.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

describe("pitwall --export", () => {
  it("after a print run writes the branch as Markdown; alone it exports the newest session without a key, to a file or stdout", async () => {
    const project = tempDir("project");
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl });
    llm.enqueue({ kind: "reply", text: "Looking.", toolCalls: [{ name: "bash", arguments: { command: "echo from-the-tool" } }] }, { kind: "reply", text: "It said from-the-tool." });
    const run = await runCli(["-p", "what does the tool say?", "--cwd", project, "--export", "run.md"], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("Looking.\nIt said from-the-tool.\n");
    expect(run.stderr).toContain(`Exported the current branch (4 messages) as Markdown to ${join(project, "run.md")}.`);
    const markdown = readFileSync(join(project, "run.md"), "utf8");
    expect(markdown).toMatch(/^# pitwall session\n/);
    expect(markdown).toContain("what does the tool say?");
    expect(markdown).toMatch(/<details>\n<summary>✓ bash echo from-the-tool<\/summary>[\s\S]*Result:\n\n```\nfrom-the-tool\n/);

    const { ANTHROPIC_API_KEY: _key, ...noKey } = env;
    const alone = await runCli(["--export", "again.md", "--continue", "--cwd", project], noKey);
    expect(alone.code).toBe(0);
    expect(alone.stdout).toBe("");
    expect(readFileSync(join(project, "again.md"), "utf8").replace(/Exported:[^\n]*/, "")).toBe(markdown.replace(/Exported:[^\n]*/, ""));
    const piped = await runCli(["--export", "-", "-c", "--cwd", project], noKey);
    expect(piped.code).toBe(0);
    expect(piped.stdout.replace(/Exported:[^\n]*/, "")).toBe(markdown.replace(/Exported:[^\n]*/, ""));
    expect(piped.stderr).toContain("as Markdown to stdout");
  });

  it("never replaces a file that is there without --force, and refuses before running any prompt", async () => {
    const project = tempDir("project");
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl });
    writeFileSync(join(project, "notes.md"), "my own notes\n");
    const before = llm.requests.length;
    const refused = await runCli(["-p", "hello", "--cwd", project, "--export", "notes.md"], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--export: ${join(project, "notes.md")} exists; give --force to replace it, or name another file`);
    expect(llm.requests.length).toBe(before);
    expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("my own notes\n");

    llm.enqueue({ kind: "reply", text: "Hi." });
    const first = await runCli(["-p", "hello", "--cwd", project, "--export", "run.md"], env);
    expect(first.code, first.stderr).toBe(0);
    const { ANTHROPIC_API_KEY: _key, ...noKey } = env;
    const alone = await runCli(["--export", "notes.md", "-c", "--cwd", project], noKey);
    expect(alone.code).toBe(2);
    expect(readFileSync(join(project, "notes.md"), "utf8")).toBe("my own notes\n");
    const forced = await runCli(["--export", "notes.md", "-c", "--cwd", project, "--force"], noKey);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stderr).toContain("(replacing the file that was there)");
    expect(readFileSync(join(project, "notes.md"), "utf8")).toMatch(/^# pitwall session\n/);
  });

  it("says how to use it when it cannot", async () => {
    const env = cliEnv({});
    const cwd = tempDir("empty");
    expect((await runCli(["--export", "x.md", "--cwd", cwd], env)).stderr).toContain("--export without a prompt writes a session you name: add --session <file>, --continue or --resume");
    expect((await runCli(["--export", "x.md", "--json"], env)).stderr).toContain("--export works with print mode (prompts) or alone, not with --json");
    expect((await runCli(["--export", "-", "-p", "hi"], env)).stderr).toContain("--export - writes to stdout, where print mode writes the answer");
    const none = await runCli(["--export", "x.md", "-c", "--cwd", cwd], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`there is no session in ${cwd} to export`);
  });
});
