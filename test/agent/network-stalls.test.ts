// Network stalls end: a server that never sends headers, or goes silent mid-stream, fails the attempt
// like a dropped connection and it is retried; in-stream server errors of both APIs are retried; a
// retry-after longer than pitwall waits is named in the error.
import { describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage } from "../../agent/messages.js";
import { resolveModel, type OpenAIApi, type ProviderName } from "../../agent/models.js";
import { createProviderResolver } from "../../agent/providers/connections.js";
import { DEFAULT_STREAM_TIMEOUTS } from "../../agent/providers/stall-guard.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();
const SHORT = { headerMs: 300, idleMs: 300 };
/** For the tests of other failures: a loaded machine must not turn a slow answer into a stall. */
const PATIENT = { headerMs: 30_000, idleMs: 30_000 };

function agent(provider: ProviderName, maxAttempts = 3, api: OpenAIApi = "chat", timeouts = SHORT) {
  const connections = {
    anthropic: { apiKey: "test-anthropic-key-123", baseUrl: llm.anthropicBaseUrl, timeouts },
    openai: { apiKey: "test-openai-key-123", baseUrl: llm.openaiBaseUrl, timeouts, api },
  };
  const a = new Agent({
    model: resolveModel(provider === "anthropic" ? "claude-sonnet-5-5" : "qwen-local", provider, provider),
    getProvider: createProviderResolver(connections),
    retry: { baseDelayMs: 5, maxAttempts },
  });
  const events: PitwallEvent[] = [];
  a.subscribe((e) => events.push(e));
  const retries = () => events.filter((e): e is Extract<PitwallEvent, { type: "retry" }> => e.type === "retry");
  const last = () => a.state.messages.at(-1) as AssistantMessage;
  return { agent: a, events, retries, last };
}

describe("network stalls", () => {
  const paths: [ProviderName, OpenAIApi][] = [
    ["anthropic", "chat"],
    ["openai", "chat"],
    ["openai", "responses"],
  ];
  for (const [provider, api] of paths) {
    it(`a server that never sends headers, then one that goes silent mid-stream, are retried (${provider === "anthropic" ? provider : `openai ${api}`})`, async () => {
      llm.enqueue(
        { kind: "reply", text: "never", withholdHeaders: true },
        { kind: "reply", text: "The answer is 41", stallAfterChunks: 3 },
        { kind: "reply", text: "The answer is 42." },
      );
      const { agent: a, retries, last } = agent(provider, 3, api);
      await a.prompt("question");
      expect(last()).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "The answer is 42." }] });
      expect(retries().map((r) => r.reason)).toEqual([
        expect.stringContaining("stalled: no response headers within 0.3 s"),
        expect.stringContaining("stalled: the stream went silent for 0.3 s"),
      ]);
    }, 20_000);
  }

  it("a stall right after the headers is retried too, and after the last attempt the error names the setting", async () => {
    llm.setFallback({ kind: "reply", text: "x", stallAfterChunks: 0 });
    const { agent: a, last } = agent("anthropic", 2);
    await a.prompt("question");
    expect(last().stopReason).toBe("error");
    expect(last().errorMessage).toMatch(/stalled: the stream went silent for 0\.3 s\. .*PITWALL_IDLE_TIMEOUT_MS or idleTimeoutMs in config\.json sets how long pitwall waits\. \(gave up after 2 attempts\)/);
    expect(llm.requests).toHaveLength(2);
  }, 20_000);

  it("Esc while waiting for headers ends the turn at once", async () => {
    llm.enqueue({ kind: "reply", text: "never", withholdHeaders: true });
    const connections = { anthropic: { apiKey: "k-123456789", baseUrl: llm.anthropicBaseUrl, timeouts: { headerMs: 60_000, idleMs: 60_000 } }, openai: {} };
    const a = new Agent({ model: resolveModel("claude-sonnet-5-5", "anthropic", "anthropic"), getProvider: createProviderResolver(connections) });
    const done = a.prompt("question");
    await llm.waitForRequest(1);
    a.abort();
    await done;
    expect((a.state.messages.at(-1) as AssistantMessage).stopReason).toBe("aborted");
  }, 20_000);

  it("a connection without timeouts of its own waits as long as the agent's settings say (60 s and 120 s by default); the error names the header setting", async () => {
    expect(DEFAULT_STREAM_TIMEOUTS).toEqual({ headerMs: 60_000, idleMs: 120_000 });
    llm.enqueue({ kind: "reply", text: "never", withholdHeaders: true }, { kind: "reply", text: "never", withholdHeaders: true });
    const connections = { anthropic: { apiKey: "test-anthropic-key-123", baseUrl: llm.anthropicBaseUrl }, openai: {} };
    const a = new Agent({ model: resolveModel("claude-sonnet-5-5", "anthropic", "anthropic"), getProvider: createProviderResolver(connections, SHORT), retry: { baseDelayMs: 5, maxAttempts: 2 } });
    await a.prompt("question");
    expect((a.state.messages.at(-1) as AssistantMessage).errorMessage).toMatch(
      /stalled: no response headers within 0\.3 s\. .*PITWALL_HEADER_TIMEOUT_MS or headerTimeoutMs in config\.json sets how long pitwall waits\./,
    );
  }, 20_000);
});

describe("in-stream server errors", () => {
  it("Anthropic's overloaded_error and api_error events are retried", async () => {
    llm.enqueue(
      { kind: "reply", text: "The answer is 41", streamError: { afterChunks: 3, type: "overloaded_error", message: "Overloaded" } },
      { kind: "reply", text: "The answer is 41", streamError: { afterChunks: 4, type: "api_error", message: "Internal server error" } },
      { kind: "reply", text: "The answer is 42." },
    );
    const { agent: a, retries, last } = agent("anthropic", 3, "chat", PATIENT);
    await a.prompt("question");
    expect(last()).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "The answer is 42." }] });
    expect(retries().map((r) => r.reason)).toEqual([expect.stringContaining("overloaded_error"), expect.stringContaining("api_error")]);
  }, 20_000);

  it("OpenAI's in-stream server_error is retried; an invalid request is not", async () => {
    llm.enqueue(
      { kind: "reply", text: "The answer is 41", streamError: { afterChunks: 3, type: "server_error", message: "The server had an error" } },
      { kind: "reply", text: "The answer is 42." },
    );
    const { agent: a, retries, last } = agent("openai", 3, "chat", PATIENT);
    await a.prompt("question");
    expect(last()).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "The answer is 42." }] });
    expect(retries()).toHaveLength(1);

    llm.enqueue({ kind: "reply", text: "no", streamError: { afterChunks: 1, type: "invalid_request_error", message: "bad input" } });
    const second = agent("openai", 3, "chat", PATIENT);
    await second.agent.prompt("question");
    expect(second.last().stopReason).toBe("error");
    expect(second.retries()).toHaveLength(0);
  }, 20_000);
});

describe("retry-after", () => {
  it("a wait longer than pitwall makes is not slept through: the error says how long the server asked for", async () => {
    llm.enqueue({ kind: "error", status: 429, headers: { "retry-after": "300" } });
    const { agent: a, retries, last } = agent("anthropic", 3, "chat", PATIENT);
    await a.prompt("question");
    expect(retries()).toHaveLength(0);
    expect(last().errorMessage).toContain("The server asked to wait 5 min (300 s) before trying again, longer than pitwall waits (60 s): try again later.");
  }, 20_000);
});
