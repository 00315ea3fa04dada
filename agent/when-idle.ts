// Waiting for the Agent to be idle, for front ends and library users that act once a run is over.
// A watch trigger's wake may start a run at any time: untilIdle waits for that too, and
// promptWhenIdle prompts in the same step as it finds the agent idle, so nothing can start between.
import type { ImageContent } from "./messages.js";

/** What waiting needs of an Agent. */
export interface Idling {
  readonly state: { readonly isStreaming: boolean };
  /** Resolves when what the agent is doing now is over. */
  waitForIdle(): Promise<void>;
  prompt(text: string, images?: ImageContent[]): Promise<void>;
}

/**
 * Resolves once no run is going, including runs started while waiting (a watch trigger's wake).
 * Something else may still start before the caller's next step: to prompt then, use promptWhenIdle.
 */
export async function untilIdle(agent: Idling): Promise<void> {
  while (agent.state.isStreaming) await agent.waitForIdle().catch(() => undefined);
}

/**
 * Waits until the agent is idle, then prompts, with nothing in between: a watch trigger's wake or
 * anything else that waited for the same moment can never make the prompt find the agent busy.
 * Settles as prompt() does.
 */
export async function promptWhenIdle(agent: Idling, text: string, images?: ImageContent[]): Promise<void> {
  while (agent.state.isStreaming) await agent.waitForIdle().catch(() => undefined);
  // Checked and started in one step: no other continuation runs between the test above and this.
  return agent.prompt(text, images);
}
