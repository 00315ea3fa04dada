// The message builder both providers stream through: text and thinking blocks, tool calls whose
// arguments are parsed as they stream, usage and cost, the stop reason, and how a stream ends on an
// abort or a failure.
import { describe, expect, it } from "vitest";
import type { AssistantDelta } from "../../agent/events.js";
import { resolveModel } from "../../agent/models.js";
import { MessageBuilder, streamInto } from "../../agent/providers/message-builder.js";
import { ProviderError } from "../../agent/providers/provider.js";

const model = resolveModel("claude-sonnet-5-5", "anthropic", "anthropic");

async function deltasOf(builder: MessageBuilder): Promise<AssistantDelta[]> {
  const out: AssistantDelta[] = [];
  for await (const delta of builder.stream) out.push(delta);
  return out;
}

describe("message builder", () => {
  it("joins text and thinking deltas into blocks, one delta event per change", async () => {
    const b = new MessageBuilder(model);
    const seen = deltasOf(b);
    b.thinking("Let me ");
    b.thinking("see.");
    b.text("Hello, ");
    b.text("");
    b.text("world.");
    b.finish();
    expect(b.message.content).toEqual([
      { type: "thinking", thinking: "Let me see." },
      { type: "text", text: "Hello, world." },
    ]);
    expect((await seen).map((d) => d.kind)).toEqual(["thinking_delta", "thinking_delta", "text_delta", "text_delta"]);
    expect(await b.stream.result()).toBe(b.message);
  });

  it("parses tool-call arguments while they stream, and for good at the end", () => {
    const b = new MessageBuilder(model);
    const i = b.startToolCall("call-1", "edit");
    b.toolCallDelta(i, '{"file_path":"a.ts","old_');
    expect(b.message.content[i]).toMatchObject({ type: "toolCall", arguments: { file_path: "a.ts" } });
    b.toolCallDelta(i, 'string":"x"}');
    b.endToolCall(i);
    expect(b.message.content[i]).toEqual({ type: "toolCall", id: "call-1", name: "edit", arguments: { file_path: "a.ts", old_string: "x" } });
    b.finish();
    expect(b.message.stopReason).toBe("toolUse");
  });

  it("keeps arguments that are not a JSON object as invalidArguments, and closes calls left open", () => {
    const b = new MessageBuilder(model);
    const bad = b.startToolCall("c1", "read");
    b.toolCallDelta(bad, "[1, 2");
    b.endToolCall(bad);
    const open = b.startToolCall("c2", "ls");
    b.finish();
    expect(b.message.content[bad]).toMatchObject({ invalidArguments: "[1, 2" });
    expect(b.message.content[open]).toMatchObject({ arguments: {} });
  });

  it("adds up usage and prices it with the model's table", () => {
    const b = new MessageBuilder(model);
    b.setUsage({ input: 1000, output: 200 });
    b.setUsage({ cacheRead: 300 });
    expect(b.message.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 300, totalTokens: 1500 });
    expect(b.message.usage.cost?.total).toBeGreaterThan(0);
  });

  it("streamInto: an abort ends the stream with the partial message marked aborted", async () => {
    const controller = new AbortController();
    const stream = streamInto(
      model,
      controller.signal,
      async (b) => {
        b.text("Half a");
        controller.abort();
        throw Object.assign(new Error("Request was aborted."), { name: "APIUserAbortError" });
      },
      () => new ProviderError("unexpected", "connection"),
    );
    const message = await stream.result();
    expect(message).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "Half a" }] });
  });

  it("streamInto: any other failure rejects the stream with the ProviderError made of it", async () => {
    const stream = streamInto(
      model,
      new AbortController().signal,
      async () => {
        throw Object.assign(new Error("aborted"), { code: "ECONNRESET" });
      },
      (error) => new ProviderError(`dropped: ${(error as Error).message}`, "connection", { retryable: true }),
    );
    await expect(stream.result()).rejects.toMatchObject({ message: "dropped: aborted", kind: "connection" });
  });
});
