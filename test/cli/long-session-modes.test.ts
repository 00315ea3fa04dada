// Long sessions in print and JSON mode through the real CLI and both SDKs: a reply cut at the
// model's output limit is reported (print mode exits non-zero, JSON mode has it in the event),
// compaction is visible in both, and {"type":"compact"} compacts on demand in JSON mode.
import { describe, expect, it } from "vitest";
import type { FakeReply } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli, startCli } from "../helpers/cli-process.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { isSummaryRequest } from "../helpers/wire-check.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();

function providerArgs(provider: "anthropic" | "openai"): { args: string[]; env: NodeJS.ProcessEnv } {
  return provider === "anthropic"
    ? { args: [], env: cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }) }
    : { args: ["--provider", "openai"], env: cliEnv({ apiKey: "sk-test-0123456789", provider: "openai", openaiBaseUrl: llm.openaiBaseUrl }) };
}

/** A bash call whose output is 12 000 characters (about 3 000 tokens). */
const bigTurn = (n: number): FakeReply => ({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: `printf 'out-${n}:%.0s' $(seq 1 2000)` } }], estimateUsage: true });

describe.each(["anthropic", "openai"] as const)("with %s", (provider) => {
  it("print mode exits non-zero and says so when the reply hit the output limit", async () => {
    llm.enqueue({ kind: "reply", text: "The first half of a long answer", stopReason: "length" });
    const { args, env } = providerArgs(provider);
    const result = await runCli(["-p", "write a lot", ...args], env);
    expect(result.stdout).toBe("The first half of a long answer\n");
    expect(result.stderr).toMatch(/pitwall: the reply was cut off: it reached the output limit of .* \(max_tokens\)/);
    expect(result.code).toBe(1);
  }, 20_000);

  it("JSON mode carries the cut in the message_end event, compacts on {\"type\":\"compact\"}, and shows automatic compaction", async () => {
    const { args, env } = providerArgs(provider);
    const child = startCli(["--json", "--context-window", "16k", "--no-session", ...args], env);
    const events = new JsonLineReader<Event>(child.stdout);
    const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    const send = (value: unknown): void => void child.stdin.write(`${JSON.stringify(value)}\n`);
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- CLI-SUMMARY", estimateUsage: true });

    llm.enqueue({ kind: "reply", text: "cut here", stopReason: "length", estimateUsage: true });
    send({ type: "message", content: "write a lot" });
    const cut = await events.waitFor((e) => e.type === "message_end" && (e.message as { role: string }).role === "assistant", 15_000, "the cut reply");
    expect(cut.message).toMatchObject({ stopReason: "length" });

    llm.enqueue(bigTurn(1), bigTurn(2), { kind: "reply", text: "two done", estimateUsage: true });
    send({ type: "message", content: "run two commands" });
    send({ type: "compact", instructions: "the commands run" });
    const manual = await events.waitFor((e) => e.type === "compaction_end", 20_000, "the manual compaction");
    expect(manual).toMatchObject({ reason: "manual", summary: expect.stringContaining("CLI-SUMMARY") });
    expect(llm.requests.find(isSummaryRequest)!.transcript).toContain("focus on: the commands run");

    // 16k window: 12k trigger, 4k reply reserve; five turns of ~3k tokens pass it.
    llm.enqueue(bigTurn(3), bigTurn(4), bigTurn(5), bigTurn(6), bigTurn(7), { kind: "reply", text: "all done", estimateUsage: true });
    send({ type: "message", content: "run five more" });
    const automatic = await events.waitFor((e) => e.type === "compaction_end" && e.reason === "threshold", 30_000, "an automatic compaction");
    expect(automatic.error).toBeUndefined();
    expect(automatic.tokensAfter as number).toBeLessThan(automatic.tokensBefore as number);
    child.stdin.end();
    expect(await exited).toBe(0);
    expect(events.items.some((e) => e.type === "compaction_start" && e.reason === "threshold")).toBe(true);
    expect(events.badLines).toEqual([]);
  }, 60_000);
});
