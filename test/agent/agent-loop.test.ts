// The agent loop against the fake LLM server, through the real Anthropic and OpenAI SDK clients.
import { describe, expect, it } from "vitest";
import type { AssistantMessage, ToolResultMessage } from "../../agent/messages.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { agentFor, echoTool, gateTool, recordEvents } from "../helpers/agent-harness.js";
import { waitFor } from "../helpers/conditions.js";

const llm = useFakeLlm();

const lastAssistant = (messages: readonly { role: string }[]): AssistantMessage =>
  [...messages].reverse().find((m) => m.role === "assistant") as AssistantMessage;

describe.each(["anthropic", "openai", "responses"] as const)("with %s", (provider) => {
  it("streams text token by token, with thinking and usage", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.enqueue({ kind: "reply", thinking: "let me think", text: "Hello from the fake model.", usage: { input: 100, output: 20 } });
    await agent.prompt("hi");
    const deltas = events.flatMap((e) => (e.type === "message_update" && e.delta.kind === "text_delta" ? [e.delta.delta] : []));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe("Hello from the fake model.");
    const reply = lastAssistant(agent.state.messages);
    expect(reply.content.find((c) => c.type === "thinking")).toMatchObject({ thinking: "let me think" });
    expect(reply.usage.input).toBe(100);
    expect(reply.usage.output).toBe(20);
    expect(reply.usage.cost?.total).toBeGreaterThan(0);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(["agent_start", "turn_start", "message_start", "message_end", "turn_end", "agent_end"]));
    expect(JSON.parse(JSON.stringify(events))).toHaveLength(events.length);
  });

  it("runs a tool round trip: two calls with split arguments, results fed back", async () => {
    const agent = agentFor(llm, provider, [echoTool]);
    const events = recordEvents(agent);
    llm.enqueue(
      { kind: "reply", text: "Calling.", toolCalls: [{ name: "echo", arguments: { text: "alpha beta gamma" } }, { name: "echo", arguments: { text: "ab", times: 3 } }] },
      { kind: "reply", text: "Both done." },
    );
    await agent.prompt("echo things");
    const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => r.content)).toEqual(["echo: alpha beta gamma", "echo: ababab"]);
    expect(results.every((r) => !r.isError)).toBe(true);
    const second = await llm.waitForRequest(2);
    expect(second.transcript).toContain("echo: alpha beta gamma");
    expect(second.transcript).toContain("echo: ababab");
    const ends = events.filter((e) => e.type === "tool_execution_end");
    expect(ends).toHaveLength(2);
    expect(lastAssistant(agent.state.messages).content).toEqual([{ type: "text", text: "Both done." }]);
  });

  it("turns invalid tool arguments into an error result the model reads, and keeps going", async () => {
    const agent = agentFor(llm, provider, [echoTool]);
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "echo", arguments: { text: 42, times: "many" } }, { name: "echo", arguments: "{not json" }, { name: "nope", arguments: {} }] },
      { kind: "reply", text: "Understood." },
    );
    await agent.prompt("break things");
    const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.isError)).toBe(true);
    expect(results[0]!.content).toMatch(/Invalid arguments for echo: .*times/);
    expect(results[1]!.content).toMatch(/not a JSON object/);
    expect(results[2]!.content).toMatch(/Unknown tool 'nope'. Available tools: echo/);
    const second = await llm.waitForRequest(2);
    expect(second.transcript).toContain("Unknown tool 'nope'");
    expect(lastAssistant(agent.state.messages).stopReason).toBe("stop");
  });

  it("delivers a steer typed during a tool after that tool's batch, skipping nothing", async () => {
    const gate = gateTool();
    const agent = agentFor(llm, provider, [gate.tool, echoTool]);
    const events = recordEvents(agent);
    llm.enqueue(
      { kind: "reply", toolCalls: [{ name: "slow", arguments: {} }, { name: "echo", arguments: { text: "second" } }] },
      { kind: "reply", text: "Noted the steer." },
    );
    const run = agent.prompt("do slow work");
    await waitFor(gate.started, "the slow tool to start", 10_000);
    agent.steer("also run the linter");
    expect(agent.state.queue.steering).toEqual(["also run the linter"]);
    gate.release();
    await run;
    const second = await llm.waitForRequest(2);
    expect(second.transcript).toContain("slow: done");
    expect(second.transcript).toContain("echo: second");
    expect(second.transcript).toContain("also run the linter");
    expect(llm.requests[0]!.transcript).not.toContain("also run the linter");
    const queueEvents = events.filter((e) => e.type === "queue_update");
    expect(queueEvents.at(-1)).toMatchObject({ steering: [], followUp: [] });
  });

  it("delivers a follow-up only when the agent would stop", async () => {
    const gate = gateTool();
    const agent = agentFor(llm, provider, [gate.tool]);
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "slow", arguments: {} }] }, { kind: "reply", text: "First task done." }, { kind: "reply", text: "Follow-up done." });
    const run = agent.prompt("first task");
    await waitFor(gate.started, "the slow tool to start", 10_000);
    agent.followUp("then write the changelog");
    gate.release();
    await run;
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[1]!.transcript).not.toContain("then write the changelog");
    expect(llm.requests[2]!.transcript).toContain("First task done.");
    expect(llm.requests[2]!.transcript).toContain("then write the changelog");
    expect(lastAssistant(agent.state.messages).content).toEqual([{ type: "text", text: "Follow-up done." }]);
  });

  it("aborts mid-stream at once and keeps the partial message, marked aborted", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.enqueue({ kind: "reply", text: "This answer is long and will be cut off somewhere in the middle.", delayMs: 20, holdOpen: true });
    const run = agent.prompt("talk");
    await waitFor(() => events.some((e) => e.type === "message_update"), "the first delta", 10_000);
    // The server holds the stream open: only the abort can end the run.
    agent.abort();
    await run;
    const reply = lastAssistant(agent.state.messages);
    expect(reply.stopReason).toBe("aborted");
    const text = reply.content.map((c) => (c.type === "text" ? c.text : "")).join("");
    expect(text.length).toBeGreaterThan(0);
    expect("This answer is long and will be cut off somewhere in the middle.".startsWith(text)).toBe(true);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("aborting during a tool cancels the tool and the rest of the batch", async () => {
    const gate = gateTool();
    const agent = agentFor(llm, provider, [gate.tool, echoTool]);
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "slow", arguments: {} }, { name: "echo", arguments: { text: "never" } }] });
    const run = agent.prompt("work");
    await waitFor(gate.started, "the slow tool to start", 10_000);
    agent.abort();
    await run;
    expect(gate.sawAbort()).toBe(true);
    const results = agent.state.messages.filter((m): m is ToolResultMessage => m.role === "toolResult");
    expect(results.map((r) => r.isError)).toEqual([true, true]);
    expect(results[1]!.content).toMatch(/aborted/);
    expect(llm.requests).toHaveLength(1);
  });

  it("retries after a 429, honouring retry-after, and announces the retry", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.enqueue({ kind: "error", status: 429, message: "slow down", headers: { "retry-after": "0" } }, { kind: "reply", text: "Made it." });
    await agent.prompt("hi");
    const retries = events.filter((e) => e.type === "retry");
    expect(retries).toEqual([expect.objectContaining({ attempt: 2, maxAttempts: 3, delayMs: 0 })]);
    expect(lastAssistant(agent.state.messages).content).toEqual([{ type: "text", text: "Made it." }]);
  });

  it("retries after a connection dropped mid-stream, discarding the partial reply", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.enqueue({ kind: "reply", text: "This reply is going to be interrupted by a drop.", dropAfterChunks: 4 }, { kind: "reply", text: "Second try worked." });
    await agent.prompt("hi");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(1);
    expect(llm.requests).toHaveLength(2);
    const assistants = agent.state.messages.filter((m) => m.role === "assistant");
    expect(assistants).toHaveLength(1);
    expect(lastAssistant(agent.state.messages).content).toEqual([{ type: "text", text: "Second try worked." }]);
  });

  it("gives up after the last attempt with an error a person can act on", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.setFallback({ kind: "error", status: 503, message: "overloaded", headers: { "retry-after": "0" } });
    await agent.prompt("hi");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(2);
    const error = events.find((e) => e.type === "error");
    expect(error).toMatchObject({ source: "provider" });
    const label = provider === "anthropic" ? "Anthropic" : "OpenAI-compatible server";
    expect(error && "message" in error ? error.message : "").toContain(label);
    expect(error && "message" in error ? error.message : "").toMatch(/503.*after 3 attempts/);
    expect(lastAssistant(agent.state.messages).stopReason).toBe("error");
    expect(agent.state.error).toMatch(/503/);
  });

  it("does not retry a 401 and names the key to check", async () => {
    const agent = agentFor(llm, provider);
    const events = recordEvents(agent);
    llm.enqueue({ kind: "error", status: 401, message: "invalid x-api-key" });
    await agent.prompt("hi");
    expect(events.filter((e) => e.type === "retry")).toHaveLength(0);
    const variable = provider === "anthropic" ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY";
    expect(agent.state.error).toContain(`returned 401`);
    expect(agent.state.error).toContain(variable);
  });
});

describe("notices", () => {
  it("reach the model with the next request, once", async () => {
    const pending = ["Job 3 (npm run dev) exited with code 1."];
    const agent = agentFor(llm, "anthropic", [], { noticeSources: [() => pending.splice(0)] });
    llm.enqueue({ kind: "reply", text: "ok" }, { kind: "reply", text: "ok again" });
    await agent.prompt("first");
    await agent.prompt("second");
    expect(llm.requests[0]!.transcript).toContain("Job 3 (npm run dev) exited with code 1.");
    expect(llm.requests[1]!.transcript.match(/exited with code 1/g)).toHaveLength(1);
  });
});
