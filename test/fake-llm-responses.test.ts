// The fake LLM's OpenAI Responses format, driven by the real openai SDK (no mocks): the events the
// Responses provider relies on come out of `client.responses` the way the real API's would.

import OpenAI from "openai";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeLlm, fakeEncryptedReasoning, startFakeLlm } from "./fake-llm/index.js";

let llm: FakeLlm;

beforeEach(async () => {
  llm = await startFakeLlm();
});

afterEach(async () => {
  await llm.close();
});

function openai(): OpenAI {
  return new OpenAI({ apiKey: "test-key", baseURL: llm.openaiBaseUrl, maxRetries: 0 });
}

const PARAMS = { model: "gpt-test", input: "hi", stream: true as const, store: false, include: ["reasoning.encrypted_content" as const] };
const TWO_CALLS = [
  { id: "call_first", name: "read", arguments: { path: "src/a.ts", offset: 10 } },
  { name: "bash", arguments: { command: "echo 'hello world' && ls -la", timeout: 30 } },
];

async function events(params: Parameters<OpenAI["responses"]["create"]>[0] & { stream: true } = PARAMS): Promise<ResponseStreamEvent[]> {
  const out: ResponseStreamEvent[] = [];
  for await (const event of await openai().responses.create(params)) out.push(event);
  return out;
}

describe("OpenAI Responses", () => {
  it("streams a reasoning summary in parts, then text, then usage with cached tokens", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", thinking: "First I look.\n\nThen I answer.", text: "Hello from the fake model.", usage: { input: 100, output: 20, cacheRead: 40 } });
    const seen = await events();
    const types = seen.map((e) => e.type);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    const summary = seen.flatMap((e) => (e.type === "response.reasoning_summary_text.delta" ? [[e.summary_index, e.delta] as const] : []));
    expect(summary.length).toBeGreaterThan(4);
    expect(summary.filter(([i]) => i === 0).map(([, d]) => d).join("")).toBe("First I look.");
    expect(summary.filter(([i]) => i === 1).map(([, d]) => d).join("")).toBe("Then I answer.");
    const text = seen.flatMap((e) => (e.type === "response.output_text.delta" ? [e.delta] : []));
    expect(text.length).toBeGreaterThan(3);
    expect(text.join("")).toBe("Hello from the fake model.");
    expect(seen.map((e) => e.sequence_number)).toEqual(seen.map((_, i) => i));

    // The SDK's own accumulator agrees.
    llm.enqueue({ kind: "reply", thinking: "Short.", text: "Done.", usage: { input: 100, output: 20, cacheRead: 40 } });
    const response = await openai().responses.stream({ model: "gpt-test", input: "hi", store: false, include: ["reasoning.encrypted_content"] }).finalResponse();
    expect(response.output_text).toBe("Done.");
    expect(response.output[0]).toMatchObject({ type: "reasoning", summary: [{ type: "summary_text", text: "Short." }], encrypted_content: fakeEncryptedReasoning("Short.") });
    expect(response.usage).toMatchObject({ input_tokens: 140, output_tokens: 20, total_tokens: 160, input_tokens_details: { cached_tokens: 40 } });
  });

  it("encrypts reasoning only when the request includes it", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", thinking: "Hidden.", text: "ok" });
    const seen = await events({ model: "gpt-test", input: "hi", stream: true });
    const done = seen.find((e) => e.type === "response.output_item.done" && e.item.type === "reasoning");
    expect(done?.type === "response.output_item.done" && done.item.type === "reasoning" && done.item.encrypted_content).toBeFalsy();
  });

  it("streams two function calls whose arguments arrive split across many deltas", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "Calling.", toolCalls: TWO_CALLS });
    const seen = await events();
    for (const [index, call] of TWO_CALLS.entries()) {
      const outputIndex = index + 1; // the text message is output 0
      const parts = seen.flatMap((e) => (e.type === "response.function_call_arguments.delta" && e.output_index === outputIndex ? [e.delta] : []));
      expect(parts.length).toBeGreaterThan(2);
      expect(JSON.parse(parts.join(""))).toEqual(call.arguments);
      const added = seen.find((e) => e.type === "response.output_item.added" && e.output_index === outputIndex);
      expect(added?.type === "response.output_item.added" && added.item).toMatchObject({ type: "function_call", name: call.name, arguments: "" });
    }

    llm.enqueue({ kind: "reply", toolCalls: TWO_CALLS });
    const response = await openai().responses.stream({ model: "gpt-test", input: "hi" }).finalResponse();
    const calls = response.output.flatMap((item) => (item.type === "function_call" ? [[item.call_id, item.name, JSON.parse(item.arguments)]] : []));
    expect(calls[0]).toEqual(["call_first", "read", TWO_CALLS[0]!.arguments]);
    expect(calls[1]?.[0]).toMatch(/^call_/);
    expect(calls[1]?.slice(1)).toEqual(["bash", TWO_CALLS[1]!.arguments]);
  });

  it("ends a reply cut by the output limit with response.incomplete", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "cut", stopReason: "length", usage: { input: 5, output: 9 } });
    const last = (await events()).at(-1);
    expect(last?.type).toBe("response.incomplete");
    expect(last?.type === "response.incomplete" && last.response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("fails inside the stream with response.failed or an error event", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "partial", responsesFailure: { event: "response.failed", code: "server_error", message: "the model crashed" } });
    const failed = (await events()).at(-1);
    expect(failed?.type === "response.failed" && failed.response.error).toEqual({ code: "server_error", message: "the model crashed" });

    llm.enqueue({ kind: "reply", text: "partial", responsesFailure: { event: "error", code: "rate_limit_exceeded", message: "too fast" } });
    const error = (await events()).at(-1);
    expect(error).toMatchObject({ type: "error", code: "rate_limit_exceeded", message: "too fast" });
  });

  it("answers a scripted HTTP error with the SDK's APIError, and a drop with an iteration error", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "error", status: 429, message: "slow down", headers: { "retry-after": "0" } });
    await expect(openai().responses.create(PARAMS)).rejects.toBeInstanceOf(OpenAI.RateLimitError);

    llm.enqueue({ kind: "reply", text: "this reply is cut off half way through", dropAfterChunks: 6 });
    const stream = await openai().responses.create(PARAMS);
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const event of stream) seen.push(event.type);
    })().then(() => undefined, (e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    expect(seen).toHaveLength(6);
    expect(seen).not.toContain("response.completed");
  });

  it("records the request: instructions, items and images in the transcript", { timeout: 20_000 }, async () => {
    llm.enqueue({ kind: "reply", text: "ok" });
    await events({
      ...PARAMS,
      instructions: "You are pitwall.",
      input: [
        { type: "message", role: "user", content: [{ type: "input_image", detail: "auto", image_url: "data:image/png;base64,iVBORw0KGgo=" }, { type: "input_text", text: "list files" }] },
        { type: "function_call", call_id: "call_1", name: "bash", arguments: '{"command":"ls"}' },
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "README.md" }, { type: "input_image", detail: "auto", image_url: "data:image/gif;base64,R0lGODlh" }] },
      ],
    });
    const request = await llm.waitForRequest(1);
    expect(request.api).toBe("responses");
    expect(request.path).toBe("/v1/responses");
    expect(request.transcript).toContain("system: You are pitwall.");
    expect(request.transcript).toContain("user: list files");
    expect(request.transcript).toContain('(tool_call bash) {"command":"ls"}');
    expect(request.transcript).toContain("(tool_result) README.md");
    expect(request.images).toEqual([
      { in: "user", mimeType: "image/png", data: "iVBORw0KGgo=" },
      { in: "tool_result", mimeType: "image/gif", data: "R0lGODlh" },
    ]);
  });
});
