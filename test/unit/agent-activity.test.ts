// What the agents overview says of one agent, from its events: working, blocked on a job (which),
// waiting for the person after a run that ended unseen (until they look), idle, error with its
// reason; the last line, cost, tokens and the files it changed.
import { describe, expect, it } from "vitest";
import { AgentActivity } from "../../app/agent-activity.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage } from "../../agent/messages.js";

function source(): { emit(event: PitwallEvent): void; subscribe(listener: (event: PitwallEvent) => void): () => void; contextPercent(): number } {
  const listeners = new Set<(event: PitwallEvent) => void>();
  return {
    emit: (event) => listeners.forEach((listener) => listener(event)),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    contextPercent: () => 12,
  };
}

const reply = (text: string, stopReason: AssistantMessage["stopReason"] = "stop", errorMessage?: string): AssistantMessage =>
  ({ role: "assistant", content: [{ type: "text", text }], stopReason, errorMessage, usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { total: 0.25 } }, timestamp: 0 }) as unknown as AssistantMessage;

describe("an agent's activity", () => {
  it("works, is blocked on a job while it waits on one, and waits for the person when its run ends unseen", () => {
    const bus = source();
    let inFront = false;
    const activity = new AgentActivity(bus, () => inFront);
    expect(activity.describe()).toBe("idle");
    bus.emit({ type: "agent_start" });
    expect(activity.describe()).toBe("working");
    bus.emit({ type: "tool_execution_start", toolCallId: "t1", toolName: "poll_process", args: { jobId: "3" } });
    expect(activity.describe()).toBe("blocked on a job: poll_process job 3");
    bus.emit({ type: "tool_execution_end", toolCallId: "t1", toolName: "poll_process", content: "", isError: false, durationMs: 1 });
    expect(activity.state).toBe("working");
    bus.emit({ type: "file_change", toolCallId: "t2", path: "/p/a.ts", before: null, after: { hash: "x", size: 1 } } as unknown as PitwallEvent);
    const message = reply("First line.\nThe tests pass now.");
    bus.emit({ type: "message_end", message });
    bus.emit({ type: "agent_end", messages: [message] });
    expect(activity.describe()).toBe("waiting for you");
    expect(activity.lastLine).toBe("The tests pass now.");
    expect([activity.cost, activity.tokens, activity.contextPercent, activity.changedFiles.size]).toEqual([0.25, 15, 12, 1]);
    activity.seen();
    expect(activity.describe()).toBe("idle");

    // In front of the person, a run that ends is simply idle.
    inFront = true;
    bus.emit({ type: "agent_start" });
    bus.emit({ type: "agent_end", messages: [reply("Done.")] });
    expect(activity.describe()).toBe("idle");
  });

  it("says the error a run ended on, and a stop", () => {
    const bus = source();
    const activity = new AgentActivity(bus, () => false);
    bus.emit({ type: "agent_start" });
    bus.emit({ type: "error", message: "Anthropic is overloaded (529): try again in a minute.\nDetails follow.", source: "provider" });
    bus.emit({ type: "agent_end", messages: [reply("", "error", "Anthropic is overloaded (529): try again in a minute.\nDetails follow.")] });
    expect(activity.describe()).toBe("error: Anthropic is overloaded (529): try again in a minute.");
    bus.emit({ type: "agent_start" });
    bus.emit({ type: "agent_end", messages: [reply("partial", "aborted")] });
    expect(activity.describe()).toBe("idle: stopped");
  });
});
