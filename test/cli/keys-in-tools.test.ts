// The provider keys stay out of the model's commands and jobs unless the person passes them on:
// `env` in bash or bash_stream shows neither variable, nor a copy of the --api-key value.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();

const ANTHROPIC_KEY = "sk-ant-test-key-0123456789";
const OPENAI_KEY = "sk-openai-test-key-0123456789";
const FLAG_KEY = "sk-flag-key-0123456789";
const SHOW = "env | grep -E 'API_KEY|KEY_COPY|sk-' || echo 'no keys here'";

async function commandOutputs(args: string[], home?: string): Promise<string> {
  llm.enqueue(
    {
      kind: "reply",
      toolCalls: [
        { name: "bash", arguments: { command: SHOW } },
        { name: "bash_stream", arguments: { command: SHOW, yieldMs: 5000 } },
      ],
    },
    { kind: "reply", text: "done" },
  );
  const env = cliEnv({
    anthropicBaseUrl: llm.anthropicBaseUrl,
    ...(home ? { home } : {}),
    extra: { ANTHROPIC_API_KEY: ANTHROPIC_KEY, OPENAI_API_KEY: OPENAI_KEY, KEY_COPY: FLAG_KEY },
  });
  const result = await runCli(["-p", "show the environment", "--no-session", "--api-key", FLAG_KEY, ...args], env);
  expect(result.code, result.stderr).toBe(0);
  const transcript = llm.requests.at(-1)!.transcript;
  return transcript.slice(transcript.indexOf("(tool_result)"));
}

describe("keys in the environment of commands", () => {
  it("are removed by default: the key variables and any copy of the --api-key value", async () => {
    const seen = await commandOutputs([]);
    expect(seen.match(/no keys here/g)!.length).toBeGreaterThanOrEqual(2);
    for (const secret of [ANTHROPIC_KEY, OPENAI_KEY, FLAG_KEY, "API_KEY=", "KEY_COPY="]) expect(seen).not.toContain(secret);
  }, 30_000);

  it("are passed on with --pass-keys", async () => {
    const seen = await commandOutputs(["--pass-keys"]);
    expect(seen).toContain(`OPENAI_API_KEY=${OPENAI_KEY}`);
    expect(seen).toContain("KEY_COPY=");
  }, 30_000);

  it('are passed on with "passKeysToTools": true in config.json, and --no-pass-keys wins over it', async () => {
    const home = mkdtempSync(join(tmpdir(), "pitwall-home-"));
    mkdirSync(join(home, ".pitwall"));
    writeFileSync(join(home, ".pitwall", "config.json"), JSON.stringify({ passKeysToTools: true }));
    expect(await commandOutputs([], home)).toContain(`ANTHROPIC_API_KEY=`);
    expect(await commandOutputs(["--no-pass-keys"], home)).not.toContain("API_KEY=");
  }, 30_000);
});
