// The shape of a watch trigger in tool calls (bash_stream's `watch`, watch_process's `add`), checking
// a list of them before anything is done, and how triggers are listed to the model.
import { Type, type Static } from "@sinclair/typebox";
import { type JobStarter, WATCH_ACTIONS, type TriggerInfo } from "../events.js";
import type { JobWatches } from "./job-watches.js";
import { compileTrigger, DEFAULT_WATCH_DEBOUNCE_MS, MAX_TRIGGERS_PER_JOB, MAX_WATCH_DEBOUNCE_MS, MIN_WATCH_DEBOUNCE_MS, patternLabel, WatchError } from "./trigger-spec.js";

export const watchEntry = Type.Object({
  pattern: Type.String({
    description:
      "Regular expression tested against each new line of output (RE2 syntax: JavaScript's without lookaround and backreferences). Smart case: case-insensitive unless it has a capital letter.",
  }),
  action: Type.Optional(
    Type.Union(
      WATCH_ACTIONS.map((action) => Type.Literal(action)),
      {
        description:
          '"wake" (default): start a turn with the lines when you are idle, a steering message when you are busy. "steer": a steering message (after the tool calls in flight). "follow-up": delivered when you would otherwise stop. "notify": the person sees it; you are told with your next request.',
      },
    ),
  ),
  ignoreCase: Type.Optional(Type.Boolean({ description: "Override smart case." })),
  debounceMs: Type.Optional(
    Type.Number({
      description: `At most one firing per this many ms; matches in between are batched into the next firing (${MIN_WATCH_DEBOUNCE_MS}–${MAX_WATCH_DEBOUNCE_MS}, default ${DEFAULT_WATCH_DEBOUNCE_MS} unless the person configured another).`,
    }),
  ),
});

export type WatchEntry = Static<typeof watchEntry>;

export const watchList = Type.Array(watchEntry, { maxItems: MAX_TRIGGERS_PER_JOB });

/** Checks every entry's pattern, and that the job has room for them; throws a WatchError naming the bad one. */
export function checkWatchEntries(entries: readonly WatchEntry[], existing = 0): void {
  if (existing + entries.length > MAX_TRIGGERS_PER_JOB) {
    throw new WatchError(`A job can have at most ${MAX_TRIGGERS_PER_JOB} triggers (it has ${existing}, ${entries.length} more were asked for). Combine patterns with | (e.g. FAIL|Error).`);
  }
  entries.forEach((entry, i) => {
    try {
      compileTrigger(entry.pattern, entry.ignoreCase);
    } catch (error) {
      const which = entries.length > 1 ? `Trigger ${i + 1} of ${entries.length}: ` : "";
      throw new WatchError(`${which}${error instanceof Error ? error.message : String(error)}`);
    }
  });
}

/** Adds checked entries to a job (wake when no action is given). */
export function addWatchEntries(watches: Pick<JobWatches, "add">, jobId: string, entries: readonly WatchEntry[], setBy: JobStarter): TriggerInfo[] {
  return entries.map((entry) =>
    watches.add(jobId, {
      pattern: entry.pattern,
      action: entry.action ?? "wake",
      ...(entry.ignoreCase !== undefined ? { ignoreCase: entry.ignoreCase } : {}),
      ...(entry.debounceMs !== undefined ? { debounceMs: entry.debounceMs } : {}),
      setBy,
    }),
  );
}

/** "#1 /FAIL/ → wake (set by you, at most every 10s, fired 2×)", from the model's point of view. */
export function describeTrigger(trigger: TriggerInfo): string {
  const who = trigger.setBy === "person" ? "the person" : "you";
  const fired = trigger.fired > 0 ? `, fired ${trigger.fired}×` : "";
  return `#${trigger.id} ${patternLabel(trigger)} → ${trigger.action} (set by ${who}, at most every ${Math.round(trigger.debounceMs / 1000)}s${fired})`;
}

/** bash_stream's `watch`, checked before anything starts: the error's text, or undefined when all is well. */
export function watchProblem(entries: readonly WatchEntry[] | undefined): string | undefined {
  if (!entries?.length) return undefined;
  try {
    checkWatchEntries(entries);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Sets bash_stream's triggers once its wait is over, so they cover what the job prints after the
 * output the call returns (nothing is reported twice); a job that already ended gets none. The
 * sentence that tells the model which, or "" without triggers.
 */
export function watchAfterWait(watches: Pick<JobWatches, "add">, job: { id: string; running: boolean }, entries: readonly WatchEntry[] | undefined): string {
  if (!entries?.length) return "";
  if (!job.running) return "The job ended within the wait, so its watch triggers were not set.";
  const added = addWatchEntries(watches, job.id, entries, "agent");
  const described = added.map(describeTrigger).join("; ");
  // Within the room a tool result keeps for its notices: long patterns are named by their ids.
  const list = described.length <= WATCHING_CHARS ? described : `triggers ${added.map((t) => `#${t.id}`).join(", ")} (watch_process lists them)`;
  return `Watching job ${job.id} from here on: ${list}. You are told when a line matches; watch_process changes the triggers.`;
}

/** The triggers bash_stream set are described in full up to this many characters. */
const WATCHING_CHARS = 600;
