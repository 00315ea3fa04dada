// A tool call's huge argument runs in full but is not sent again whole with every later request:
// the conversation as requested stays small, the session keeps the call whole.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import type { AssistantMessage } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { MAX_SENT_ARGUMENT_CHARS, sentConversation, sentForm } from "../../agent/context/sent-arguments.js";
import type { AgentTool } from "../../tools/tool.js";
import { agentFor } from "../helpers/agent-harness.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";

const llm = useFakeLlm();

function call(args: Record<string, unknown>): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text: "writing" }, { type: "toolCall", id: "c1", name: "write", arguments: args }],
    provider: "anthropic",
    model: "m",
    usage: emptyUsage(),
    stopReason: "toolUse",
    timestamp: 0,
  };
}

describe("what is sent again of an earlier tool call", () => {
  it("is the message itself when every argument is short", () => {
    const message = call({ path: "a.txt", content: "short" });
    expect(sentForm(message)).toBe(message);
  });

  it("shortens long strings anywhere in the arguments, keeping head and tail, and leaves the original whole", () => {
    const long = `HEAD${"x".repeat(100_000)}TAIL`;
    const message = call({ path: "a.txt", content: long, edits: [{ text: long }] });
    const sent = sentForm(message);
    const args = (sent.content[1] as unknown as { arguments: { content: string; edits: Array<{ text: string }> } }).arguments;
    for (const text of [args.content, args.edits[0]!.text]) {
      expect(text.length).toBeLessThan(MAX_SENT_ARGUMENT_CHARS);
      expect(text.startsWith("HEAD")).toBe(true);
      expect(text.endsWith("TAIL")).toBe(true);
      expect(text).toContain("characters left out of what is sent again");
    }
    expect((message.content[1] as unknown as { arguments: { content: string } }).arguments.content).toBe(long);
    expect(sentForm(message)).toBe(sent);
  });

  it("keeps a 10 MB argument out of every later request, while the tool got all of it", async () => {
    const content = "y".repeat(10 * 1024 * 1024);
    const received: number[] = [];
    const tool: AgentTool = {
      name: "write_blob",
      label: "Write blob",
      description: "Takes a large content argument.",
      parameters: Type.Object({ content: Type.String() }),
      async execute(_id, params: { content: string }) {
        received.push(params.content.length);
        return { content: `received ${params.content.length} chars` };
      },
    };
    llm.enqueue({ kind: "reply", chunkSize: 65_536, toolCalls: [{ name: "write_blob", arguments: { content } }] }, { kind: "reply", text: "written" });
    const agent = agentFor(llm, "anthropic", [tool]);
    await agent.prompt("write it");
    expect(received).toEqual([content.length]);
    const later = llm.requests.slice(1);
    expect(later.length).toBeGreaterThan(0);
    for (const request of later) expect(request.transcript.length).toBeLessThan(100_000);
    expect(later.at(-1)!.transcript).toContain(`received ${content.length} chars`);
    expect(agent.state.messages.some((m) => m.role === "assistant" && JSON.stringify(m).length > content.length)).toBe(true);
  }, 60_000);
});

describe("a reply that did not finish, as it is sent again", () => {
  const reply = (stopReason: AssistantMessage["stopReason"], content: AssistantMessage["content"]): AssistantMessage => ({ role: "assistant", content, provider: "anthropic", model: "m", usage: emptyUsage(), stopReason, timestamp: 0 });
  const text = (m: AssistantMessage): string => m.content.map((b) => (b.type === "text" ? b.text : `(${b.type})`)).join("|");

  it("is marked as cut where its text stops, saying why; the message kept is unchanged", () => {
    const aborted = reply("aborted", [{ type: "text", text: "First we read the" }]);
    const failed = reply("error", [{ type: "text", text: "Half of" }]);
    const long = reply("length", [{ type: "text", text: "Too much to" }]);
    const [a, f, l] = sentConversation([aborted, failed, long]) as AssistantMessage[];
    expect(text(a!)).toBe("First we read the\n\n[cut off here: the person stopped this reply before it finished]");
    expect(text(f!)).toBe("Half of\n\n[cut off here: the request failed before this reply finished]");
    expect(text(l!)).toBe("Too much to\n\n[cut off here: this reply reached the output limit]");
    expect(text(aborted)).toBe("First we read the");
  });

  it("is left alone when it finished, or when it stopped in a tool call (whose result says it was interrupted)", () => {
    const done = reply("stop", [{ type: "text", text: "All done." }]);
    const inCall = reply("aborted", [{ type: "text", text: "Running it" }, { type: "toolCall", id: "c1", name: "bash", arguments: {} }]);
    expect(sentConversation([done, inCall])).toEqual([done, inCall]);
  });
});

