// What a client of the job host knows of the host's jobs: every job's latest info and watch
// triggers, kept current from the host's events (and reconciled with its greeting after a
// (re)connection), published again to the client's own listeners. The jobs pane and the person's
// commands read it synchronously; nothing here talks to the host.
import { EventBus } from "../../event-bus.js";
import type { JobEvent, JobInfo, JobServiceEvent, TriggerInfo } from "../events.js";
import type { Welcome } from "../wire/handshake.js";

export class JobMirror {
  private readonly infos = new Map<string, JobInfo>();
  /** The watch triggers of the jobs that have any. */
  private readonly jobTriggers = new Map<string, TriggerInfo[]>();
  private readonly events = new EventBus<JobServiceEvent>();
  /** The highest job id seen: a new host started after the old one died goes on from it. */
  highestId = 0;

  subscribe(listener: (event: JobServiceEvent) => void): () => void {
    return this.events.subscribe(listener);
  }

  list(): JobInfo[] {
    return [...this.infos.values()];
  }

  get(id: string): JobInfo | undefined {
    return this.infos.get(id);
  }

  triggers(id: string): TriggerInfo[] {
    return this.jobTriggers.get(id) ?? [];
  }

  /** Running jobs owned by the client the host calls `owner`. */
  runningOwnedBy(owner: string): number {
    let n = 0;
    for (const info of this.infos.values()) if (info.status === "running" && info.owner === owner) n++;
    return n;
  }

  /** Takes in a job event and publishes it. */
  apply(event: JobEvent): void {
    if (event.type === "job_started" || event.type === "job_exited") {
      this.infos.set(event.job.id, event.job);
      this.highestId = Math.max(this.highestId, Number(event.job.id) || 0);
    } else if (event.type === "job_removed") {
      this.infos.delete(event.jobId);
      this.jobTriggers.delete(event.jobId);
    } else if (event.type === "job_triggered") {
      // The firing carries the trigger as the host counts it: the person's /watch list says how often it fired.
      const triggers = this.jobTriggers.get(event.jobId);
      if (triggers) this.jobTriggers.set(event.jobId, triggers.map((t) => (t.id === event.trigger.id ? event.trigger : t)));
    } else if (event.type === "job_triggers_changed") {
      if (event.triggers.length > 0) this.jobTriggers.set(event.jobId, event.triggers);
      else this.jobTriggers.delete(event.jobId);
    }
    this.events.emit(event);
  }

  /** Publishes something that is not a job's event (the host's state). */
  emit(event: JobServiceEvent): void {
    this.events.emit(event);
  }

  /** The host's jobs as its greeting has them: new ones appear, ones it no longer has go, triggers as they are. */
  reconcile(welcome: Welcome): void {
    const known = new Set(welcome.jobs.map((info) => info.id));
    for (const id of [...this.infos.keys()]) if (!known.has(id)) this.apply({ type: "job_removed", jobId: id });
    const toTell = new Set(welcome.exitsToTell);
    for (const info of welcome.jobs) {
      const before = this.infos.get(info.id);
      const sameRun = before?.startedAt === info.startedAt;
      if (!sameRun) this.apply({ type: "job_started", job: asStarted(info) });
      // A job this client never saw running ended earlier: news only when its agent is still to be told.
      if (info.status !== "running" && (!sameRun || before?.status === "running")) this.apply({ type: "job_exited", job: info, told: toTell.has(info.id), ...(sameRun ? {} : { earlier: true }) });
    }
    const watched = new Map(welcome.triggers.map((entry) => [entry.jobId, entry.triggers]));
    for (const id of new Set([...this.jobTriggers.keys(), ...watched.keys()])) {
      if (this.infos.has(id)) this.apply({ type: "job_triggers_changed", jobId: id, triggers: watched.get(id) ?? [] });
    }
  }

  /** The host died, and its watchdog ended its jobs: the running ones are reported killed; returns their ids. */
  endRunning(now: number = Date.now()): string[] {
    const ended = this.list().filter((info) => info.status === "running");
    // The caller's notice tells the agent they ended.
    for (const info of ended) this.apply({ type: "job_exited", job: { ...info, status: "killed", signal: "SIGKILL", endedAt: now }, told: true });
    return ended.map((info) => info.id);
  }
}

/** A job as it was when it started (for a job_started event of a job that has since ended). */
function asStarted(info: JobInfo): JobInfo {
  const { endedAt: _endedAt, exitCode: _exitCode, signal: _signal, ...rest } = info;
  return { ...rest, status: "running" };
}
