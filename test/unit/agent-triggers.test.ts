// How the Agent delivers what a watch trigger sends: wake starts a run when idle and steers when
// busy (and never gets lost between runs), steer and follow-up queue like the person's, and every
// such message is marked with the trigger that sent it.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { untilIdle } from "../../agent/agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { TimedNotice } from "../../agent/model-notices.js";
import type { TriggeredBy, UserMessage } from "../../agent/messages.js";
import type { AgentTool } from "../../tools/tool.js";
import { MAX_UNATTENDED_WAKES, type FiringMessage } from "../../tools/jobs/index.js";
import { waitFor } from "../helpers/conditions.js";
import { ScriptedProvider, scriptedAgent, type ScriptStep } from "./scripted-provider.js";

const scripted = (steps: ScriptStep[], tools: AgentTool[] = [], extra: Parameters<typeof scriptedAgent>[2] = {}) => scriptedAgent(steps, tools, extra);

const by = (action: TriggeredBy["action"]): TriggeredBy => ({ jobId: "2", triggerId: 1, pattern: "FAIL", ignoreCase: false, action, setBy: "person" });
/** A firing's message as the trigger delivers it, covering line `n`. */
const firing = (text: string, n = 1): FiringMessage => ({ text, fromLine: n, toLine: n, at: Date.now() });
const sent = (provider: ScriptedProvider, request: number): string[] =>
  provider.requests[request]!.messages.filter((m): m is UserMessage => m.role === "user").map((m) => `${m.origin ?? "prompt"}: ${m.content}`);
const ends = (events: readonly PitwallEvent[]): number => events.filter((e) => e.type === "agent_end").length;

/** A tool that waits until released: the agent stays busy meanwhile. */
function gate(): { tool: AgentTool; release: () => void } {
  let release = (): void => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    tool: { name: "wait", label: "Wait", description: "Waits.", parameters: Type.Object({}), execute: async () => (await done, { content: "waited" }) },
    release: () => release(),
  };
}

describe("messages from watch triggers", () => {
  it("wake starts a run of its own when the agent is idle", async () => {
    const { agent, provider, events } = scripted([{ reply: { text: "On it." } }]);
    agent.deliverTriggered(firing("job 2 printed: FAIL sums"), by("wake"));
    expect(agent.state.isStreaming).toBe(true);
    await waitFor(() => ends(events) === 1, "the woken run to end");
    expect(sent(provider, 0)).toEqual(["trigger: job 2 printed: FAIL sums"]);
    expect(agent.state.messages[0]).toMatchObject({ role: "user", origin: "trigger", trigger: by("wake") });
  });

  it("reaches the model in the order things happened: notices of what came before a trigger's lines go before them", async () => {
    const { tool, release } = gate();
    const notices: TimedNotice[] = [];
    const { agent, provider, events } = scripted([{ reply: { toolCalls: [{ id: "t1", name: "wait", arguments: "{}" }] } }, { reply: { text: "Saw it." } }], [tool], { noticeSources: [() => notices.splice(0)] });
    const run = agent.prompt("work");
    await waitFor(() => events.some((e) => e.type === "tool_execution_start"), "the tool to start");
    // While the tool runs, the person starts a job and sets a trigger; it fires; then the job exits.
    const t = Date.now();
    notices.push({ text: "The person started job 2: npm test", at: t - 30 }, { text: "The person set watch trigger 1 on job 2: /FAIL/ → steer", at: t - 20 });
    agent.deliverTriggered({ ...firing("job 2 printed: FAIL sums", 5), at: t - 10 }, by("steer"));
    notices.push({ text: "Job 2 (npm test) exited with code 1.", at: t });
    release();
    await run;
    expect(sent(provider, 1)).toEqual([
      "prompt: work",
      "notice: [pitwall notice]\nThe person started job 2: npm test\nThe person set watch trigger 1 on job 2: /FAIL/ → steer",
      "trigger: job 2 printed: FAIL sums",
      "notice: [pitwall notice]\nJob 2 (npm test) exited with code 1.",
    ]);
  });

  it("an older firing told as a notice goes before a newer wake (a resumed session's first turn)", async () => {
    const t = Date.now();
    const notices: TimedNotice[] = [{ text: "job 2 printed (watch trigger 1 /FAIL/, …): lines 25–31", at: t - 60_000 }];
    const { agent, provider, events } = scripted([{ reply: { text: "Woken." } }], [], { noticeSources: [() => notices.splice(0)] });
    agent.deliverTriggered({ ...firing("job 2 printed: lines 32–34", 32), at: t }, by("wake"));
    await waitFor(() => ends(events) === 1, "the woken run to end");
    expect(sent(provider, 0)).toEqual(["notice: [pitwall notice]\njob 2 printed (watch trigger 1 /FAIL/, …): lines 25–31", "trigger: job 2 printed: lines 32–34"]);
  });

  it("wake while the agent works is a steer, delivered at the next tool boundary, without a second run", async () => {
    const { tool, release } = gate();
    const { agent, provider, events } = scripted([{ reply: { toolCalls: [{ id: "t1", name: "wait", arguments: "{}" }] } }, { reply: { text: "Saw it." } }], [tool]);
    const run = agent.prompt("work");
    await waitFor(() => events.some((e) => e.type === "tool_execution_start"), "the tool to start");
    agent.deliverTriggered(firing("job 2 printed: FAIL sums"), by("wake"));
    expect(agent.state.queue.steering).toEqual(["job 2 printed: FAIL sums"]);
    release();
    await run;
    expect(sent(provider, 1)).toEqual(["prompt: work", "trigger: job 2 printed: FAIL sums"]);
    // It steered the run that was going; it woke nothing (the chat's headline reads this).
    expect(agent.state.messages.find((m) => m.role === "user" && m.origin === "trigger")).toMatchObject({ trigger: by("steer") });
    // Every continuation queued by the end of the run has had its turn.
    await new Promise((resolve) => setImmediate(resolve));
    expect(agent.state.isStreaming).toBe(false);
    expect(ends(events)).toBe(1);
    expect(provider.requests).toHaveLength(2);
  });

  it("a wake that arrives as a run ends, past its last boundary, starts the next run instead of waiting for a prompt", async () => {
    const { agent, provider, events } = scripted([{ reply: { text: "Done." } }, { reply: { text: "Woken." } }]);
    let delivered = false;
    agent.subscribe((event) => {
      if (event.type === "agent_end" && !delivered) {
        delivered = true;
        agent.deliverTriggered(firing("job 2 printed: FAIL sums"), by("wake"));
      }
    });
    await agent.prompt("first");
    await waitFor(() => ends(events) === 2, "the woken run to end");
    expect(sent(provider, 1)).toEqual(["prompt: first", "trigger: job 2 printed: FAIL sums"]);
  });

  it("a wake waiting for the agent to be idle also waits for a rewind that gets there first, then runs on the new branch", async () => {
    const { agent, provider, events } = scripted([{ reply: { text: "Done." } }, { reply: { text: "Woken." } }]);
    let delivered = false;
    agent.subscribe((event) => {
      if (event.type === "agent_end" && !delivered) {
        delivered = true;
        agent.deliverTriggered(firing("job 2 printed: FAIL sums"), by("wake"));
      }
    });
    const run = agent.prompt("first");
    // A rewind asked for while the agent worked: it holds the agent as soon as the run is over.
    let runsDuringRewind = -1;
    const rewind = (async () => {
      await untilIdle(agent);
      await agent.hold(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        runsDuringRewind = events.filter((e) => e.type === "agent_start").length;
        agent.resetConversation([]);
      });
    })();
    await run;
    await rewind;
    expect(runsDuringRewind).toBe(1);
    await waitFor(() => ends(events) === 2, "the woken run to end");
    expect(sent(provider, 1)).toEqual(["trigger: job 2 printed: FAIL sums"]);
  });

  it("steer and follow-up queue like the person's: a steer while idle goes with the next prompt, a follow-up when the run would stop", async () => {
    const { agent, provider } = scripted([{ reply: { text: "One." } }, { reply: { text: "Two." } }]);
    agent.deliverTriggered(firing("job 2 printed: FAIL a"), by("steer"));
    agent.deliverTriggered(firing("job 2 printed: FAIL b"), by("follow-up"));
    expect(agent.state.isStreaming).toBe(false);
    expect(agent.state.queue).toEqual({ steering: ["job 2 printed: FAIL a"], followUp: ["job 2 printed: FAIL b"] });
    await agent.prompt("go");
    expect(sent(provider, 0)).toEqual(["trigger: job 2 printed: FAIL a", "prompt: go"]);
    expect(sent(provider, 1)).toEqual(["trigger: job 2 printed: FAIL a", "prompt: go", "trigger: job 2 printed: FAIL b"]);
  });

  it("merges the firings of one trigger that wait in the queue: the first and the latest whole, the rest counted with their lines", async () => {
    const { agent, provider } = scripted([{ reply: { text: "Read it." } }]);
    agent.deliverTriggered(firing("job 2 printed: FAIL run 1", 10), by("steer"));
    agent.deliverTriggered(firing("job 2 printed: other trigger", 12), { ...by("steer"), triggerId: 2 });
    for (let run = 2; run <= 5; run++) agent.deliverTriggered(firing(`job 2 printed: FAIL run ${run}`, run * 10), by("steer"));
    expect(agent.state.queue.steering).toHaveLength(2);
    await agent.prompt("go");
    expect(sent(provider, 0)).toEqual([
      [
        "trigger: job 2 printed: FAIL run 1",
        '[Trigger 1 fired 5 times before this message was read: the first firing is above, the latest below. The 3 between are left out (lines 20–40: get_process_log with jobId "2" and offset 20 reads them).]',
        "job 2 printed: FAIL run 5",
      ].join("\n"),
      "trigger: job 2 printed: other trigger",
      "prompt: go",
    ]);
    // Delivered: the next firing starts a message of its own.
    agent.deliverTriggered(firing("job 2 printed: FAIL run 6", 60), by("steer"));
    expect(agent.state.queue.steering).toEqual(["job 2 printed: FAIL run 6"]);
  });

  it(`stops waking the agent after ${MAX_UNATTENDED_WAKES} runs without a message from the person; the next message delivers what waited and re-arms`, async () => {
    const { agent, provider, events } = scripted(Array.from({ length: MAX_UNATTENDED_WAKES + 2 }, () => ({ reply: { text: "Looked." } })));
    for (let i = 1; i <= MAX_UNATTENDED_WAKES; i++) {
      agent.deliverTriggered(firing(`job 2 printed: FAIL run ${i}`, i), by("wake"));
      await waitFor(() => ends(events) === i, `woken run ${i} to end`);
    }
    agent.deliverTriggered(firing("job 2 printed: FAIL run 6", 6), by("wake"));
    agent.deliverTriggered(firing("job 2 printed: FAIL run 7", 7), by("wake"));
    expect(agent.state.isStreaming).toBe(false);
    expect(agent.state.queue.steering).toHaveLength(1);
    // Said once, as a notice with the count (nothing failed: no error event).
    const held = events.filter((e) => e.type === "wake_count" && e.message !== undefined);
    expect(held).toEqual([
      expect.objectContaining({ unattended: MAX_UNATTENDED_WAKES, told: true, message: expect.stringMatching(/^Watch triggers have woken the agent 5 times since your last message, so their next firings wait in the queue/) }),
    ]);
    expect(events.filter((e) => e.type === "error")).toEqual([]);
    await agent.prompt("what failed?");
    expect(sent(provider, MAX_UNATTENDED_WAKES).slice(-2)).toEqual([expect.stringMatching(/^trigger: job 2 printed: FAIL run 6\n\[Trigger 1 fired 2 times[^]*FAIL run 7$/), "prompt: what failed?"]);
    agent.deliverTriggered(firing("job 2 printed: FAIL run 8", 8), by("wake"));
    expect(agent.state.isStreaming).toBe(true);
    await waitFor(() => ends(events) === MAX_UNATTENDED_WAKES + 2, "the re-armed wake's run to end");
  });

  it("a trigger's queued message is not the person's: Up and Esc take back only the person's, and Esc cancels a pending wake", async () => {
    const { tool, release } = gate();
    const { agent, provider, events } = scripted([{ reply: { toolCalls: [{ id: "t1", name: "wait", arguments: "{}" }] } }, { reply: { text: "Next." } }], [tool]);
    const run = agent.prompt("work");
    await waitFor(() => events.some((e) => e.type === "tool_execution_start"), "the tool to start");
    agent.steer("mine");
    agent.deliverTriggered(firing("job 2 printed: FAIL sums"), by("wake"));
    expect(agent.dequeueLast()).toMatchObject({ kind: "steer", text: "mine" });
    expect(agent.dequeueLast()).toBeUndefined();
    agent.followUp("later");
    expect(agent.takeQueue().map((m) => m.text)).toEqual(["later"]);
    expect(agent.state.queue.steering).toEqual(["job 2 printed: FAIL sums"]);
    agent.abort();
    release();
    await run;
    await new Promise((resolve) => setImmediate(resolve));
    // Stopped by the person: the wake waits for the next message instead of starting a run.
    expect(agent.state.isStreaming).toBe(false);
    expect(provider.requests).toHaveLength(1);
    await agent.prompt("go on");
    expect(sent(provider, 1).slice(-2)).toEqual(["trigger: job 2 printed: FAIL sums", "prompt: go on"]);
  });
});
