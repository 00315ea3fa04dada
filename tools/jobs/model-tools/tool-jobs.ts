// What the job tools use of a registry: the job host gives each client a view of its own (its jobs
// started in its name, its environment), the in-process service the registry itself.
import type { JobRegistry } from "../registry/job-registry.js";

export type ToolJobs = Pick<JobRegistry, "settings" | "start" | "get" | "list" | "kill" | "write" | "reportYield" | "adoptRunning" | "watches">;
