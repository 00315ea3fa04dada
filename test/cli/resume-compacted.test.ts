// Resuming a compacted session through the real CLI, with both SDKs: --continue sends the latest
// summary and the messages kept after it, not the compacted history, while the file still holds
// every original message.
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import type { FakeReply } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { isSummaryRequest, orphanToolResults } from "../helpers/wire-check.js";

const llm = useFakeLlm();

const bigTurn = (n: number): FakeReply => ({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `printf 'out-${n}:%.0s' $(seq 1 2000)` } }], estimateUsage: true });

describe.each(["anthropic", "openai"] as const)("with %s", (provider) => {
  it("--continue on a compacted session sends summary + kept turns, and the file keeps everything", async () => {
    const home = mkdtempSync(join(tmpdir(), "pitwall-home-"));
    const project = mkdtempSync(join(tmpdir(), "pitwall-project-"));
    const env = provider === "anthropic"
      ? cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl })
      : cliEnv({ home, apiKey: "sk-test-0123456789", provider: "openai", openaiBaseUrl: llm.openaiBaseUrl });
    const args = ["--cwd", project, "--context-window", "16k", ...(provider === "openai" ? ["--provider", "openai"] : [])];
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- RESUME-SUMMARY of task one", estimateUsage: true });
    llm.enqueue(bigTurn(1), bigTurn(2), bigTurn(3), bigTurn(4), bigTurn(5), { kind: "reply", text: "first task done", estimateUsage: true });
    const first = await runCli(["-p", "the first task", ...args], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/compacted \d+ → \d+ tokens/);

    const folder = sessionFolder(join(home, ".pitwall", "sessions"), project);
    const [file] = readdirSync(folder);
    const records = readFileSync(join(folder, file!), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    const compaction = records.find((r) => r["type"] === "compaction")!;
    expect(compaction).toMatchObject({ reason: "threshold", summary: expect.stringContaining("RESUME-SUMMARY") });
    expect(records.some((r) => r["id"] === compaction["firstKeptId"] && r["type"] === "message")).toBe(true);
    expect(records.filter((r) => r["type"] === "message")).toHaveLength(12); // every original message: the prompt, five calls and results, the answer

    const before = llm.requests.length;
    llm.enqueue({ kind: "reply", text: "second task done", estimateUsage: true });
    const second = await runCli(["-p", "--continue", "the second task", ...args], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("second task done");
    const resumed = llm.requests.slice(before);
    expect(resumed.some(isSummaryRequest)).toBe(false);
    expect(resumed[0]!.transcript).toContain("RESUME-SUMMARY");
    expect(resumed[0]!.transcript).not.toContain("the first task");
    expect(resumed[0]!.transcript).not.toContain("out-1:");
    expect(resumed[0]!.transcript).toContain("first task done");
    expect(resumed[0]!.transcript).toContain("the second task");
    expect(orphanToolResults(resumed[0]!)).toEqual([]);
  }, 60_000);
});
