// The registry's refusals as error classes: the message is written for the model (it names the
// tool to use next), and the fields let the person's dashboard say the same thing in its own words.

import type { JobInfo } from "./events.js";
/** No job has this id (finished jobs are forgotten after their TTL). */
export class NoSuchJobError extends Error {
  constructor(
    readonly jobId: string,
    readonly known: string[],
  ) {
    super(`No job with id "${jobId}". ${known.length > 0 ? `Known jobs: ${known.join(", ")}.` : "There are no jobs."} list_processes shows them.`);
  }
}

/** As many jobs run as the registry allows at once. */
export class JobLimitError extends Error {
  constructor(
    readonly running: number,
    readonly limit: number,
  ) {
    super(`Cannot start another job: ${running} jobs are running and the limit is ${limit}. Stop one with kill_process (list_processes shows them all), then try again.`);
  }
}

/** The job has ended: it takes no more input. */
/** How a finished job ended, as "Job 3 has …" goes on. */
export function endingOf(info: JobInfo): string {
  return info.status === "killed" ? `been killed by ${info.signal ?? "a signal"}` : `exited with code ${info.exitCode ?? 0}`;
}

export class JobEndedError extends Error {
  constructor(
    readonly jobId: string,
    readonly ending: string,
  ) {
    super(`Job ${jobId} has ${ending}; it takes no more input. poll_process returns its final output.`);
  }
}

/** The job came from a bash call, whose stdin is closed. */
export class JobTakesNoInputError extends Error {
  constructor(readonly jobId: string) {
    super(`Job ${jobId} came from a bash call, whose stdin is closed: it takes no input. To type into a command, start it with bash_stream.`);
  }
}

/** The job has taken as much input as one job may. */
export class JobInputLimitError extends Error {
  constructor(
    readonly jobId: string,
    readonly received: number,
    readonly limit: number,
  ) {
    super(
      `Input refused: job ${jobId} has received ${received} bytes and this would pass the limit of ${limit} bytes (256 KiB) per job. Feed large input through a file instead (e.g. write it, then redirect it with <).`,
    );
  }
}

/** Another agent's job: only its owner's agent or the person may stop it, restart it or type into it. */
export class JobOwnerError extends Error {
  constructor(
    readonly jobId: string,
    readonly owner: string,
    what: string,
  ) {
    super(
      `Refused: job ${jobId} belongs to ${owner}, not to you; only its owner or the person may ${what} it. ` +
        `You can still read it (poll_process, get_process_log) and watch it (watch_process). If it must ${what === "stop" ? "stop" : "get input"}, ask the person.`,
    );
  }
}
