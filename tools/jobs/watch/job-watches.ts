// Where job output meets the triggers: the one hook between a job and the trigger engine. Each job's
// plain-text log (what the model reads: escapes removed, `\r` frames resolved) hands over its
// completed lines; they are gathered for the rest of the current chunk of output (one microtask)
// and fed to the job's TriggerSet in one batch. Firings and changes to the triggers go out as job
// events. Whoever owns the jobs owns this: the registry today, the job host tomorrow; it needs
// nothing of a job but its id, its command and its log's line listener.
import type { JobStarter, LogLine, TriggerInfo, WatchEvent } from "../events.js";
import { systemClock, type Clock } from "./clock.js";
import { TriggerSet, type WatchTiming } from "./trigger-set.js";
import { WatchError, type TriggerSpec } from "./trigger-spec.js";

/** What the watches need of a job. */
export interface WatchedJob {
  id: string;
  command: string;
  log: { onLine(listener: (line: string, lineNumber: number) => void, wanted?: () => boolean): () => void };
}

export interface JobWatchesOptions {
  /** The debounce window of triggers that do not set their own (ms). */
  debounceMs: number;
  /** Contract: must not throw. */
  emit(event: WatchEvent): void;
  clock?: Clock;
  timing?: Partial<WatchTiming>;
}

interface Watched {
  set: TriggerSet;
  command: string;
  stopFeeding: (() => void) | undefined;
}

export class JobWatches {
  private readonly jobs = new Map<string, Watched>();
  private readonly clock: Clock;

  constructor(private readonly options: JobWatchesOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** A job started, or restarted under its id (its triggers stay): its lines feed its triggers from now on. */
  attach(job: WatchedJob): void {
    let watched = this.jobs.get(job.id);
    if (watched) {
      watched.stopFeeding?.();
      watched.set.restarted();
      watched.command = job.command;
    } else {
      const entry: Watched = {
        command: job.command,
        stopFeeding: undefined,
        set: new TriggerSet({
          debounceMs: this.options.debounceMs,
          clock: this.clock,
          ...(this.options.timing ? { timing: this.options.timing } : {}),
          onFire: (firing) => this.options.emit({ type: "job_triggered", jobId: job.id, command: entry.command, ...firing }),
        }),
      };
      watched = entry;
      this.jobs.set(job.id, watched);
    }
    watched.stopFeeding = feedInBatches(job, watched.set);
  }

  /** The job left the list: its triggers go (and the panes hear that it has none). */
  forget(jobId: string): void {
    const watched = this.jobs.get(jobId);
    if (!watched) return;
    watched.stopFeeding?.();
    const had = watched.set.size > 0;
    watched.set.dispose();
    this.jobs.delete(jobId);
    if (had) this.options.emit({ type: "job_triggers_changed", jobId, triggers: [] });
  }

  /** Adds a trigger to a listed job; throws a WatchError saying what is wrong. */
  add(jobId: string, spec: TriggerSpec): TriggerInfo {
    const watched = this.require(jobId);
    const added = watched.set.add(spec);
    this.options.emit({ type: "job_triggers_changed", jobId, triggers: watched.set.list(), added, by: spec.setBy });
    return added;
  }

  /** Removes trigger `triggerId` of the job, or all its triggers; throws a WatchError for an unknown id. */
  remove(jobId: string, triggerId: number | undefined, by: JobStarter): TriggerInfo[] {
    const watched = this.require(jobId);
    const removed = watched.set.remove(triggerId);
    if (triggerId !== undefined && removed.length === 0) {
      const ids = watched.set.list().map((t) => t.id);
      throw new WatchError(`Job ${jobId} has no trigger ${triggerId}. ${ids.length ? `Its triggers: ${ids.join(", ")}.` : "It has no triggers."}`);
    }
    if (removed.length > 0) this.options.emit({ type: "job_triggers_changed", jobId, triggers: watched.set.list(), removed, by });
    return removed;
  }

  /** The job's triggers (none for a job without any, or unknown). */
  list(jobId: string): TriggerInfo[] {
    return this.jobs.get(jobId)?.set.list() ?? [];
  }

  /** Stops everything: timers, listeners. */
  dispose(): void {
    for (const watched of this.jobs.values()) {
      watched.stopFeeding?.();
      watched.set.dispose();
    }
    this.jobs.clear();
  }

  private require(jobId: string): Watched {
    const watched = this.jobs.get(jobId);
    if (watched) return watched;
    const known = [...this.jobs.keys()];
    throw new WatchError(`No job with id "${jobId}". ${known.length ? `Known jobs: ${known.join(", ")}.` : "There are no jobs."}`);
  }
}

/**
 * Collects the job's completed lines while triggers exist and feeds them once the current chunk of
 * output has been read (a microtask later), so each trigger tests a chunk in one pass.
 */
function feedInBatches(job: WatchedJob, set: TriggerSet): () => void {
  let pending: LogLine[] = [];
  let scheduled = false;
  let stopped = false;
  const flush = (): void => {
    scheduled = false;
    const lines = pending;
    pending = [];
    if (!stopped) set.feed(lines);
  };
  const stop = job.log.onLine(
    (text, n) => {
      if (set.size === 0) return;
      pending.push({ n, text });
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    },
    () => set.size > 0,
  );
  return () => {
    // Lines already read still count: they were printed before the restart or removal.
    if (pending.length > 0) flush();
    stopped = true;
    stop();
  };
}
