// What the job tools use of a registry: the job host gives each client a view of its own (its jobs
// started in its name, its environment, its sandbox), the in-process service one of its own.
import type { JobRegistry } from "../registry/job-registry.js";
import type { JobWatches } from "../watch/job-watches.js";
import { JobOwnerError } from "../errors.js";
import type { CommandFence, SandboxProfile } from "../../sandbox/index.js";

/**
 * The sandbox of a model's command: `asked` is the profile the model asked for (rejected with
 * LoosenRefusedError when looser than the person's), `cwd` its folder. Throws SandboxUnavailableError
 * when the fence is required and cannot be made.
 */
export type ModelFence = (asked: SandboxProfile | undefined, cwd?: string) => Promise<CommandFence>;

/** What the tools do with watch triggers: a client's view sets them in its own name. */
export type ToolWatches = Pick<JobWatches, "add" | "remove" | "list">;

export type ToolJobs = Pick<JobRegistry, "settings" | "start" | "get" | "list" | "kill" | "write" | "reportYield" | "adoptRunning"> & {
  watches: ToolWatches;
  /** Undefined: commands run as the person, and a model asking for a profile is refused. */
  modelFence?: ModelFence;
  /**
   * Who owns a job, as the calling agent reads it ("you", "agent tests"); left out where one agent
   * has every job (the registry in one process).
   */
  ownerLabel?(owner: string | undefined): string;
};

/** How one caller's tools see a registry: what they start belongs to `owner`, inherits `baseEnv`, and is fenced by `modelFence`. */
export interface ToolJobsView {
  owner?: string;
  baseEnv?: Record<string, string>;
  modelFence?: ModelFence;
  /** The agent a job host client serves (a dashboard's several agents): names other agents' jobs' owners. */
  agentOf?: (clientId: string) => string | undefined;
}

/**
 * A caller's view of the registry. With an owner (a client of the job host), the triggers it sets
 * are its own, and another client's job is refused to kill and write (only its owner's agent or the
 * person may).
 */
export function toolJobs(registry: JobRegistry, view: ToolJobsView = {}): ToolJobs {
  const me = view.owner;
  const owner = me !== undefined ? { owner: me } : {};
  const ownerLabel = (of: string | undefined): string => {
    if (of === me) return "you";
    if (of === undefined) return "nobody (left running by an earlier pitwall)";
    const agent = view.agentOf?.(of);
    return agent === undefined ? `another pitwall here (client ${of})` : `agent ${agent}`;
  };
  const refuseOthers = (id: string, what: string): void => {
    const job = registry.get(id);
    if (me === undefined || !job || job.owner === undefined || job.owner === me) return;
    throw new JobOwnerError(id, ownerLabel(job.owner), what);
  };
  return {
    settings: registry.settings,
    start: (options) => registry.start({ ...options, ...owner, ...(view.baseEnv ? { baseEnv: view.baseEnv } : {}) }),
    adoptRunning: (options) => registry.adoptRunning({ ...options, ...owner }),
    get: (id) => registry.get(id),
    list: () => registry.list(),
    kill: (id, options) => {
      refuseOthers(id, "stop");
      return registry.kill(id, options);
    },
    write: (id, data, options) => {
      refuseOthers(id, "type into");
      registry.write(id, data, options);
    },
    reportYield: (toolCallId, job, tail) => registry.reportYield(toolCallId, job, tail),
    watches: {
      add: (jobId, spec) => registry.watches.add(jobId, { ...spec, ...owner }),
      remove: (jobId, triggerId, by) => registry.watches.remove(jobId, triggerId, by),
      list: (jobId) => registry.watches.list(jobId),
    },
    ...(view.modelFence ? { modelFence: view.modelFence } : {}),
    ...(me !== undefined ? { ownerLabel } : {}),
  };
}
