// The command line with a config file and project context: flags beat config, config beats
// defaults, a bad config is reported and ignored, --print-system-prompt shows what was loaded, and
// print mode's dimmed progress lines honour NO_COLOR.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawn as spawnPty } from "node-pty";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { assertBuilt, CLI_PATH, cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();

function homeWithConfig(config: unknown): string {
  const home = tempDir("home");
  mkdirSync(join(home, ".pitwall"));
  writeFileSync(join(home, ".pitwall", "config.json"), typeof config === "string" ? config : JSON.stringify(config));
  return home;
}

describe("config.json and flags", () => {
  it("config beats defaults and flags beat config", async () => {
    const home = homeWithConfig({ provider: "openai", model: "local-coder", baseUrl: llm.openaiBaseUrl, thinking: "high" });
    llm.enqueue({ kind: "reply", text: "from config" }, { kind: "reply", text: "from flags" });
    const fromConfig = await runCli(["-p", "hi", "--no-session"], cliEnv({ home }));
    expect(fromConfig.code).toBe(0);
    expect(llm.requests[0]!.api).toBe("openai");
    expect(llm.requests[0]!.json.model).toBe("local-coder");
    expect(llm.requests[0]!.json.reasoning_effort).toBe("high");
    const fromFlags = await runCli(["-p", "hi", "--no-session", "--model", "other-model", "--thinking", "off"], cliEnv({ home }));
    expect(fromFlags.code).toBe(0);
    expect(llm.requests[1]!.json.model).toBe("other-model");
    expect(llm.requests[1]!.json.reasoning_effort).toBeUndefined();
  });

  it("a bad config field is reported with its name and ignored, never fatal", async () => {
    const home = homeWithConfig({ provider: "gemini", model: "claude-haiku-4-5" });
    llm.enqueue({ kind: "reply", text: "still works" });
    const result = await runCli(["-p", "hi", "--no-session"], cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('"provider" must be "anthropic" or "openai"; ignored');
    expect(llm.requests[0]!.json.model).toBe("claude-haiku-4-5");
    llm.enqueue({ kind: "reply", text: "ok" });
    const broken = await runCli(["-p", "hi", "--no-session"], cliEnv({ home: homeWithConfig("{oops"), apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(broken.code).toBe(0);
    expect(broken.stderr).toContain("is not valid JSON");
  });
});

describe("--print-system-prompt", () => {
  it("shows the prompt, the AGENTS.md files it loaded and their size, without a key", async () => {
    const project = tempDir("project");
    mkdirSync(join(project, "sub"));
    writeFileSync(join(project, "AGENTS.md"), "Always run the linter.");
    const result = await runCli(["--print-system-prompt", "--cwd", join(project, "sub")], cliEnv());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Always run the linter.");
    expect(result.stdout).toContain(`loaded ${join(project, "AGENTS.md")} (`);
    expect(result.stdout).toMatch(/--- \d+ tokens \(estimated\) ---/);
    expect(result.stdout).toContain(`Working directory: ${join(project, "sub")}`);
  });
});

describe("print mode on a terminal", () => {
  const runInPty = (extra: Record<string, string>): Promise<string> => {
    assertBuilt();
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "true" } }] }, { kind: "reply", text: "done" });
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { TERM: "xterm-256color", ...extra } });
    const pty = spawnPty(process.execPath, [CLI_PATH, "-p", "go", "--no-session"], { cols: 100, rows: 30, env: env as Record<string, string> });
    let output = "";
    pty.onData((d) => (output += d));
    return new Promise((resolve) => pty.onExit(() => resolve(output)));
  };

  it("dims progress lines, unless NO_COLOR is set", async () => {
    const coloured = await runInPty({});
    expect(coloured).toContain("\u001b[2m→ bash true");
    const plain = await runInPty({ NO_COLOR: "1" });
    expect(plain).toContain("→ bash true");
    expect(plain).not.toMatch(/\u001b\[/);
  });
});
