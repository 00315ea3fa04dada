// A client's tool call, run in the job host next to the logs: bash or one of the model's job tools,
// with the client's own limits (what its model was told), environment and secrets. What the call
// starts belongs to the client; another client's job it may read, but not stop or type into (only
// the owner's agent or the person may), and a trigger it sets wakes its own agent. Its live output streams back as update messages; the client's abort
// (Esc) and yield (a steering message) signals reach the tool through the call's controllers.
import type { JobSettings } from "../settings.js";
import { isJobToolName, createJobTools } from "../model-tools/job-tools.js";
import { bashAdopter } from "../model-tools/bash-adoption.js";
import { createBashTool } from "../model-tools/bash-tool.js";
import { toolJobs } from "../model-tools/tool-jobs.js";
import { modelFence } from "../model-tools/model-fence.js";
import { JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";
import type { AgentTool } from "../../tool.js";
import type { Call } from "./host-client.js";
import type { Handler } from "./host-context.js";

export const runTool: Handler<"runTool"> = async (args, { client, id, host }) => {
  const registry = host.registry;
  const owner = client.id;
  const settings: JobSettings = { ...registry.settings, maxOutputChars: args.settings.maxOutputChars, defaultYieldMs: args.settings.defaultYieldMs };
  const fence = args.sandbox ? modelFence(registry, args.sandbox.policy, args.sandbox.visible ?? []) : undefined;
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
      ...(fence ? { fence } : {}),
    });
  } else if (isJobToolName(args.tool)) {
    tool = createJobTools(jobs, settings).find((t) => t.name === args.tool);
  }
  if (!tool) throw new Error(`${args.tool} is not a job tool.`);
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
