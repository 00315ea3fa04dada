// What the job tools use of a registry: the job host gives each client a view of its own (its jobs
// started in its name, its environment), the in-process service the registry itself.
import type { JobRegistry } from "../registry/job-registry.js";
import type { JobWatches } from "../watch/job-watches.js";

/** What the tools do with watch triggers: a client's view sets them in its own name. */
export type ToolWatches = Pick<JobWatches, "add" | "remove" | "list">;

export type ToolJobs = Pick<JobRegistry, "settings" | "start" | "get" | "list" | "kill" | "write" | "reportYield" | "adoptRunning"> & {
  watches: ToolWatches;
  /**
   * Who owns a job, as the calling agent reads it ("you", "the person's dashboard", "agent tests");
   * left out where one agent has every job (the registry in one process).
   */
  ownerLabel?(owner: string | undefined): string;
};
