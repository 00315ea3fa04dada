// When the Agent counts as idle, and what prompting after a run may rely on: the agent is idle
// from the moment `agent_end` is emitted (a listener may chain the next prompt from there, and its
// run's events come after that `agent_end`), a prompt that waited for the end of a run is never
// beaten to it by a watch trigger's wake, and what was still queued when a run was aborted goes
// after the next prompt, never ahead of it.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { AgentBusyError, promptWhenIdle, untilIdle } from "../../agent/agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { TriggeredBy, UserMessage } from "../../agent/messages.js";
import type { AgentTool } from "../../tools/tool.js";
import { waitFor } from "../helpers/conditions.js";
import { type ScriptedProvider, scriptedAgent } from "./scripted-provider.js";

const wake: TriggeredBy = { jobId: "2", triggerId: 1, pattern: "FAIL", ignoreCase: false, action: "wake", setBy: "person" };
const sent = (provider: ScriptedProvider, request: number): string[] =>
  provider.requests[request]!.messages.filter((m): m is UserMessage => m.role === "user").map((m) => `${m.origin ?? "prompt"}: ${m.content}`);
const types = (events: readonly PitwallEvent[]): string[] => events.map((e) => e.type).filter((t) => t !== "message_update" && t !== "queue_update");

/** A tool that waits until released: the agent stays busy meanwhile. */
function gate(): { tool: AgentTool; release: () => void } {
  let release = (): void => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    tool: { name: "wait", label: "Wait", description: "Waits.", parameters: Type.Object({}), execute: async () => (await done, { content: "waited" }) },
    release: () => release(),
  };
}

describe("the agent is idle at agent_end", () => {
  it("a listener of agent_end sees the agent idle and may chain the next prompt; that run's events come after the agent_end", async () => {
    const { agent, provider, events } = scriptedAgent([{ reply: { text: "First." } }, { reply: { text: "Second." } }]);
    const seen: Array<{ streaming: boolean; pending: number; streamMessage: boolean }> = [];
    let chained: Promise<void> | undefined;
    agent.subscribe((event) => {
      if (event.type !== "agent_end") return;
      const state = agent.state;
      seen.push({ streaming: state.isStreaming, pending: state.pendingToolCalls.size, streamMessage: state.streamMessage !== null });
      chained ??= agent.prompt("and then?");
    });
    // A listener subscribed after the one that prompts still gets this agent_end before the next run starts.
    const order: string[] = [];
    agent.subscribe((event) => {
      if (event.type === "agent_start" || event.type === "agent_end") order.push(event.type);
    });
    await agent.prompt("first");
    await chained;
    expect(seen[0]).toEqual({ streaming: false, pending: 0, streamMessage: false });
    expect(order).toEqual(["agent_start", "agent_end", "agent_start", "agent_end"]);
    expect(types(events)).toEqual([
      ...["agent_start", "turn_start", "message_start", "message_end", "message_start", "message_end", "turn_end", "agent_end"],
      ...["agent_start", "turn_start", "message_start", "message_end", "message_start", "message_end", "turn_end", "agent_end"],
    ]);
    expect(sent(provider, 1)).toEqual(["prompt: first", "prompt: and then?"]);
  });

  it("from agent_end only one thing starts: a second prompt there is refused as busy", async () => {
    const { agent } = scriptedAgent([{ reply: { text: "First." } }, { reply: { text: "Second." } }]);
    let second: unknown;
    let chained: Promise<void> | undefined;
    agent.subscribe((event) => {
      if (event.type !== "agent_end" || chained) return;
      chained = agent.prompt("next");
      agent.prompt("one more").catch((error: unknown) => (second = error));
    });
    await agent.prompt("first");
    await chained;
    expect(second).toBeInstanceOf(AgentBusyError);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("a prompt that waited for the agent goes before a watch trigger's wake that waited for the same moment, and takes the wake's message along", async () => {
    const { agent, provider, events } = scriptedAgent([{ reply: { text: "Both." } }]);
    // Something holds the agent (a rewind moving the session): a wake arriving meanwhile waits…
    let release = (): void => undefined;
    const held = agent.hold(() => new Promise<void>((resolve) => (release = resolve)));
    agent.deliverTriggered({ text: "job 2 printed: FAIL sums", fromLine: 1, toLine: 1, at: Date.now() }, wake);
    expect(agent.state.queue.steering).toEqual(["job 2 printed: FAIL sums"]);
    // …and so does the person's next prompt, which must not find the agent busy when it is over.
    const next = (async () => {
      await untilIdle(agent);
      await agent.prompt("next");
    })();
    release();
    await held;
    await next;
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent(provider, 0)).toEqual(["trigger: job 2 printed: FAIL sums", "prompt: next"]);
    expect(events.filter((e) => e.type === "agent_start")).toHaveLength(1);
    expect(agent.state.isStreaming).toBe(false);
  });

  it("promptWhenIdle waits for a run a wake started, then prompts with nothing in between", async () => {
    const { agent, provider, events } = scriptedAgent([{ reply: { text: "Woken." } }, { reply: { text: "Mine." } }]);
    agent.deliverTriggered({ text: "job 2 printed: FAIL sums", fromLine: 1, toLine: 1, at: Date.now() }, wake);
    expect(agent.state.isStreaming).toBe(true);
    await promptWhenIdle(agent, "mine");
    expect(events.filter((e) => e.type === "agent_end")).toHaveLength(2);
    expect(sent(provider, 1).at(-1)).toBe("prompt: mine");
  });
});

describe("what was queued when a run was aborted", () => {
  it("stays queued and goes after the next prompt: steers in its first request, right after it; follow-ups when its run would stop", async () => {
    const { tool, release } = gate();
    const { agent, provider, events } = scriptedAgent(
      [{ reply: { toolCalls: [{ id: "t1", name: "wait", arguments: "{}" }] } }, { reply: { text: "Fresh start." } }, { reply: { text: "Followed up." } }],
      [tool],
    );
    const run = agent.prompt("work");
    await waitFor(() => events.some((e) => e.type === "tool_execution_start"), "the tool to start");
    agent.steer("also check the logs");
    agent.followUp("then summarise");
    agent.abort();
    release();
    await run;
    // Aborted: nothing of it was sent, and it waits in the queue, in order.
    expect(provider.requests).toHaveLength(1);
    expect(agent.state.queue).toEqual({ steering: ["also check the logs"], followUp: ["then summarise"] });
    await agent.prompt("do something else");
    expect(sent(provider, 1).slice(-2)).toEqual(["prompt: do something else", "steer: also check the logs"]);
    expect(sent(provider, 2).at(-1)).toBe("follow_up: then summarise");
    expect(agent.state.queue).toEqual({ steering: [], followUp: [] });
  });
});
