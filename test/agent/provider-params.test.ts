// How thinking levels, tools and history translate into each API's request.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { lookupModel, resolveModel } from "../../agent/models.js";
import { buildParams as anthropicParams } from "../../agent/providers/anthropic.js";
import { buildParams as openaiParams } from "../../agent/providers/openai.js";
import { buildResponsesParams } from "../../agent/providers/openai-responses.js";
import { INTERRUPTED_RESULT, repairTranscript } from "../../agent/providers/transcript.js";

const request = (modelId: string, thinkingLevel: "off" | "minimal" | "low" | "medium" | "high", messages: Message[] = []) => ({
  model: lookupModel(modelId) ?? resolveModel(modelId, modelId.startsWith("claude") ? "anthropic" : "openai", "openai"),
  systemPrompt: "sys",
  messages: messages.length ? messages : [{ role: "user" as const, content: "hi", timestamp: 0 }],
  tools: [{ name: "read", description: "Read a file.", parameters: Type.Object({ file_path: Type.String() }) }],
  thinkingLevel,
});

const assistant = (content: AssistantMessage["content"], model = "claude-sonnet-5-5"): AssistantMessage => ({
  role: "assistant",
  content,
  provider: "anthropic",
  model,
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 0,
});

describe("Anthropic thinking levels", () => {
  it("switch adaptive thinking off, or steer it with an effort", () => {
    expect(anthropicParams(request("claude-sonnet-5-5", "off")).thinking).toEqual({ type: "disabled" });
    const high = anthropicParams(request("claude-sonnet-5-5", "high"));
    expect(high.thinking).toMatchObject({ type: "adaptive" });
    expect(high.output_config).toEqual({ effort: "high" });
    expect(anthropicParams(request("claude-sonnet-5-5", "minimal")).output_config).toEqual({ effort: "low" });
  });

  it("never send 'disabled' to a model whose thinking is always on", () => {
    const off = anthropicParams(request("claude-opus-5-5", "off"));
    expect(off.thinking).toBeUndefined();
    expect(off.output_config).toEqual({ effort: "low" });
  });

  it("give older models a token budget below max_tokens", () => {
    for (const level of ["minimal", "low", "medium", "high"] as const) {
      const params = anthropicParams(request("claude-haiku-4-5", level));
      expect(params.thinking?.type).toBe("enabled");
      const budget = params.thinking?.type === "enabled" ? params.thinking.budget_tokens : 0;
      expect(budget).toBeGreaterThanOrEqual(1024);
      expect(budget).toBeLessThan(params.max_tokens);
    }
    expect(anthropicParams(request("claude-haiku-4-5", "off")).thinking).toBeUndefined();
  });

  it("send thinking back only to the model that wrote it", () => {
    const history: Message[] = [
      { role: "user", content: "hi", timestamp: 0 },
      assistant([{ type: "thinking", thinking: "hmm", signature: "sig" }, { type: "text", text: "ok" }]),
      { role: "user", content: "again", timestamp: 0 },
    ];
    const same = anthropicParams(request("claude-sonnet-5-5", "off", history));
    expect(JSON.stringify(same.messages)).toContain('"signature":"sig"');
    const other = anthropicParams(request("claude-opus-5-5", "off", history));
    expect(JSON.stringify(other.messages)).not.toContain("sig");
  });
});

describe("OpenAI reasoning effort", () => {
  it("maps levels to each family's efforts", () => {
    expect(openaiParams(request("gpt-5.4", "off"), true).reasoning_effort).toBe("none");
    expect(openaiParams(request("gpt-5.4", "high"), true).reasoning_effort).toBe("high");
    expect(openaiParams(request("gpt-5", "off"), true).reasoning_effort).toBe("minimal");
    expect(openaiParams(request("o3", "minimal"), true).reasoning_effort).toBe("low");
    expect(openaiParams(request("gpt-4.1", "high"), true).reasoning_effort).toBeUndefined();
  });

  it("sends a local model an effort only when asked", () => {
    expect(openaiParams(request("qwen2.5-coder", "off"), false).reasoning_effort).toBeUndefined();
    expect(openaiParams(request("qwen2.5-coder", "medium"), false).reasoning_effort).toBe("medium");
  });
});

describe("OpenAI Responses requests", () => {
  it("store nothing, ask for encrypted reasoning and a summary, and carry the system prompt as instructions", () => {
    const params = buildResponsesParams(request("gpt-5.4", "high"), true);
    expect(params).toMatchObject({ model: "gpt-5.4", stream: true, store: false, instructions: "sys", reasoning: { effort: "high", summary: "auto" }, include: ["reasoning.encrypted_content"] });
    expect(params.tools).toEqual([{ type: "function", name: "read", description: "Read a file.", parameters: expect.any(Object), strict: false }]);
    expect(params.input).toEqual([{ type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] }]);
  });

  it("switch reasoning off where the family allows it, and send none to a model without reasoning", () => {
    const off = buildResponsesParams(request("gpt-5.4", "off"), true);
    expect(off.reasoning).toEqual({ effort: "none" });
    expect(off.include).toBeUndefined();
    expect(buildResponsesParams(request("gpt-5", "off"), true).reasoning).toEqual({ effort: "minimal", summary: "auto" });
    const plain = buildResponsesParams(request("gpt-4.1", "high"), true);
    expect(plain.reasoning).toBeUndefined();
    expect(plain.include).toBeUndefined();
  });

  it("send images as input_image data URLs, in messages and in function call outputs", () => {
    const image = { type: "image" as const, mimeType: "image/png" as const, data: "AAAA" };
    const history: Message[] = [
      { role: "user", content: "look", images: [image], timestamp: 0 },
      assistant([{ type: "toolCall", id: "c1", name: "read", arguments: { file_path: "x.png" } }], "gpt-5.4"),
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: "[Image x.png]", images: [image], isError: false, timestamp: 0 },
    ];
    const input = buildResponsesParams(request("gpt-5.4", "off", history), true).input;
    const dataUrl = { type: "input_image", detail: "auto", image_url: "data:image/png;base64,AAAA" };
    expect(input).toEqual([
      { type: "message", role: "user", content: [dataUrl, { type: "input_text", text: "look" }] },
      { type: "function_call", call_id: "c1", name: "read", arguments: '{"file_path":"x.png"}' },
      { type: "function_call_output", call_id: "c1", output: [{ type: "input_text", text: "[Image x.png]" }, dataUrl] },
    ]);
  });
});

describe("transcript repair", () => {
  it("closes a tool call left without a result, before the next user message", () => {
    const history: Message[] = [
      { role: "user", content: "go", timestamp: 0 },
      assistant([{ type: "toolCall", id: "a", name: "read", arguments: {} }, { type: "toolCall", id: "b", name: "read", arguments: {} }]),
      { role: "toolResult", toolCallId: "a", toolName: "read", content: "A", isError: false, timestamp: 0 },
      { role: "user", content: "steer", timestamp: 0 },
    ];
    const repaired = repairTranscript(history);
    expect(repaired.map((m) => (m.role === "toolResult" ? `result:${m.toolCallId}` : m.role))).toEqual(["user", "assistant", "result:a", "result:b", "user"]);
    expect(repaired[3]).toMatchObject({ isError: true, content: INTERRUPTED_RESULT });
  });

  it("drops an assistant message that ended before saying anything, and orphan results", () => {
    const history: Message[] = [
      { role: "user", content: "go", timestamp: 0 },
      { ...assistant([]), stopReason: "aborted" },
      { role: "toolResult", toolCallId: "zzz", toolName: "read", content: "?", isError: false, timestamp: 0 },
      { role: "user", content: "again", timestamp: 0 },
    ];
    expect(repairTranscript(history).map((m) => m.role)).toEqual(["user", "user"]);
  });
});
