// Compaction on demand (what /compact does) through the Agent, against the fake LLM: focus
// instructions reach the summary request, a second compaction merges the first summary, and a
// conversation with nothing old enough to summarise is left as it is, with a note saying why.
import { describe, expect, it } from "vitest";
import type { FakeReply } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, echoTool, recordEvents } from "../helpers/agent-harness.js";
import { isSummaryRequest } from "../helpers/wire-check.js";

const llm = useFakeLlm();

const bigTurn = (tag: string): FakeReply => ({ kind: "reply", text: `Working on ${tag}.`, toolCalls: [{ name: "echo", arguments: { text: `${tag}:${"z".repeat(494)}`, times: 16 } }], estimateUsage: true });
const answer: FakeReply = { kind: "reply", text: "Done.", estimateUsage: true };

describe.each(["anthropic", "openai", "responses"] as const)("with %s", (provider) => {
  it("compacts now with focus instructions, and merges the previous summary the next time", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 40_000 } });
    const events = recordEvents(agent);
    llm.enqueue(bigTurn("alpha"), bigTurn("beta"), bigTurn("gamma"), bigTurn("delta"), bigTurn("epsilon"), answer);
    await agent.prompt("first task");
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- FIRST-SUMMARY", estimateUsage: true });
    const before = agent.contextUsage().tokens;
    const result = await agent.compact("  the API decisions  ");
    expect(result).toEqual({ compacted: true });
    expect(events.find((e) => e.type === "compaction_start")).toMatchObject({ reason: "manual", instructions: "the API decisions" });
    const request = llm.requests.find(isSummaryRequest)!;
    expect(request.transcript).toContain("focus on: the API decisions");
    expect(request.transcript).toContain("first task");
    expect(agent.contextUsage().tokens).toBeLessThan(before);
    expect(agent.state.messages[0]).toMatchObject({ origin: "summary", content: expect.stringContaining("FIRST-SUMMARY") });

    llm.enqueue(bigTurn("zeta"), bigTurn("eta"), bigTurn("theta"), bigTurn("iota"), bigTurn("kappa"), answer);
    await agent.prompt("second task");
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- SECOND-SUMMARY", estimateUsage: true });
    expect(await agent.compact()).toEqual({ compacted: true });
    const second = llm.requests.filter(isSummaryRequest)[1]!;
    expect(second.transcript).toContain("<previous-summary>\n## Goal\n- FIRST-SUMMARY");
    expect(second.transcript).toContain("second task");
    expect(second.transcript).not.toContain("focus on");
    expect(agent.state.messages.filter((m) => m.role === "user" && m.origin === "summary")).toHaveLength(1);
    expect(agent.state.messages[0]).toMatchObject({ content: expect.stringContaining("SECOND-SUMMARY") });
  });

  it("leaves a short conversation alone and says why", async () => {
    const agent = agentFor(llm, provider, [echoTool]);
    const events = recordEvents(agent);
    llm.enqueue(answer);
    await agent.prompt("hello");
    const result = await agent.compact();
    expect(result.compacted).toBe(false);
    expect(result.note).toMatch(/^Nothing to compact yet: the conversation is within the 20k most recent tokens/);
    expect(events.some((e) => e.type === "compaction_start")).toBe(false);
    expect(llm.requests).toHaveLength(1);
  });

  it("keeps the conversation unchanged when the summary request fails", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context: { contextWindow: 40_000 } });
    llm.enqueue(bigTurn("alpha"), bigTurn("beta"), bigTurn("gamma"), bigTurn("delta"), bigTurn("epsilon"), answer);
    await agent.prompt("first task");
    const count = agent.state.messages.length;
    llm.setSummaryReply({ kind: "error", status: 400, message: "no summaries today" });
    const result = await agent.compact();
    expect(result.compacted).toBe(false);
    expect(result.error).toMatch(/no summaries today/);
    expect(agent.state.messages).toHaveLength(count);
    expect(agent.state.isStreaming).toBe(false);
  });
});
