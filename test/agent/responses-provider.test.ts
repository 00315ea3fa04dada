// The OpenAI Responses path end to end: the agent, the real openai SDK and the fake server. What
// the generic loop tests do not cover: reasoning carried between turns (encrypted, store:false),
// cached tokens and their price, in-stream failures, and a stream cut before it completed.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { lookupModel } from "../../agent/models.js";
import { createOpenAIResponsesProvider } from "../../agent/providers/openai-responses.js";
import type { ProviderError } from "../../agent/providers/provider.js";
import { fakeEncryptedReasoning } from "../fake-llm/index.js";
import { agentFor, echoTool, recordEvents } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();

const assistants = (messages: readonly Message[]): AssistantMessage[] => messages.filter((m): m is AssistantMessage => m.role === "assistant");
const inputOf = (index: number): Array<Record<string, unknown>> => llm.requests[index]!.json["input"] as Array<Record<string, unknown>>;

describe("reasoning across turns", () => {
  it("shows the summary as thinking and sends the encrypted reasoning back, without item ids", async () => {
    const agent = agentFor(llm, "responses", [echoTool], { thinkingLevel: "high" });
    llm.enqueue(
      { kind: "reply", thinking: "I should echo.\n\nThen stop.", toolCalls: [{ id: "call_1", name: "echo", arguments: { text: "hi" } }] },
      { kind: "reply", thinking: "Done now.", text: "Echoed." },
    );
    await agent.prompt("echo hi");

    const first = llm.requests[0]!.json;
    expect(first).toMatchObject({ store: false, stream: true, include: ["reasoning.encrypted_content"], reasoning: { effort: "high", summary: "auto" } });
    expect(first["instructions"]).toBe("You are a test agent.");

    const [reply] = assistants(agent.state.messages);
    const thinking = reply!.content[0];
    expect(thinking).toEqual({
      type: "thinking",
      thinking: "I should echo.\n\nThen stop.",
      reasoningItem: { summary: ["I should echo.", "Then stop."], encryptedContent: fakeEncryptedReasoning("I should echo.\n\nThen stop.") },
    });

    // The second request carries the reasoning item, then the call, then its output, all id-less.
    const input = inputOf(1);
    const kinds = input.map((item) => item["type"] ?? item["role"]);
    expect(kinds).toEqual(["message", "reasoning", "function_call", "function_call_output"]);
    expect(input[1]).toEqual({
      type: "reasoning",
      summary: [
        { type: "summary_text", text: "I should echo." },
        { type: "summary_text", text: "Then stop." },
      ],
      encrypted_content: fakeEncryptedReasoning("I should echo.\n\nThen stop."),
    });
    expect(input[2]).toEqual({ type: "function_call", call_id: "call_1", name: "echo", arguments: '{"text":"hi"}' });
    expect(input[3]).toEqual({ type: "function_call_output", call_id: "call_1", output: "echo: hi" });
    expect(input.some((item) => "id" in item)).toBe(false);
  });

  it("survives a session resume (JSON round trip) and stays with the model that wrote it", async () => {
    const first = agentFor(llm, "responses", [], { thinkingLevel: "medium" });
    llm.enqueue({ kind: "reply", thinking: "Remember this.", text: "Noted." });
    await first.prompt("remember");
    const saved = JSON.parse(JSON.stringify(first.state.messages)) as Message[];

    const resumed = agentFor(llm, "responses", [], { thinkingLevel: "medium", messages: saved });
    llm.enqueue({ kind: "reply", text: "Still here." });
    await resumed.prompt("go on");
    expect(inputOf(1).find((item) => item["type"] === "reasoning")).toMatchObject({ encrypted_content: fakeEncryptedReasoning("Remember this.") });
    expect(llm.requests[1]!.transcript).toContain("assistant: Noted.");

    const other = agentFor(llm, "responses", [], { thinkingLevel: "medium", messages: saved }, "gpt-5.4-mini");
    llm.enqueue({ kind: "reply", text: "New model." });
    await other.prompt("go on");
    expect(inputOf(2).some((item) => item["type"] === "reasoning")).toBe(false);
    expect(llm.requests[2]!.transcript).toContain("assistant: Noted.");
  });
});

describe("usage", () => {
  it("counts cached tokens apart and prices them at the cache-read price", async () => {
    const agent = agentFor(llm, "responses");
    llm.enqueue({ kind: "reply", text: "ok", usage: { input: 1000, output: 200, cacheRead: 9000 } });
    await agent.prompt("hi");
    const usage = assistants(agent.state.messages)[0]!.usage;
    expect(usage).toMatchObject({ input: 1000, output: 200, cacheRead: 9000, cacheWrite: 0, totalTokens: 10_200 });
    const price = lookupModel("gpt-5.4")!.pricing!;
    expect(usage.cost?.cacheRead).toBeCloseTo((9000 * price.cacheRead) / 1e6, 10);
    expect(usage.cost?.total).toBeCloseTo((1000 * price.input + 200 * price.output + 9000 * price.cacheRead) / 1e6, 10);
  });

  it("ends a reply cut at the output limit as 'length'", async () => {
    const agent = agentFor(llm, "responses");
    llm.enqueue({ kind: "reply", text: "cut here", stopReason: "length" });
    await agent.prompt("hi");
    expect(assistants(agent.state.messages)[0]!.stopReason).toBe("length");
  });
});

describe("failures inside the stream", () => {
  it("retries a response.failed with a server error, discarding the partial reply", async () => {
    const agent = agentFor(llm, "responses");
    const events = recordEvents(agent);
    llm.enqueue({ kind: "reply", text: "half an answer", responsesFailure: { event: "response.failed", code: "server_error", message: "the model crashed" } }, { kind: "reply", text: "Whole answer." });
    await agent.prompt("hi");
    const retry = events.find((e) => e.type === "retry");
    expect(retry && "reason" in retry ? retry.reason : "").toMatch(/server_error mid-stream: the model crashed/);
    expect(assistants(agent.state.messages).map((m) => m.content)).toEqual([[{ type: "text", text: "Whole answer." }]]);
  });

  it("does not retry an error event that says the request is wrong, and says what the server said", async () => {
    const agent = agentFor(llm, "responses");
    const events = recordEvents(agent);
    llm.enqueue({ kind: "reply", text: "no", responsesFailure: { event: "error", code: "invalid_prompt", message: "the prompt was refused" } });
    await agent.prompt("hi");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    expect(agent.state.error).toMatch(/OpenAI-compatible server .* reported invalid_prompt mid-stream: the prompt was refused/);
    expect(assistants(agent.state.messages)[0]!.stopReason).toBe("error");
  });

  it("treats a stream that ends cleanly before response.completed as cut, and retryable", async () => {
    // A server that opens the response, says one word, and closes the body.
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`event: response.created\ndata: ${JSON.stringify({ type: "response.created", sequence_number: 0, response: { id: "resp_1", status: "in_progress", output: [] } })}\n\n`);
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const provider = createOpenAIResponsesProvider({ apiKey: "k", baseUrl: `http://127.0.0.1:${port}/v1` });
      const stream = provider.stream({ model: lookupModel("gpt-5.4")!, systemPrompt: "", messages: [{ role: "user", content: "hi", timestamp: 0 }], tools: [], thinkingLevel: "off" }, new AbortController().signal);
      const error = (await stream.result().then(() => undefined, (e: unknown) => e)) as ProviderError;
      expect(error.message).toMatch(/ended before the response was complete/);
      expect(error.options.retryable).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
