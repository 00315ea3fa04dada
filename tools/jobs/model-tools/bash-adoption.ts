// A bash call never blocks the cockpit: when it is still running at the end of its wait (the same
// PI_BASH_YIELD_MS window bash_stream uses) or when the person steers, the job registry takes the
// command over as a pipe job, and the call returns what it printed so far with the job's id.
import type { BashCallAdopter } from "./bash-yield.js";
import { endCursor } from "../log/job-output-reader.js";
import { tailText } from "./job-result.js";
import type { JobSettings } from "../settings.js";
import type { ToolJobs } from "./tool-jobs.js";

/** `settings`: whose yield window applies (a client of the job host brings its own). */
export function bashAdopter(registry: ToolJobs, settings: JobSettings = registry.settings): BashCallAdopter {
  return {
    yieldMs: () => settings.defaultYieldMs,
    steerGraceMs: () => settings.steerGraceMs,
    adopt(call) {
      const job = registry.adoptRunning({
        command: call.command,
        cwd: call.cwd,
        env: call.running.env,
        child: call.running.child,
        startedAt: call.running.startedAt,
        priorOutput: call.priorOutput,
        toolCallId: call.toolCallId,
        ...(call.killAfterMs !== undefined ? { killAfterMs: call.killAfterMs } : {}),
        ...(call.fence ? { fence: call.fence } : {}),
      });
      // The call's result carries the output so far: poll_process starts after it.
      job.pollCursor = endCursor(job.log);
      registry.reportYield(call.toolCallId, job, tailText(job.log));
      return { id: job.id, pid: job.pid };
    },
  };
}
