// Stopping a job's processes: TERM to its whole process group, KILL to whatever is still alive
// after the grace period, then whatever escaped the group (setsid, a double fork) by the
// PITWALL_JOB mark its processes carry.
import type { Job } from "../process/job.js";
import type { JobSettings } from "../settings.js";
import { untrackIfGone } from "./adopted-groups.js";
import { groupAlive } from "../../process-group.js";
import type { ChildMarker } from "../../process/process-guard.js";
import { endMarked, JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";
import { valueWithin } from "../../promise-deadline.js";

/** After KILL, how long to wait for the exit to be observed before giving up on it. */
const KILL_OBSERVE_MS = 5_000;
const LEFTOVER_POLL_MS = 25;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves true if `promise` settled within `ms`, false otherwise. */
export async function within(promise: Promise<unknown>, ms: number): Promise<boolean> {
  return (await valueWithin(promise.then(() => true), ms)) ?? false;
}

export class JobStopper {
  constructor(
    private readonly settings: JobSettings,
    private readonly marker: ChildMarker | undefined,
  ) {}

  /**
   * TERM to the group; once the leader has exited and no member is left (zombies aside), done.
   * Whatever is still alive after the grace period gets KILL. Then the job's escapes end too.
   */
  async terminate(job: Job): Promise<void> {
    await this.signalUntilGone(job);
    untrackIfGone(this.marker, job.pid);
    await this.endEscapes(job.mark);
  }

  /** Ends what a job or bash call started outside its process group (setsid, a double fork). */
  async endEscapes(mark: string | undefined): Promise<void> {
    if (mark === undefined) return;
    await endMarked({ variable: JOB_MARKER_VARIABLE, value: mark }, this.settings.killGraceMs);
  }

  /** Ends every process whose mark starts with `prefix`: what escaped any job or call of a registry. */
  async endEveryEscape(prefix: string): Promise<void> {
    await endMarked({ variable: JOB_MARKER_VARIABLE, value: prefix, prefix: true }, this.settings.killGraceMs);
  }

  private async signalUntilGone(job: Job): Promise<void> {
    const deadline = Date.now() + this.settings.killGraceMs;
    job.signalGroup("SIGTERM");
    await within(job.exited, this.settings.killGraceMs);
    while (Date.now() < deadline) {
      if (!job.running && !groupAlive(job.pid)) return;
      await sleep(LEFTOVER_POLL_MS);
    }
    if (!job.running && !groupAlive(job.pid)) return;
    job.signalGroup("SIGKILL");
    await within(job.exited, KILL_OBSERVE_MS);
  }
}
