// Overflow recovery against the fake LLM, through both SDKs: a request the provider rejects as too
// long for the window (Anthropic's "prompt is too long", OpenAI's context_length_exceeded) is
// answered by compacting and trying once more, with the compaction visible on the bus.
import { describe, expect, it } from "vitest";
import { isContextOverflow } from "../../agent/context/overflow.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { FakeError, FakeReply, RecordedRequest } from "../fake-llm/index.js";
import type { TestApi } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, echoTool, recordEvents } from "../helpers/agent-harness.js";
import { isSummaryRequest, orphanToolResults } from "../helpers/wire-check.js";

const llm = useFakeLlm();

const OVERFLOW: Record<TestApi, FakeError | FakeReply> = {
  anthropic: { kind: "error", status: 400, message: "prompt is too long: 212345 tokens > 200000 maximum" },
  openai: {
    kind: "error",
    status: 400,
    code: "context_length_exceeded",
    message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
  },
  // The Responses API says it inside the stream, as response.failed.
  responses: {
    kind: "reply",
    responsesFailure: { event: "response.failed", code: "context_length_exceeded", message: "Your input exceeds the context window of this model. Please adjust your input and try again." },
  },
};

/** Five tool turns of ~2 000 tokens each, then `rejections` overflow errors, then an answer. */
function script(overflow: FakeError | FakeReply, rejections: number): (request: RecordedRequest) => FakeReply | FakeError {
  let turn = 0;
  let rejected = 0;
  return () => {
    if (turn < 5) return { kind: "reply", toolCalls: [{ name: "echo", arguments: { text: `turn-${++turn}:${"y".repeat(494)}`, times: 16 } }], estimateUsage: true };
    if (rejected < rejections) {
      rejected++;
      return overflow;
    }
    return { kind: "reply", text: "Finished after compacting.", estimateUsage: true };
  };
}

describe.each(["anthropic", "openai", "responses"] as const)("with %s", (provider) => {
  // 40k window at 95 %: no automatic compaction below 30k, so only the provider's rejection triggers it.
  const context = { contextWindow: 40_000, compactAtPercent: 95 };

  it("compacts and tries once more when the provider says the prompt is too long", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context });
    const events = recordEvents(agent);
    llm.setFallback(script(OVERFLOW[provider], 1));
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- OVERFLOW-SUMMARY", estimateUsage: true });
    await agent.prompt("fill the window");

    const start = events.find((e) => e.type === "compaction_start");
    expect(start).toMatchObject({ reason: "overflow" });
    const end = events.find((e): e is Extract<PitwallEvent, { type: "compaction_end" }> => e.type === "compaction_end");
    expect(end).toMatchObject({ reason: "overflow", summary: expect.stringContaining("OVERFLOW-SUMMARY") });
    expect(end!.tokensAfter).toBeLessThan(end!.tokensBefore);
    expect(events.some((e) => e.type === "error")).toBe(false);
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(agent.state.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });

    const requests = [...llm.requests];
    const rejected = requests[5]!;
    expect(isSummaryRequest(requests[6]!)).toBe(true);
    const retried = requests[7]!;
    expect(retried.transcript).toContain("OVERFLOW-SUMMARY");
    expect(retried.transcript).not.toContain("turn-1:");
    expect(retried.transcript).toContain("turn-5:");
    expect(retried.bodyBytes).toBeLessThan(rejected.bodyBytes);
    expect(orphanToolResults(retried)).toEqual([]);
    expect(requests).toHaveLength(8);
  });

  it("fails the turn, saying so, when the request is still too long after compacting", async () => {
    const agent = agentFor(llm, provider, [echoTool], { context });
    const events = recordEvents(agent);
    llm.setFallback(script(OVERFLOW[provider], 2));
    llm.setSummaryReply({ kind: "reply", text: "## Goal\n- OVERFLOW-SUMMARY", estimateUsage: true });
    await agent.prompt("fill the window");
    const last = agent.state.messages.at(-1);
    expect(last).toMatchObject({ role: "assistant", stopReason: "error" });
    expect(last?.role === "assistant" && last.errorMessage).toMatch(/longer than the context window .*still too long after compacting/);
    expect(events.filter((e) => e.type === "compaction_start")).toHaveLength(1);
  });
});

describe("recognising an overflow", () => {
  it.each([
    [400, "prompt is too long: 212345 tokens > 200000 maximum"],
    [400, "input length and `max_tokens` exceed context limit: 190000 + 32000 > 200000"],
    [400, "context_length_exceeded This model's maximum context length is 128000 tokens."],
    [400, "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion)."], // vLLM
    [400, "the request exceeds the available context size, try increasing it"], // llama.cpp
    [400, "exceed_context_size_error"], // llama.cpp's error type
    [500, "input length exceeds the context length"], // Ollama answers some of these with a 500
    [400, "Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough."], // LM Studio
    [413, "Request Entity Too Large"],
  ])("%i %s", (status, message) => {
    expect(isContextOverflow(status, message)).toBe(true);
  });

  it.each([
    [429, "Too many tokens per minute: rate limit"],
    [401, "invalid x-api-key"],
    [400, "tools.0.input_schema: JSON schema is invalid"],
    [503, "overloaded"],
  ])("not %i %s", (status, message) => {
    expect(isContextOverflow(status, message)).toBe(false);
  });
});
