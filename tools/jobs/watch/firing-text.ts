// How a firing reads: its matching lines with their context, numbered as in the job's log ("> 42 |"
// marks a matching line, "  41 |" a line of context, "  …" a gap), under one line that names the
// job and the trigger. The same text goes to the model (as a steer, a follow-up, a notice or the
// message that wakes it) and, line for line, to the chat.
import { shortCommand } from "../format.js";
import { patternLabel } from "./trigger-spec.js";
import type { FiredLine, JobTriggeredEvent } from "../events.js";

/** The numbered lines of a firing. */
export function firingLines(lines: readonly FiredLine[]): string[] {
  const width = String(lines.reduce((max, l) => Math.max(max, l.n), 0)).length;
  const out: string[] = [];
  let previous = 0;
  for (const line of lines) {
    if (previous > 0 && line.n > previous + 1) out.push("  …");
    out.push(`${line.match ? ">" : " "} ${String(line.n).padStart(width)} | ${line.text}`);
    previous = line.n;
  }
  return out;
}

/** "job 2 printed (trigger 1 /FAIL/ set by the person on `npm test`):" */
export function firingHeadline(firing: JobTriggeredEvent): string {
  const who = firing.trigger.setBy === "person" ? "the person" : "you";
  return `job ${firing.jobId} printed (watch trigger ${firing.trigger.id} ${patternLabel(firing.trigger)}, set by ${who}, on: ${shortCommand(firing.command, 60)}):`;
}

/** The whole message: headline, numbered lines, and where the matches not shown are. */
export function firingText(firing: JobTriggeredEvent): string {
  const parts = [firingHeadline(firing), ...firingLines(firing.lines)];
  const omitted = firing.omitted;
  if (omitted) {
    const where = omitted.fromLine === omitted.toLine ? `line ${omitted.fromLine}` : `lines ${omitted.fromLine}–${omitted.toLine}`;
    parts.push(
      `[${omitted.count} more matching line${omitted.count === 1 ? "" : "s"} not shown (${where}): get_process_log with jobId "${firing.jobId}" and offset ${omitted.fromLine} reads them.]`,
    );
  }
  return parts.join("\n");
}

const HEADLINE = /^job \S+ printed \(watch trigger \d+ /;
/** The owner in a headline written for the model (firingHeadline). */
const SET_BY = /, set by (you|the person), on: /;

/** A headline written for the model, as the person reads it. */
function headlineForPerson(line: string): string {
  return line.replace(SET_BY, (_all, who: string) => `, set by ${who === "you" ? "the agent" : "you"}, on: `);
}
/** A trigger's message (one firing, or firings merged into it) with every headline as the person reads it. */
export function firingsForPerson(text: string): string {
  return text
    .split("\n")
    .map((line) => (HEADLINE.test(line) ? headlineForPerson(line) : line))
    .join("\n");
}

/** The lines firingText writes under a headline, and MergedFirings' note between two firings. */
const LINE = /^(?:[> ] +\d+ \| |  …$)/;
const NOTE = /^\[(?:\d+ more matching lines? not shown |Trigger \d+ fired )/;

/**
 * A notice's text with each firing cut to its headline and how many lines it had: for the chat,
 * which showed those lines when the trigger fired (the model gets them whole). The headline speaks
 * to the person there: the agent's trigger is "set by the agent", the person's "set by you".
 */
export function foldFirings(text: string): string {
  const out: string[] = [];
  let folded = 0;
  let inFiring = false;
  const flush = (): void => {
    if (folded > 0) out[out.length - 1] += ` ${folded} line${folded === 1 ? "" : "s"}, shown above when it fired`;
    folded = 0;
  };
  for (const line of text.split("\n")) {
    if (inFiring && (LINE.test(line) || NOTE.test(line))) {
      if (LINE.test(line)) folded++;
      continue;
    }
    flush();
    inFiring = HEADLINE.test(line);
    out.push(inFiring ? headlineForPerson(line) : line);
  }
  flush();
  return out.join("\n");
}
