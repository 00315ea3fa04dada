// The provider key does not escape to the model or to other processes: it is not on any process's
// command line (`ps`), not in any variable a command or job sees (not even inside a longer value),
// and a key a tool reads from a file reaches the model as [redacted]. --api-key-file gives the key
// without any command line holding it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

const KEY = "sk-ant-escape-test-0123456789abcdef";

/** Runs print mode with the given tool calls and returns what the model was sent of their results. */
async function toolResultsSeen(toolCalls: Array<{ name: string; arguments: Record<string, unknown> }>, args: string[], extra: Record<string, string> = {}, cwd?: string): Promise<string> {
  llm.enqueue({ kind: "reply", toolCalls }, { kind: "reply", text: "done" });
  const env = cliEnv({ anthropicBaseUrl: llm.anthropicBaseUrl, extra });
  const result = await runCli(["-p", "look around", "--no-session", ...args], env, cwd ? { cwd } : {});
  expect(result.code, result.stderr).toBe(0);
  const transcript = llm.requests.at(-1)!.transcript;
  return transcript.slice(transcript.indexOf("(tool_result)"));
}

describe("the provider key", () => {
  it("given with --api-key, is on no process's command line: ps from the model's bash shows it hidden", async () => {
    const seen = await toolResultsSeen([{ name: "bash", arguments: { command: "ps -eo pid,args" } }], ["--api-key", KEY]);
    expect(seen).toContain("--api-key [hidden]");
    expect(seen).not.toContain(KEY);
    expect(JSON.stringify(llm.requests.at(-1)!.headers)).toContain(KEY);
  }, 30_000);

  it("inside a longer value, takes the whole variable out of what commands and jobs see", async () => {
    const show = "env | grep -E 'AUTH_HEADER|PROXY_URL|HARMLESS|sk-' || true";
    const seen = await toolResultsSeen(
      [
        { name: "bash", arguments: { command: show } },
        { name: "bash_stream", arguments: { command: show, yieldMs: 5000 } },
      ],
      [],
      { ANTHROPIC_API_KEY: KEY, AUTH_HEADER: `Bearer ${KEY}`, PROXY_URL: `https://user:${KEY}@proxy.example`, HARMLESS: "kept-value" },
    );
    expect(seen.match(/HARMLESS=kept-value/g)).toHaveLength(2);
    for (const leak of [KEY, "AUTH_HEADER=", "PROXY_URL="]) expect(seen).not.toContain(leak);
  }, 30_000);

  it("read from a file by a tool reaches the model as [redacted]", async () => {
    const cwd = tempDir("cwd");
    writeFileSync(join(cwd, "notes.txt"), `the key is ${KEY} (do not share)\n`);
    const seen = await toolResultsSeen(
      [
        { name: "read", arguments: { file_path: "notes.txt" } },
        { name: "bash", arguments: { command: "cat notes.txt" } },
        { name: "bash_stream", arguments: { command: "cat notes.txt", yieldMs: 5000 } },
      ],
      [],
      { ANTHROPIC_API_KEY: KEY },
      cwd,
    );
    expect(seen.match(/the key is \[redacted\] \(do not share\)/g)!.length).toBeGreaterThanOrEqual(3);
    expect(seen).not.toContain(KEY);
  }, 30_000);

  it("comes from --api-key-file's first line, and a missing file is a usage error", async () => {
    const file = join(tempDir("key"), "anthropic.key");
    writeFileSync(file, `${KEY}\n`, { mode: 0o600 });
    llm.enqueue({ kind: "reply", text: "hello" });
    const ok = await runCli(["-p", "hi", "--no-session", "--api-key-file", file], cliEnv({ anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.stringify(llm.requests.at(-1)!.headers)).toContain(KEY);
    const missing = await runCli(["-p", "hi", "--api-key-file", `${file}.gone`], cliEnv({ anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("--api-key-file: cannot read");
  }, 30_000);
});
