// Long runs stay flat: many model requests and tool calls in one run must not pile listeners on the
// run's signal (Node warns with MaxListenersExceededWarning past 10), whichever SDK serves them.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createReadOnlyTools, createToolByName } from "../../tools/coding-tools.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, echoTool } from "../helpers/agent-harness.js";

const llm = useFakeLlm();

describe.each(["anthropic", "openai"] as const)("with %s", (provider) => {
  const warnings: Error[] = [];
  const onWarning = (warning: Error): void => {
    warnings.push(warning);
  };
  let cwd = "";
  beforeEach(() => {
    warnings.length = 0;
    process.on("warning", onWarning);
    cwd = mkdtempSync(join(tmpdir(), "pitwall-long-run-"));
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
  });
  afterEach(() => {
    process.off("warning", onWarning);
    rmSync(cwd, { recursive: true, force: true });
  });

  const leaks = (): string[] => warnings.filter((w) => w.name === "MaxListenersExceededWarning").map((w) => w.message);

  it("leaves no abort listener behind after each of 15 model requests in one run", async () => {
    const agent = agentFor(llm, provider, [echoTool]);
    for (let i = 0; i < 14; i++) llm.enqueue({ kind: "reply", toolCalls: [{ name: "echo", arguments: { text: `round ${i}` } }] });
    llm.enqueue({ kind: "reply", text: "Done." });
    await agent.prompt("go round");
    expect(llm.requests).toHaveLength(15);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(leaks()).toEqual([]);
  });

  it("leaves none behind after 12 rounds of read, grep, find, ls and bash either", async () => {
    const agent = agentFor(llm, provider, [...createReadOnlyTools(cwd), createToolByName(cwd, "bash")]);
    const calls = [
      { name: "read", arguments: { file_path: "notes.txt" } },
      { name: "grep", arguments: { pattern: "beta" } },
      { name: "find", arguments: { pattern: "*.txt" } },
      { name: "ls", arguments: {} },
      { name: "bash", arguments: { command: "echo hi" } },
    ];
    for (let i = 0; i < 12; i++) llm.enqueue({ kind: "reply", toolCalls: calls });
    llm.enqueue({ kind: "reply", text: "Done." });
    await agent.prompt("look around");
    expect(llm.requests).toHaveLength(13);
    await new Promise((resolve) => setImmediate(resolve));
    expect(leaks()).toEqual([]);
  });
});
