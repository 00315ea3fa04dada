// Every flag's parsing and its error path.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../app/cli-options.js";
import { tempDir } from "../helpers/temp-dir.js";

const parse = (...argv: string[]) => parseCliArgs(argv, "/base");
const fails = (argv: string[], message: RegExp) => {
  expect(() => parseCliArgs(argv, "/base")).toThrow(UsageError);
  expect(() => parseCliArgs(argv, "/base")).toThrow(message);
};

describe("command line", () => {
  it("takes positional prompts in order, and defaults", () => {
    const o = parse("fix it", "then test");
    expect(o.prompts).toEqual(["fix it", "then test"]);
    expect(o).toMatchObject({ print: false, json: false, continue: false, resume: false, noSession: false, cwd: "/base", mouse: false });
  });

  it("parses every flag", () => {
    const dir = tempDir("cli");
    writeFileSync(join(dir, "prompt.md"), "Be terse.");
    const o = parseCliArgs(
      ["-p", "hi", "--model", "openai/gpt-5.4", "--provider", "openai", "--base-url", "http://localhost:11434/v1", "--api-key", "k",
        "--thinking", "high", "--system-prompt", "@prompt.md", "--tools", "read,bash", "--cwd", "sub", "--bash-yield-ms", "5000",
        "--session-dir", "s", "--mouse"],
      dir,
    );
    expect(o).toMatchObject({
      print: true, prompts: ["hi"], model: "openai/gpt-5.4", provider: "openai", baseUrl: "http://localhost:11434/v1", apiKey: "k",
      thinking: "high", systemPrompt: "Be terse.", tools: ["read", "bash"], cwd: join(dir, "sub"), bashYieldMs: 5000, sessionDir: join(dir, "s"), mouse: true,
    });
    expect(parse("--json").json).toBe(true);
    expect(parse("-c").continue).toBe(true);
    expect(parse("--continue").continue).toBe(true);
    expect(parse("-r").resume).toBe(true);
    expect(parse("--session", "x.jsonl").sessionFile).toBe("/base/x.jsonl");
    expect(parse("--no-session").noSession).toBe(true);
    expect(parse("--tools", "read-only").tools).toBe("read-only");
    expect(parse("--system-prompt", "plain text").systemPrompt).toBe("plain text");
    expect(parse("--print-system-prompt").printSystemPrompt).toBe(true);
    expect(parse("--version").version).toBe(true);
    expect(parse("--help").help).toBe(true);
    expect(parse("--context-window", "32k").contextWindow).toBe(32_000);
    expect(parse("--context-window", "200000").contextWindow).toBe(200_000);
    expect(parse("--context-window", "1m").contextWindow).toBe(1_000_000);
    expect(parse("--compact-at", "70").compactAt).toBe(70);
    expect(parse("--compact-at", "60%").compactAt).toBe(60);
    expect(parse("--api", "responses").api).toBe("responses");
    expect(parse("--api", "chat", "--provider", "openai").api).toBe("chat");
    expect(parse("--pass-keys").passKeys).toBe(true);
    expect(parse("--no-pass-keys").passKeys).toBe(false);
    expect(parse().passKeys).toBeUndefined();
    expect(parse("--sandbox", "strict").sandbox).toBe("strict");
    expect(parse("--sandbox=required").sandbox).toBe("required");
    expect(parse().sandbox).toBeUndefined();
    expect(parse("--model=openai/gpt-5.4").model).toBe("openai/gpt-5.4");
    expect(parse("-pc", "go")).toMatchObject({ print: true, continue: true, prompts: ["go"] });
    // After --, everything is a prompt, even what looks like a flag.
    expect(parse("--", "-p", "--json").prompts).toEqual(["-p", "--json"]);
  });

  it("rejects unknown flags and bad values with one line", () => {
    fails(["--sandbox", "loose"], /^--sandbox must be one of workspace, strict, off, required, not 'loose'$/);
    fails(["--bogus"], /^unknown flag --bogus$/);
    fails(["-x"], /^unknown flag -x$/);
    fails(["--provider", "gemini"], /--provider must be anthropic or openai/);
    fails(["--thinking", "max"], /--thinking must be one of off, minimal, low, medium, high/);
    fails(["--base-url", "localhost:11434"], /--base-url must be an http\(s\) URL/);
    fails(["--bash-yield-ms", "soon"], /--bash-yield-ms must be a positive whole number/);
    fails(["--bash-yield-ms", "-5"], /--bash-yield-ms/);
    fails(["--model", ""], /--model needs a value/);
    fails(["--model"], /^--model needs a value$/);
    fails(["--no-model"], /^unknown flag --no-model$/);
    fails(["--no-bogus"], /^unknown flag --no-bogus$/);
    fails(["--tools", ","], /--tools needs at least one tool name/);
    fails(["--system-prompt", "@/nonexistent/prompt.md"], /cannot read/);
    fails(["--json", "-p", "x"], /pick one/);
    fails(["-c", "--session", "x.jsonl"], /use one/);
    fails(["--no-session", "-c"], /--no-session cannot be combined with --continue/);
    fails(["--context-window", "big"], /--context-window must be a number of tokens \(e\.g\. 32000 or 32k\), not 'big'/);
    fails(["--context-window", "4k"], /--context-window must be at least 8000 tokens/);
    fails(["--compact-at", "99"], /--compact-at must be a whole percent from 10 to 95, not '99'/);
    fails(["--api", "completions"], /--api must be chat or responses/);
    fails(["--api", "responses", "--provider", "anthropic"], /does not apply to --provider anthropic/);
    for (const argv of [["--bogus"], ["--thinking", "max"]]) {
      try {
        parseCliArgs(argv, "/base");
      } catch (error) {
        expect((error as Error).message).not.toContain("\n");
      }
    }
  });
});
