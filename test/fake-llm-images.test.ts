// The fake LLM records the images a request carries, in Anthropic Messages and Chat Completions
// shapes, sent through the real SDK clients, so tests can assert what reached the "model".

import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, expect, it } from "vitest";
import { type FakeLlm, startFakeLlm } from "./fake-llm/index.js";

let llm: FakeLlm;

beforeEach(async () => {
  llm = await startFakeLlm();
});

afterEach(async () => {
  await llm.close();
});

const PNG = "iVBORw0KGgoAAAANSUhEUg==";
const JPEG = "/9j/4AAQSkZJRg==";

it("records Anthropic image blocks in user content and inside tool results", { timeout: 20_000 }, async () => {
  llm.enqueue({ kind: "reply", text: "ok" });
  const client = new Anthropic({ apiKey: "test-key", baseURL: llm.anthropicBaseUrl, maxRetries: 0 });
  await client.messages
    .stream({
      model: "claude-test",
      max_tokens: 10,
      messages: [
        { role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: PNG } }, { type: "text", text: "what is this?" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read", input: { file_path: "b.jpg" } }] },
        {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "[Image b.jpg]" }, { type: "image", source: { type: "base64", media_type: "image/jpeg", data: JPEG } }] }],
        },
      ],
    })
    .finalMessage();
  const request = await llm.waitForRequest(1);
  expect(request.images).toEqual([
    { in: "user", mimeType: "image/png", data: PNG },
    { in: "tool_result", mimeType: "image/jpeg", data: JPEG },
  ]);
  expect(request.transcript).toContain("user: (image)");
  expect(request.transcript).toContain("(tool_result) [Image b.jpg]");
});

it("records Chat Completions image_url data URLs", { timeout: 20_000 }, async () => {
  llm.enqueue({ kind: "reply", text: "ok" });
  const client = new OpenAI({ apiKey: "test-key", baseURL: llm.openaiBaseUrl, maxRetries: 0 });
  await client.chat.completions
    .stream({
      model: "gpt-test",
      stream: true,
      messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } }, { type: "text", text: "what is this?" }] }],
    })
    .finalChatCompletion();
  const request = await llm.waitForRequest(1);
  expect(request.images).toEqual([{ in: "user", mimeType: "image/png", data: PNG }]);
  expect(request.transcript).toContain("user: what is this?");
});
