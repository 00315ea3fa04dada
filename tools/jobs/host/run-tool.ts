// A client's tool call, run in the job host next to the logs: bash or one of the model's job tools
// (and, for a remote session, the file tools, model-tools/file-tools.ts),
// with the client's own limits (what its model was told), environment and secrets. What the call
// starts belongs to the client; another client's job it may read, but not stop or type into (only
// the owner's agent or the person may), and a trigger it sets wakes its own agent. Its live output streams back as update messages; the client's abort
// (Esc) and yield (a steering message) signals reach the tool through the call's controllers.
// The client's sandbox policy is made this machine's first (a remote client sends it home-relative:
// policyHere), and a remote session's file tools follow it here as a local session's do there.
import { resolveJobSettings, type JobSettings } from "../settings.js";
import { isJobToolName, createJobTools } from "../model-tools/job-tools.js";
import { bashAdopter } from "../model-tools/bash-adoption.js";
import { createBashTool } from "../model-tools/bash-tool.js";
import { toolJobs } from "../model-tools/tool-jobs.js";
import { modelFence } from "../model-tools/model-fence.js";
import { createFileTool, isFileToolName } from "../model-tools/file-tools.js";
import { fenceFileTool } from "../../fenced-file-tools.js";
import { processTempFolder } from "../../process/temp-folder.js";
import { FileFence } from "../../sandbox/index.js";
import { JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";
import type { AgentTool } from "../../tool.js";
import type { Call, HostClient } from "./host-client.js";
import type { Handler } from "./host-context.js";

/**
 * The environment a client's commands run with: its own, as it sent it; a remote client's is this
 * machine's (the host's, from the ssh login) with what it sent on top, never its own machine's.
 */
export function clientEnv(client: HostClient, env: Record<string, string>): Record<string, string> {
  if (!client.info?.remote) return env;
  const own = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return { ...own, ...env };
}

export const runTool: Handler<"runTool"> = async (rawArgs, { client, id, host }) => {
  const args = { ...rawArgs, env: clientEnv(client, rawArgs.env) };
  const registry = host.registry;
  const owner = client.id;
  // The client's limits, clamped as the host's own are: a client (another version, a remote one) is
  // not trusted to have clamped its steer grace or its yield.
  const settings: JobSettings = resolveJobSettings({ ...registry.settings, ...args.settings });
  const policy = args.sandbox ? host.policyHere(args.sandbox.policy) : undefined;
  // Commands see bash's full-output files through the private /tmp: the client's folder, or a
  // remote client's (it sends none), this process's, where the bash tool writes them then.
  const visible = [...(args.sandbox?.visible ?? []), ...(client.info?.remote ? [processTempFolder()] : [])];
  const fence = policy ? modelFence(registry, policy, visible) : undefined;
  const jobs = toolJobs(registry, { owner, baseEnv: args.env, agentOf: (id) => host.agentOf(id), ...(fence ? { modelFence: fence } : {}) });
  let tool: AgentTool | undefined;
  if (args.tool === "bash") {
    tool = createBashTool(host.cwd, {
      env: args.env,
      maxOutputChars: settings.maxOutputChars,
      onBackgroundLeft: (pgid, callEnv) => registry.adoptGroup(pgid, { owner, mark: callEnv[JOB_MARKER_VARIABLE] }),
      callEnv: () => registry.callMark(),
      ...(host.marker ? { marker: host.marker } : {}),
      secrets: args.secrets,
      ...(args.outputDir !== undefined ? { outputDir: args.outputDir } : {}),
      adopter: bashAdopter(jobs, settings),
      ...(fence ? { fence, prestarted: host.prestarted } : {}),
    });
  } else if (isJobToolName(args.tool)) {
    tool = createJobTools(jobs, settings).find((t) => t.name === args.tool);
  } else if (isFileToolName(args.tool)) {
    // Only a remote session's file tools run here; a local one runs them itself.
    const fileTool = createFileTool(host.cwd, args.tool, settings.maxOutputChars, (file, size) => host.images.keep(file, size, client.id));
    tool = policy ? fenceFileTool(fileTool, host.cwd, new FileFence(policy, host.cwd)) : fileTool;
  }
  if (!tool) throw new Error(`${args.tool} is not a tool the job host runs.`);
  const call: Call = { abort: new AbortController(), yield: new AbortController() };
  client.calls.set(id, call);
  try {
    return await tool.execute(args.toolCallId, args.params as never, call.abort.signal, (update) => client.send({ type: "update", id, chunk: update.chunk }), {
      yieldSignal: call.yield.signal,
    });
  } finally {
    client.calls.delete(id);
  }
};
