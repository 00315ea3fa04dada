// What the fence stops a job doing: a FenceScanner reads the job's raw output as it comes (within its
// budget, so a flood is not slowed down), and each new hit is kept on the job (the model is told with
// the next result or notice that carries the job) and published as a job_fenced event (the jobs pane's
// marker, the chat's one notice per job and path). A job that is not fenced is not read at all.
import type { Job } from "../process/job.js";
import { FenceScanner, type FenceHit } from "../../sandbox/index.js";

export function watchFence(job: Job, publish: (hit: FenceHit) => void): void {
  const fence = job.fence;
  if (fence?.state !== "fenced" || fence.plan === undefined) return;
  const scanner = new FenceScanner({ ...fence, plan: fence.plan }, (hit) => {
    job.fenceHits.push(hit);
    publish(hit);
  });
  const stop = job.onOutput((chunk) => scanner.write(chunk));
  void job.exited.then(() => {
    stop();
    scanner.end();
  });
}
