// Images reach the model in each API's own format: with the person's prompt, and in a tool's
// result (Anthropic inside tool_result, Responses inside function_call_output, Chat Completions as
// a user message after the tool messages). A model the table knows to be text-only gets none.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { ImageInputError } from "../../agent/agent.js";
import type { ImageContent } from "../../agent/messages.js";
import type { AgentTool } from "../../tools/tool.js";
import { agentFor, gateTool } from "../helpers/agent-harness.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();

const PNG: ImageContent = { type: "image", mimeType: "image/png", data: "iVBORw0KGgoAAAANSUhEUgAAAAE=", name: "shot.png", width: 1, height: 1 };
const JPEG: ImageContent = { type: "image", mimeType: "image/jpeg", data: "/9j/4AAQSkZJRgABAQ==", name: "photo.jpg", width: 2, height: 2 };

const screenshotTool: AgentTool = {
  name: "screenshot",
  label: "Screenshot",
  description: "Returns an image.",
  parameters: Type.Object({}),
  async execute() {
    return { content: "[Image photo.jpg 2×2]", images: [JPEG] };
  },
};

describe.each(["anthropic", "openai", "responses"] as const)("with %s", (api) => {
  it("sends the person's image with the prompt, before the text", async () => {
    const agent = agentFor(llm, api);
    llm.enqueue({ kind: "reply", text: "A blue square." });
    await agent.prompt("what is in [image: shot.png]?", [PNG]);
    const request = await llm.waitForRequest(1);
    expect(request.images).toEqual([{ in: "user", mimeType: "image/png", data: PNG.data }]);
    expect(request.transcript).toMatch(/\(image\)[\s\S]*what is in \[image: shot.png\]\?/);
    expect(agent.state.messages[0]).toMatchObject({ role: "user", images: [PNG] });
  });

  it("sends a tool result's image with the next request", async () => {
    const agent = agentFor(llm, api, [screenshotTool]);
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "screenshot", arguments: {} }] }, { kind: "reply", text: "I see a photo." });
    await agent.prompt("take a screenshot");
    const request = await llm.waitForRequest(2);
    expect(request.images).toEqual([{ in: api === "openai" ? "user" : "tool_result", mimeType: "image/jpeg", data: JPEG.data }]);
    expect(request.transcript).toContain("[Image photo.jpg 2×2]");
    if (api === "openai") expect(request.transcript).toContain("Image(s) returned by the tool call(s) above:");
  });
});

describe("queued messages", () => {
  it("a steer carries its image to the next request, and one taken back returns it", async () => {
    const gate = gateTool();
    const agent = agentFor(llm, "anthropic", [gate.tool]);
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "slow", arguments: {} }] }, { kind: "reply", text: "Seen." });
    const run = agent.prompt("work");
    await waitFor(gate.started, "the slow tool to start", 10_000);
    agent.followUp("later [image: photo.jpg]", [JPEG]);
    expect(agent.dequeueLast()).toEqual({ kind: "follow_up", text: "later [image: photo.jpg]", images: [JPEG], at: expect.any(Number) });
    agent.steer("now look at [image: shot.png]", [PNG]);
    expect(agent.state.queue.steering).toEqual(["now look at [image: shot.png]"]);
    gate.release();
    await run;
    const second = await llm.waitForRequest(2);
    expect(second.images).toEqual([{ in: "user", mimeType: "image/png", data: PNG.data }]);
    expect(second.transcript).toContain("now look at [image: shot.png]");
  });
});

describe("a model the table knows to take text only", () => {
  it("refuses the person's image before any request", async () => {
    const agent = agentFor(llm, "responses", [], {}, "o3-mini");
    await expect(agent.prompt("look", [PNG])).rejects.toBeInstanceOf(ImageInputError);
    await expect(agent.prompt("look", [PNG])).rejects.toThrow(/o3-mini takes text only.*\/model/);
    expect(() => agent.steer("look", [PNG])).toThrow(ImageInputError);
    expect(llm.requests).toHaveLength(0);
  });

  it("gets a note instead of an image a tool returned", async () => {
    const agent = agentFor(llm, "responses", [screenshotTool], {}, "o3-mini");
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "screenshot", arguments: {} }] }, { kind: "reply", text: "ok" });
    await agent.prompt("take a screenshot");
    const request = await llm.waitForRequest(2);
    expect(request.images).toEqual([]);
    expect(request.transcript).toContain("An image was not sent (photo.jpg): o3-mini takes text only.");
  });
});
