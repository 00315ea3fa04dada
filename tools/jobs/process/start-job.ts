// Starts a job of the kind its spec asks for: a pty unless stdinMode is "pipe" (an adopted bash call
// is always a pipe job). Throws a clear Error for a missing folder or a shell that cannot be run.
import type { Job, JobSpec } from "./job.js";
import { PipeJob } from "./pipe-job.js";
import { PtyJob } from "./pty-job.js";

export function startJob(spec: JobSpec): Job {
  return spec.stdinMode === "pipe" ? new PipeJob(spec) : new PtyJob(spec);
}
