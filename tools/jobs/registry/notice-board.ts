// What each client's agent must still be told about jobs, by actor: a job host serves several
// clients (one process has only DEFAULT_ACTOR). Notices about jobs that no client owns wait under
// UNOWNED for the client that takes those jobs over.
import { JobNotices, type JobNotice } from "./job-notices.js";

/** Where notices about jobs without an owner wait for the next client that takes them over. */
export const UNOWNED = "";

export class NoticeBoard {
  private readonly byActor = new Map<string, JobNotices>();

  /** The notices for `actor`'s agent, created on first use. */
  of(actor: string): JobNotices {
    let notices = this.byActor.get(actor);
    if (!notices) {
      notices = new JobNotices();
      this.byActor.set(actor, notices);
    }
    return notices;
  }

  /** What `actor`'s agent must be told now: one notice per event since the last drain. */
  drain(actor: string): JobNotice[] {
    return this.byActor.get(actor)?.drain() ?? [];
  }

  /** Everything waiting for `from` now waits for `to` (a client left its jobs, or took them over). */
  handOver(from: string, to: string): void {
    const waiting = this.byActor.get(from);
    if (!waiting) return;
    this.of(to).take(waiting);
    this.byActor.delete(from);
  }

  /** Drops what was waiting for `actor` (its client ended and its jobs were stopped). */
  forget(actor: string): void {
    this.byActor.delete(actor);
  }
}
