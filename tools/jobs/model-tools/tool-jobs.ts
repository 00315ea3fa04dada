// What the job tools use of a registry: the job host gives each client a view of its own (its jobs
// started in its name, its environment, its sandbox), the in-process service one of its own.
import type { JobRegistry } from "../registry/job-registry.js";
import type { CommandFence, SandboxProfile } from "../../sandbox/index.js";

/**
 * The sandbox of a model's command: `asked` is the profile the model asked for (rejected with
 * LoosenRefusedError when looser than the person's), `cwd` its folder. Throws SandboxUnavailableError
 * when the fence is required and cannot be made.
 */
export type ModelFence = (asked: SandboxProfile | undefined, cwd?: string) => Promise<CommandFence>;

export type ToolJobs = Pick<JobRegistry, "settings" | "start" | "get" | "list" | "kill" | "write" | "reportYield" | "adoptRunning" | "watches"> & {
  /** Undefined: commands run as the person, and a model asking for a profile is refused. */
  modelFence?: ModelFence;
};

/** How one caller's tools see a registry: what they start belongs to `owner`, inherits `baseEnv`, and is fenced by `modelFence`. */
export interface ToolJobsView {
  owner?: string;
  baseEnv?: Record<string, string>;
  modelFence?: ModelFence;
}

export function toolJobs(registry: JobRegistry, view: ToolJobsView = {}): ToolJobs {
  const owner = view.owner !== undefined ? { owner: view.owner } : {};
  return {
    settings: registry.settings,
    start: (options) => registry.start({ ...options, ...owner, ...(view.baseEnv ? { baseEnv: view.baseEnv } : {}) }),
    adoptRunning: (options) => registry.adoptRunning({ ...options, ...owner }),
    get: (id) => registry.get(id),
    list: () => registry.list(),
    kill: (id, options) => registry.kill(id, options),
    write: (id, data, options) => registry.write(id, data, options),
    reportYield: (toolCallId, job, tail) => registry.reportYield(toolCallId, job, tail),
    watches: registry.watches,
    ...(view.modelFence ? { modelFence: view.modelFence } : {}),
  };
}
