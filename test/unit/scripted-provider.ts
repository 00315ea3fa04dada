// A Provider that plays a script instead of calling a model: each request takes the next step, and
// the step's reply goes through the real MessageBuilder and streamInto, as an SDK's events would.
// No network and no SDK: the agent loop's unit tests drive it.
import { Agent, type AgentOptions } from "../../agent/agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import { resolveModel, type ProviderName } from "../../agent/models.js";
import { toProviderError } from "../../agent/providers/errors.js";
import { streamInto, type MessageBuilder } from "../../agent/providers/message-builder.js";
import type { AssistantStream, Provider, ProviderRequest } from "../../agent/providers/provider.js";
import type { AgentTool } from "../../tools/tool.js";

export type ScriptStep =
  /** A reply: text, then tool calls (their arguments streamed in two pieces). */
  | { reply: { text?: string; thinking?: string; toolCalls?: Array<{ id: string; name: string; arguments: string }> } }
  /** The call fails with what an SDK would throw (an HTTP error, a dropped connection). */
  | { fail: unknown }
  /** Streams `text`, then waits until the request is aborted. */
  | { hang: string };

export class ScriptedProvider implements Provider {
  readonly name: ProviderName = "anthropic";
  /** Every request the loop sent, in order. */
  readonly requests: ProviderRequest[] = [];

  constructor(private readonly steps: ScriptStep[]) {}

  stream(request: ProviderRequest, signal: AbortSignal): AssistantStream {
    this.requests.push(structuredClone({ ...request, tools: request.tools.map((t) => ({ ...t, parameters: {} })) }) as ProviderRequest);
    const step = this.steps.shift();
    const context = { label: "Scripted", keyVariable: "SCRIPTED_KEY", model: request.model.id };
    return streamInto(request.model, signal, (builder) => play(step, builder, signal), (error) => toProviderError(error, context));
  }

  get remaining(): number {
    return this.steps.length;
  }
}

async function play(step: ScriptStep | undefined, builder: MessageBuilder, signal: AbortSignal): Promise<void> {
  // Events arrive asynchronously from a real server: so do these.
  await Promise.resolve();
  if (step === undefined) throw new Error("the script has no more steps: the loop made a request the test did not expect");
  if ("fail" in step) throw step.fail;
  if ("hang" in step) {
    builder.text(step.hang);
    await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
    return;
  }
  const { text, thinking, toolCalls = [] } = step.reply;
  if (thinking) builder.thinking(thinking);
  if (text) for (const word of text.split(/(?<= )/)) builder.text(word);
  for (const call of toolCalls) {
    const index = builder.startToolCall(call.id, call.name);
    const half = Math.floor(call.arguments.length / 2);
    builder.toolCallDelta(index, call.arguments.slice(0, half));
    builder.toolCallDelta(index, call.arguments.slice(half));
    builder.endToolCall(index);
  }
  builder.setUsage({ input: 10, output: 5 });
}

/** An Agent on a ScriptedProvider with fast retries, its bus events recorded. */
export function scriptedAgent(steps: ScriptStep[], tools: AgentTool[] = [], extra: Partial<AgentOptions> = {}): { agent: Agent; provider: ScriptedProvider; events: PitwallEvent[] } {
  const provider = new ScriptedProvider(steps);
  const agent = new Agent({
    model: resolveModel("claude-sonnet-5-5", "anthropic", "anthropic"),
    getProvider: async () => provider,
    systemPrompt: "You are a test agent.",
    tools,
    retry: { baseDelayMs: 1, maxAttempts: 3, maxDelayMs: 50 },
    ...extra,
  });
  const events: PitwallEvent[] = [];
  agent.subscribe((e) => events.push(e));
  return { agent, provider, events };
}
