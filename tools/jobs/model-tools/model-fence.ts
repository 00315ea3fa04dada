// The sandbox of one of the model's commands (bash, bash_stream), or the result that says why the
// command was not run: the model asked for a looser profile than the person's, or the person
// requires a sandbox this machine cannot make. Both are answers for the model, not crashes.
import { resolve } from "node:path";
import { LoosenRefusedError, modelProfile, SandboxUnavailableError, type CommandFence, type FenceRequest, type SandboxPolicy, type SandboxProfile } from "../../sandbox/index.js";
import type { ToolResult } from "../../tool.js";
import type { ModelFence } from "./tool-jobs.js";

/** What the model is told of the sandbox in bash's and bash_stream's descriptions. */
export const SANDBOX_SENTENCE =
  "Commands may run in a sandbox the person set (`echo $PITWALL_SANDBOX` names its profile): writes outside the working directory, /tmp and the build caches fail, .git/hooks and .git/config are read-only, secrets such as ~/.ssh are hidden, and under \"strict\" there is no network; the result says when the sandbox stopped something.";

export type FenceOutcome = { fence: CommandFence | undefined } | { refused: ToolResult<never> };

export async function fenceForModel(fence: ModelFence | undefined, asked: SandboxProfile | undefined, cwd?: string): Promise<FenceOutcome> {
  if (fence === undefined) {
    if (asked === undefined || asked === "off") return { fence: undefined };
    return { refused: { content: `Not run: this pitwall runs commands without a sandbox, so profile "${asked}" cannot be given. Run the command without the sandbox parameter, or ask the person.`, isError: true } };
  }
  try {
    return { fence: await fence(asked, cwd) };
  } catch (error) {
    if (error instanceof LoosenRefusedError || error instanceof SandboxUnavailableError) return { refused: { content: error.message, isError: true } };
    throw error;
  }
}

/**
 * The fences of the model's commands under the person's `policy`, made by a registry's sandbox:
 * `visible` is what they must see through the private /tmp (the folder of bash's full-output files).
 */
export function modelFence(registry: { readonly cwd: string; makeFence(request: Omit<FenceRequest, "root">): Promise<CommandFence> }, policy: SandboxPolicy, visible: readonly string[] = []): ModelFence {
  return async (asked, cwd) =>
    registry.makeFence({ policy, profile: modelProfile(asked, policy.profile), ...(cwd ? { cwd: resolve(registry.cwd, cwd) } : {}), visible });
}
