// Print mode through the real CLI: plain text on stdout, progress on stderr, exit codes, and the
// message that says how to configure a provider.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { spawn as spawnPty } from "node-pty";
import { assertBuilt, CLI_PATH, cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

describe("pitwall -p", () => {
  it("streams the answer as plain text and exits 0, running tools on the way", async () => {
    const project = tempDir("project");
    writeFileSync(join(project, "notes.txt"), "the secret word is lighthouse\n");
    llm.enqueue(
      { kind: "reply", text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "cat notes.txt" } }] },
      (request) => ({ kind: "reply", text: request.transcript.includes("lighthouse") ? "The word is **lighthouse**." : "I could not read it." }),
    );
    const result = await runCli(["-p", "what is the secret word?", "--cwd", project], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.stderr).toContain("→ bash cat notes.txt");
    expect(result.stdout).toBe("Let me look.\nThe word is **lighthouse**.\n");
    expect(result.stdout).not.toMatch(/\u001b/);
    expect(result.code).toBe(0);
    // Both providers' SDKs were asked for a real request with the tools offered.
    const tools = (llm.requests[0]!.json.tools as Array<{ name: string }>).map((t) => t.name);
    expect(tools).toEqual(["read", "write", "edit", "bash", "bash_stream", "poll_process", "write_stdin", "kill_process", "list_processes", "get_process_log", "watch_process"]);
  });

  it("holds each reply once after a dropped stream was retried (stdout is a pipe)", async () => {
    llm.enqueue(
      { kind: "reply", text: "The answer is 42, final.", chunkSize: 4, dropAfterChunks: 5 },
      { kind: "reply", text: "The answer is 42, final.", chunkSize: 4 },
    );
    const result = await runCli(["-p", "what is it?", "--no-session"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.code).toBe(0);
    // A wait under a second is said in ms (PITWALL_RETRY_BASE_MS is 5 here), never "1 s".
    expect(result.stderr).toMatch(/retrying in \d+ ms, attempt \d\//);
    expect(result.stdout).toBe("The answer is 42, final.\n");
  });

  it("on a terminal streams live; a retry starts the reply again on a new line, said on stderr", async () => {
    assertBuilt();
    const reply = { kind: "reply" as const, text: "The answer is 42, final.", chunkSize: 4 };
    llm.enqueue({ ...reply, dropAfterChunks: 5 }, reply);
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { TERM: "xterm-256color", NO_COLOR: "1" } });
    const pty = spawnPty(process.execPath, [CLI_PATH, "-p", "what is it?", "--no-session"], { cols: 200, rows: 30, env: env as Record<string, string> });
    let output = "";
    pty.onData((d) => (output += d));
    const code = await new Promise<number>((resolve) => pty.onExit(({ exitCode }) => resolve(exitCode)));
    expect(code).toBe(0);
    expect(output).toMatch(/The answ\r?\n\(the reply above was cut off; it starts again below\)\r?\nretrying in .*\r?\nThe answer is 42, final\.\r?\n$/);
  });

  it("a stream that goes silent ends after PITWALL_IDLE_TIMEOUT_MS and is retried", async () => {
    llm.enqueue({ kind: "reply", text: "The answer is 41", stallAfterChunks: 4 }, { kind: "reply", text: "The answer is 42." });
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { PITWALL_IDLE_TIMEOUT_MS: "400" } });
    const result = await runCli(["-p", "what is it?", "--no-session"], env);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("stalled: the stream went silent for 0.4 s");
    expect(result.stdout).toBe("The answer is 42.\n");
  });

  it("runs several prompts in order through an OpenAI-compatible server", async () => {
    llm.enqueue({ kind: "reply", text: "first answer" }, { kind: "reply", text: "second answer" });
    const result = await runCli(
      ["-p", "one", "two", "--provider", "openai", "--base-url", llm.openaiBaseUrl, "--model", "qwen2.5-coder"],
      cliEnv(),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("first answer\nsecond answer\n");
    expect(llm.requests[1]!.transcript).toContain("first answer");
    expect(llm.requests[1]!.json.model).toBe("qwen2.5-coder");
  });

  it("reads the prompt from stdin when none is given", async () => {
    llm.enqueue({ kind: "reply", text: "from stdin" });
    const result = await runCli(["-p"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }), { input: "summarise this\n" });
    expect(result.code).toBe(0);
    expect(llm.requests[0]!.transcript).toContain("summarise this");
  });

  it("exits non-zero with the provider's error after retries", async () => {
    llm.setFallback({ kind: "error", status: 401, message: "invalid x-api-key" });
    const result = await runCli(["-p", "hi"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Anthropic returned 401.*check ANTHROPIC_API_KEY/);
  });

  it("without any API key, says which variable to set or how to use a local server", async () => {
    const result = await runCli(["-p", "hi"], cliEnv());
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY");
    expect(result.stderr).toContain("--base-url");
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it("rejects bad flags with exit 2 and one line", async () => {
    const result = await runCli(["--thinking", "huge", "-p", "x"], cliEnv());
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    const unknown = await runCli(["--frobnicate"], cliEnv());
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown flag --frobnicate");
    const tools = await runCli(["-p", "x", "--tools", "read,teleport"], cliEnv({ apiKey: "k-0123456789" }));
    expect(tools.code).toBe(2);
    expect(tools.stderr).toContain("unknown tool teleport");
  });

  it("--version and --help", async () => {
    const version = await runCli(["--version"], cliEnv());
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version);
    const help = await runCli(["--help"], cliEnv());
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Examples");
    expect(help.stdout).toContain("--bash-yield-ms");
  });

  it("--tools read-only offers only the read-only set", async () => {
    llm.enqueue({ kind: "reply", text: "ok" });
    await runCli(["-p", "hi", "--tools", "read-only"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect((llm.requests[0]!.json.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["read", "grep", "find", "ls"]);
  });
  it("talks to either provider through node:http: Node's fetch (undici, ~40 ms to load) is never loaded", async () => {
    const probeDir = tempDir("probe");
    const probe = join(probeDir, "probe.cjs");
    // Written by the CLI's own process at exit (not by the job host it may start): the modules Node loaded.
    writeFileSync(
      probe,
      `if (/cli\\.cjs$/.test(process.argv[1] ?? "")) process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(join(probeDir, "loaded-"))} + process.pid, process.moduleLoadList.join("\\n")));`,
    );
    llm.enqueue({ kind: "reply", text: "From Anthropic." }, { kind: "reply", text: "From OpenAI." });
    const extra = { NODE_OPTIONS: `--require ${probe}` };
    const anthropic = await runCli(["-p", "hi", "--no-session"], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra }));
    const openai = await runCli(["-p", "hi", "--no-session", "--provider", "openai", "--model", "gpt-4o"], cliEnv({ apiKey: "sk-test-0123456789", provider: "openai", openaiBaseUrl: llm.openaiBaseUrl, extra }));
    expect([anthropic.stdout, openai.stdout]).toEqual(["From Anthropic.\n", "From OpenAI.\n"]);
    const loads = readdirSync(probeDir).filter((name) => name.startsWith("loaded-"));
    expect(loads).toHaveLength(2);
    for (const name of loads) {
      const modules = readFileSync(join(probeDir, name), "utf8");
      expect(modules).toContain("NativeModule http");
      expect(modules).not.toMatch(/undici|http2/);
    }
  });
});
