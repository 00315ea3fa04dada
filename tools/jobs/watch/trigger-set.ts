// The triggers of one job and the engine that runs them: lines come in batches (one chunk of
// output at a time), each trigger tests them, and matching lines gather into that trigger's batch.
// A batch fires once the burst has settled (no new match for SETTLE_MS, or GATHER_MS after its
// first match while matches keep coming), and never sooner than the trigger's debounce window
// after its previous firing: at most one firing per window, nothing lost in between (matches that
// arrive meanwhile wait for the window's end, batched). No I/O: time comes from a Clock.
import type { Clock } from "./clock.js";
import type { LogLine, TriggerFiring, TriggerInfo } from "../events.js";
import { CONTEXT_LINES, MatchBatch } from "./match-batch.js";
import {
  clampDebounceMs,
  compileTrigger,
  MAX_TRIGGERS_PER_JOB,
  MIN_WATCH_DEBOUNCE_MS,
  WatchError,
  type CompiledTrigger,
  type TriggerSpec,
} from "./trigger-spec.js";

/** A burst of matches is gathered until it has been quiet this long… */
export const SETTLE_MS = 250;
/** …or this long after its first match, whichever comes first. */
export const GATHER_MS = 1_000;

/** How batches gather and how short a window may be: these defaults, unless the owner of the jobs sets others (a test's registry). */
export interface WatchTiming {
  settleMs: number;
  gatherMs: number;
  /** The shortest debounce window a trigger may have. */
  minDebounceMs: number;
}

export const DEFAULT_WATCH_TIMING: Readonly<WatchTiming> = { settleMs: SETTLE_MS, gatherMs: GATHER_MS, minDebounceMs: MIN_WATCH_DEBOUNCE_MS };

export interface TriggerSetOptions {
  /** The debounce window of triggers that do not set their own. */
  debounceMs: number;
  clock: Clock;
  timing?: Partial<WatchTiming>;
  /** Contract: must not throw. */
  onFire(firing: TriggerFiring): void;
}

class ActiveTrigger {
  batch: MatchBatch | undefined;
  /** No firing before this time (the end of the last firing's debounce window). */
  quietUntil = 0;
  /** The last line its last firing showed: the next firing's context starts after it (0 after a restart). */
  shownUpTo = 0;
  cancelTimer: (() => void) | undefined;

  constructor(
    readonly info: TriggerInfo,
    readonly compiled: CompiledTrigger,
  ) {}

  /** When the pending batch may fire. */
  dueAt(timing: WatchTiming): number {
    const batch = this.batch!;
    const settled = Math.min(batch.startedAt + timing.gatherMs, batch.lastGrewAt + timing.settleMs);
    return Math.max(this.quietUntil, settled);
  }
}

export class TriggerSet {
  private readonly triggers: ActiveTrigger[] = [];
  private nextId = 1;
  /** The last lines fed, for the context before a match that starts a batch. */
  private recent: LogLine[] = [];

  private readonly timing: WatchTiming;

  constructor(private readonly options: TriggerSetOptions) {
    this.timing = { ...DEFAULT_WATCH_TIMING, ...options.timing };
  }

  get size(): number {
    return this.triggers.length;
  }

  /** Adds a trigger; throws a WatchError for a bad pattern or past 32 triggers. */
  add(spec: TriggerSpec): TriggerInfo {
    if (this.triggers.length >= MAX_TRIGGERS_PER_JOB) {
      throw new WatchError(`This job already has ${MAX_TRIGGERS_PER_JOB} triggers, the most a job can have. Remove one first, or combine patterns with | (e.g. FAIL|Error).`);
    }
    const compiled = compileTrigger(spec.pattern, spec.ignoreCase);
    const info: TriggerInfo = {
      id: this.nextId++,
      pattern: spec.pattern,
      action: spec.action,
      ignoreCase: compiled.ignoreCase,
      debounceMs: clampDebounceMs(spec.debounceMs ?? this.options.debounceMs, this.timing.minDebounceMs),
      setBy: spec.setBy,
      ...(spec.owner !== undefined ? { owner: spec.owner } : {}),
      fired: 0,
    };
    this.triggers.push(new ActiveTrigger(info, compiled));
    return { ...info };
  }

  /** Removes one trigger by id, or all of them; returns what was removed. A pending batch goes with it. */
  remove(id?: number): TriggerInfo[] {
    const removed = this.triggers.filter((t) => id === undefined || t.info.id === id);
    for (const trigger of removed) {
      trigger.cancelTimer?.();
      this.triggers.splice(this.triggers.indexOf(trigger), 1);
    }
    return removed.map((t) => ({ ...t.info }));
  }

  list(): TriggerInfo[] {
    return this.triggers.map((t) => ({ ...t.info }));
  }

  /** New lines of the job's output, in order. */
  feed(lines: readonly LogLine[]): void {
    if (lines.length === 0 || this.triggers.length === 0) return;
    let joined: string | undefined;
    const now = this.options.clock.now();
    for (const trigger of this.triggers) {
      const first = trigger.compiled.joined;
      // One test of the whole batch rules most batches out at once.
      if (first && !first.test((joined ??= lines.map((l) => l.text).join("\n")))) {
        if (trigger.batch?.wantsContext) for (let i = 0; i < CONTEXT_LINES && i < lines.length; i++) trigger.batch.addOther(lines[i]!, now);
        continue;
      }
      let grew = false;
      lines.forEach((line, i) => {
        if (trigger.compiled.line.test(line.text)) {
          trigger.batch ??= new MatchBatch(now, trigger.shownUpTo);
          trigger.batch.addMatch(line, this.before(lines, i), now);
          grew = true;
        } else {
          trigger.batch?.addOther(line, now);
        }
      });
      if (grew) this.arm(trigger);
    }
    this.recent = [...this.recent, ...lines.slice(-CONTEXT_LINES)].slice(-CONTEXT_LINES);
  }

  /**
   * The job restarted under the same id: its line numbers start again, so a batch of the old run
   * fires now (its output is complete) and context does not reach back into the old run.
   */
  restarted(): void {
    this.recent = [];
    for (const trigger of this.triggers) {
      if (trigger.batch) this.fire(trigger);
      trigger.shownUpTo = 0;
    }
  }

  /** Cancels every timer; pending batches are dropped. */
  dispose(): void {
    for (const trigger of this.triggers) trigger.cancelTimer?.();
    this.triggers.length = 0;
  }

  /** The up to 3 lines before lines[i]: from this feed, then from the previous ones. */
  private before(lines: readonly LogLine[], i: number): LogLine[] {
    const fromFeed = lines.slice(Math.max(0, i - CONTEXT_LINES), i);
    const need = CONTEXT_LINES - fromFeed.length;
    return need > 0 ? [...this.recent.slice(-need), ...fromFeed] : fromFeed;
  }

  /** Makes sure a timer will look at the trigger's batch when it may be due. */
  private arm(trigger: ActiveTrigger): void {
    if (trigger.cancelTimer || !trigger.batch) return;
    const { clock } = this.options;
    trigger.cancelTimer = clock.schedule(() => {
      trigger.cancelTimer = undefined;
      if (!trigger.batch || !this.triggers.includes(trigger)) return;
      if (clock.now() >= trigger.dueAt(this.timing)) this.fire(trigger);
      else this.arm(trigger);
    }, trigger.dueAt(this.timing) - clock.now());
  }

  private fire(trigger: ActiveTrigger): void {
    const batch = trigger.batch!;
    trigger.batch = undefined;
    trigger.cancelTimer?.();
    trigger.cancelTimer = undefined;
    const now = this.options.clock.now();
    trigger.quietUntil = now + trigger.info.debounceMs;
    trigger.shownUpTo = batch.lastLine;
    trigger.info.fired++;
    this.options.onFire({
      trigger: { ...trigger.info },
      lines: batch.lines,
      matches: batch.matches,
      ...(batch.omitted ? { omitted: batch.omitted } : {}),
      firedAt: now,
    });
  }
}
