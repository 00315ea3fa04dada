// Finished jobs stay listed for a while (settings.ttlMs, PI_BASH_JOB_TTL_MS) so that their status
// and output can still be read, then are removed: one timer per finished job, cleared when the job
// is restarted or removed first. The timers never keep the process alive.
export class TtlSweep {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly ttlMs: number) {}

  /** Calls `expire` for job `id` once the TTL has passed, unless cleared first. */
  schedule(id: string, expire: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(id);
      expire();
    }, this.ttlMs);
    timer.unref();
    this.timers.set(id, timer);
  }

  clear(id: string): void {
    const timer = this.timers.get(id);
    if (timer !== undefined) clearTimeout(timer);
    this.timers.delete(id);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
