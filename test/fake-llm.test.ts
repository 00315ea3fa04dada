// The fake LLM server driven by the real @anthropic-ai/sdk and openai clients (no mocks): each
// wire-format feature a provider relies on must come out of the SDK the way the real API's would.

import Anthropic from "@anthropic-ai/sdk";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import OpenAI from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeLlm, fakeSignature, startFakeLlm } from "./fake-llm/index.js";

let llm: FakeLlm;

beforeEach(async () => {
  llm = await startFakeLlm();
});

afterEach(async () => {
  await llm.close();
});

function anthropic(): Anthropic {
  return new Anthropic({ apiKey: "test-key", baseURL: llm.anthropicBaseUrl, maxRetries: 0 });
}

function openai(): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: llm.openaiBaseUrl, maxRetries: 0 });
}

const USER_HI = [{ role: "user" as const, content: "hi" }];
const TWO_CALLS = [
  { id: "toolu_first", name: "read", arguments: { path: "src/a.ts", offset: 10 } },
  { name: "bash", arguments: { command: "echo 'hello world' && ls -la", timeout: 30 } },
];

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

describe("Anthropic Messages", () => {
  it("streams text in many deltas, with usage and end_turn", { timeout: 20_000 }, async () => {
    llm.enqueue({
      kind: "reply",
      text: "Hello from the fake model, streamed in small pieces.",
      usage: { input: 120, output: 14, cacheRead: 30, cacheWrite: 7 },
    });
    const stream = anthropic().messages.stream({ model: "claude-test", max_tokens: 100, messages: USER_HI });
    const deltas: string[] = [];
    stream.on("text", (delta) => deltas.push(delta));
    const message = await stream.finalMessage();

    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe("Hello from the fake model, streamed in small pieces.");
    expect(message.content).toEqual([{ type: "text", text: "Hello from the fake model, streamed in small pieces.", citations: null }]);
    expect(message.model).toBe("claude-test");
    expect(message.stop_reason).toBe("end_turn");
    expect(message.usage.input_tokens).toBe(120);
    expect(message.usage.output_tokens).toBe(14);
    expect(message.usage.cache_read_input_tokens).toBe(30);
    expect(message.usage.cache_creation_input_tokens).toBe(7);
  });

  it("streams thinking before text, with a signature", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", thinking: "Let me think about this carefully.", text: "Done.", stopReason: "length" });
    const stream = anthropic().messages.stream({ model: "claude-test", max_tokens: 100, messages: USER_HI });
    const thinkingDeltas: string[] = [];
    stream.on("thinking", (delta) => thinkingDeltas.push(delta));
    const message = await stream.finalMessage();

    expect(thinkingDeltas.length).toBeGreaterThan(3);
    expect(message.content[0]).toEqual({
      type: "thinking",
      thinking: "Let me think about this carefully.",
      signature: fakeSignature("Let me think about this carefully."),
    });
    expect(message.content[1]).toMatchObject({ type: "text", text: "Done." });
    expect(message.stop_reason).toBe("max_tokens");
  });

  it("streams two tool calls whose arguments arrive in several deltas", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "Reading.", toolCalls: TWO_CALLS });
    const events = await collect(
      await anthropic().messages.create({ model: "claude-test", max_tokens: 100, messages: USER_HI, stream: true }),
    );

    const jsonDeltas = (index: number): string[] =>
      events.flatMap((e: RawMessageStreamEvent) =>
        e.type === "content_block_delta" && e.index === index && e.delta.type === "input_json_delta"
          ? [e.delta.partial_json]
          : [],
      );
    expect(jsonDeltas(1).length).toBeGreaterThan(2);
    expect(jsonDeltas(2).length).toBeGreaterThan(2);
    expect(JSON.parse(jsonDeltas(1).join(""))).toEqual(TWO_CALLS[0]?.arguments);
    expect(JSON.parse(jsonDeltas(2).join(""))).toEqual(TWO_CALLS[1]?.arguments);
    expect(events.map((e) => e.type)).toEqual([
      "message_start",
      ...["content_block_start", ...Array(2).fill("content_block_delta"), "content_block_stop"],
      ...["content_block_start", ...Array(jsonDeltas(1).length).fill("content_block_delta"), "content_block_stop"],
      ...["content_block_start", ...Array(jsonDeltas(2).length).fill("content_block_delta"), "content_block_stop"],
      "message_delta",
      "message_stop",
    ]);

    // The SDK's own accumulator agrees.
    llm.enqueue({ kind: "reply", toolCalls: TWO_CALLS });
    const message = await anthropic()
      .messages.stream({ model: "claude-test", max_tokens: 100, messages: USER_HI })
      .finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    expect(message.content).toHaveLength(2);
    expect(message.content[0]).toMatchObject({ type: "tool_use", id: "toolu_first", name: "read", input: TWO_CALLS[0]?.arguments });
    expect(message.content[1]).toMatchObject({ type: "tool_use", name: "bash", input: TWO_CALLS[1]?.arguments });
    expect(message.content[1]?.type === "tool_use" && message.content[1].id).toMatch(/^toolu_/);
  });

  it("sends event names matching the data, and a ping", { timeout: 20_000 }, async () => {
    // The SDK drops pings and trusts `data.type`, so read the raw SSE with fetch to check both.
    llm.enqueue({ kind: "reply", text: "abc" });
    const response = await fetch(`${llm.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "k", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", max_tokens: 5, messages: USER_HI, stream: true }),
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const frames = (await response.text()).split("\n\n").filter((f) => f !== "");
    const parsed = frames.map((f) => {
      const [eventLine, dataLine] = f.split("\n");
      return { event: eventLine?.replace(/^event: /, ""), data: JSON.parse(dataLine?.replace(/^data: /, "") ?? "") as { type: string } };
    });
    for (const p of parsed) expect(p.event).toBe(p.data.type);
    expect(parsed.map((p) => p.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });

  it("turns a scripted error into the SDK's APIError with status, type and retry-after", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "error", status: 429, message: "slow down", headers: { "retry-after": "0" } });
    const error = await anthropic()
      .messages.create({ model: "claude-test", max_tokens: 100, messages: USER_HI, stream: true })
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    const apiError = error as InstanceType<typeof Anthropic.APIError>;
    expect(apiError.status).toBe(429);
    expect(apiError.type).toBe("rate_limit_error");
    expect(apiError.apiMessage).toBe("slow down");
    expect(apiError.headers?.get("retry-after")).toBe("0");
    expect(apiError.requestID).toMatch(/^req_/);
  });

  it("surfaces a dropped connection as an error thrown by the iteration", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "this reply is cut off half way through", dropAfterChunks: 5 });
    const stream = await anthropic().messages.create({ model: "claude-test", max_tokens: 100, messages: USER_HI, stream: true });
    const seen: string[] = [];
    const error = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(Anthropic.APIUserAbortError);
    // 5 events: message_start, block start, ping (skipped by the SDK), 2 deltas.
    expect(seen).toEqual(["message_start", "content_block_start", "content_block_delta", "content_block_delta"]);
  });

  it("holds a stream open until the client's AbortSignal ends it", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "partial answer", holdOpen: true });
    const controller = new AbortController();
    const stream = anthropic().messages.stream(
      { model: "claude-test", max_tokens: 100, messages: USER_HI },
      { signal: controller.signal },
    );
    let text = "";
    stream.on("text", (delta) => {
      text += delta;
      if (text === "partial answer") controller.abort();
    });
    const error = await stream.finalMessage().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(text).toBe("partial answer");
    expect(stream.currentMessage?.stop_reason ?? null).toBeNull();
  });

  it("records the request, with tool results in the transcript", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "ok" });
    await anthropic()
      .messages.stream({
        model: "claude-test",
        max_tokens: 100,
        system: [{ type: "text", text: "You are pitwall." }],
        messages: [
          { role: "user", content: "list files" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls" } }] },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "README.md\npackage.json" }] },
              { type: "text", text: "also check the tests" },
            ],
          },
        ],
      })
      .finalMessage();
    const request = await llm.waitForRequest(1);
    expect(request.api).toBe("anthropic");
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/messages");
    // The 1.x SDK sends apiKey as a bearer token, not as x-api-key.
    expect(request.headers["authorization"]).toBe("Bearer test-key");
    expect(request.headers["anthropic-version"]).toBeDefined();
    expect(request.json["model"]).toBe("claude-test");
    expect(request.transcript).toContain("system: You are pitwall.");
    expect(request.transcript).toContain('(tool_use bash) {"command":"ls"}');
    expect(request.transcript).toContain("README.md\npackage.json");
    expect(request.transcript).toContain("also check the tests");
  });
});

describe("OpenAI Chat Completions", () => {
  const streamParams = {
    model: "gpt-test",
    messages: USER_HI,
    stream: true as const,
    stream_options: { include_usage: true },
  };
  type Delta = ChatCompletionChunk.Choice.Delta & { reasoning_content?: string };
  const deltaOf = (chunk: ChatCompletionChunk): Delta | undefined => chunk.choices[0]?.delta;

  it("streams reasoning, text, finish_reason and a usage chunk", { timeout: 20_000 }, async () => {
    llm.enqueue({
      kind: "reply",
      thinking: "Considering the question.",
      text: "Hello from the fake model.",
      usage: { input: 100, output: 20, cacheRead: 40 },
    });
    const chunks = await collect(await openai().chat.completions.create(streamParams));

    expect(deltaOf(chunks[0] as ChatCompletionChunk)?.role).toBe("assistant");
    const reasoning = chunks.flatMap((c) => deltaOf(c)?.reasoning_content ?? []);
    const text = chunks.flatMap((c) => deltaOf(c)?.content ?? []);
    expect(reasoning.length).toBeGreaterThan(3);
    expect(reasoning.join("")).toBe("Considering the question.");
    expect(text.length).toBeGreaterThan(3);
    expect(text.join("")).toBe("Hello from the fake model.");
    expect(chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((r) => r !== null)).toEqual(["stop"]);

    const last = chunks[chunks.length - 1];
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toEqual({
      prompt_tokens: 140,
      completion_tokens: 20,
      total_tokens: 160,
      prompt_tokens_details: { cached_tokens: 40 },
    });
    expect(chunks.every((c) => c.object === "chat.completion.chunk" && c.model === "gpt-test")).toBe(true);
  });

  it("sends no usage chunk unless the request asks for it", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "short", stopReason: "length", usage: { input: 1, output: 1 } });
    const chunks = await collect(
      await openai().chat.completions.create({ model: "gpt-test", messages: USER_HI, stream: true }),
    );
    expect(chunks.some((c) => c.usage != null)).toBe(false);
    expect(chunks[chunks.length - 1]?.choices[0]?.finish_reason).toBe("length");
  });

  it("streams two tool calls whose arguments arrive in several deltas", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", toolCalls: TWO_CALLS });
    const chunks = await collect(await openai().chat.completions.create(streamParams));
    const calls = chunks.flatMap((c) => deltaOf(c)?.tool_calls ?? []);

    for (const index of [0, 1]) {
      const parts = calls.filter((c) => c.index === index);
      // Only the first delta of a call carries id, type and name.
      expect(parts[0]?.type).toBe("function");
      expect(parts[0]?.function?.name).toBe(TWO_CALLS[index]?.name);
      expect(parts.slice(1).every((p) => p.id === undefined && p.function?.name === undefined)).toBe(true);
      expect(parts.length).toBeGreaterThan(3);
      const json = parts.map((p) => p.function?.arguments ?? "").join("");
      expect(JSON.parse(json)).toEqual(TWO_CALLS[index]?.arguments);
    }
    expect(calls.find((c) => c.index === 0)?.id).toBe("toolu_first");
    expect(calls.find((c) => c.index === 1)?.id).toMatch(/^call_/);
    expect(chunks.flatMap((c) => c.choices.map((ch) => ch.finish_reason)).filter((r) => r !== null)).toEqual(["tool_calls"]);

    // The SDK's own accumulator, which checks every field it needs, agrees.
    llm.enqueue({ kind: "reply", text: "Running both.", toolCalls: TWO_CALLS });
    const completion = await openai().chat.completions.stream(streamParams).finalChatCompletion();
    const message = completion.choices[0]?.message;
    expect(message?.content).toBe("Running both.");
    expect(message?.tool_calls?.map((c) => (c.type === "function" ? [c.function.name, JSON.parse(c.function.arguments)] : []))).toEqual(
      TWO_CALLS.map((c) => [c.name, c.arguments]),
    );
  });

  it("sends a raw string of arguments verbatim, invalid JSON included", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "edit", arguments: '{"path": "a.ts", "old' }] });
    const chunks = await collect(await openai().chat.completions.create(streamParams));
    const json = chunks.flatMap((c) => deltaOf(c)?.tool_calls ?? []).map((p) => p.function?.arguments ?? "").join("");
    expect(json).toBe('{"path": "a.ts", "old');
  });

  it("turns a scripted error into the SDK's APIError with status and headers", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "error", status: 503, message: "overloaded, try later", headers: { "retry-after": "2" } });
    const error = await openai()
      .chat.completions.create(streamParams)
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    const apiError = error as InstanceType<typeof OpenAI.APIError>;
    expect(apiError.status).toBe(503);
    expect(apiError.message).toBe("503 overloaded, try later");
    expect(apiError.headers?.get("retry-after")).toBe("2");

    llm.enqueue({ kind: "error", status: 429 });
    await expect(openai().chat.completions.create(streamParams)).rejects.toBeInstanceOf(OpenAI.RateLimitError);
  });

  it("surfaces a dropped connection as an error thrown by the iteration", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "this reply is cut off half way through", dropAfterChunks: 3 });
    const stream = await openai().chat.completions.create(streamParams);
    const seen: string[] = [];
    const error = await (async () => {
      for await (const chunk of stream) seen.push(deltaOf(chunk)?.content ?? "");
    })().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(seen).toEqual(["", "this ", "reply"]);
  });

  it("holds a stream open until the client's AbortSignal ends it", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "partial answer", holdOpen: true });
    const controller = new AbortController();
    const stream = await openai().chat.completions.create(streamParams, { signal: controller.signal });
    let text = "";
    let finished = false;
    // A raw stream aborted by its signal ends its iteration quietly: no error, no finish chunk.
    for await (const chunk of stream) {
      text += deltaOf(chunk)?.content ?? "";
      if (chunk.choices[0]?.finish_reason != null) finished = true;
      if (text === "partial answer") controller.abort();
    }
    expect(text).toBe("partial answer");
    expect(finished).toBe(false);
    expect(controller.signal.aborted).toBe(true);
  });

  it("records the request, with tool results in the transcript", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "ok" });
    await collect(
      await openai().chat.completions.create({
        ...streamParams,
        messages: [
          { role: "system", content: "You are pitwall." },
          { role: "user", content: "list files" },
          {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "call_1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
          },
          { role: "tool", tool_call_id: "call_1", content: "README.md\npackage.json" },
          { role: "user", content: [{ type: "text", text: "also check the tests" }] },
        ],
      }),
    );
    const request = await llm.waitForRequest(1);
    expect(request.api).toBe("openai");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers["authorization"]).toBe("Bearer test-key");
    expect(request.json["stream_options"]).toEqual({ include_usage: true });
    expect(request.transcript).toContain("system: You are pitwall.");
    expect(request.transcript).toContain('(tool_call bash) {"command":"ls"}');
    expect(request.transcript).toContain("tool: README.md\npackage.json");
    expect(request.transcript).toContain("user: also check the tests");
  });
});
