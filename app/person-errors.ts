// The job registry's refusals in the person's words. The registry writes its errors for the model
// ("list_processes shows them"); the dashboard says what happened and what the person can do.
import { JobEndedError, JobInputLimitError, JobLimitError, JobTakesNoInputError, NoSuchJobError } from "../tools/jobs/index.js";

/** An error from a job action, as the person should read it. */
export function forThePerson(error: unknown): string {
  if (error instanceof NoSuchJobError) {
    return `there is no job ${error.jobId} (${error.known.length > 0 ? `jobs: ${error.known.join(", ")}` : "there are no jobs"})`;
  }
  if (error instanceof JobLimitError) return `${error.running} jobs are running, the most pitwall runs at once: stop one first (x in the jobs pane, or /kill <id>)`;
  if (error instanceof JobEndedError) return `job ${error.jobId} has ended`;
  if (error instanceof JobTakesNoInputError) return `job ${error.jobId} came from a bash call of the agent's and takes no input`;
  if (error instanceof JobInputLimitError) return `job ${error.jobId} has taken ${Math.round(error.limit / 1024)} KiB of typed input, the most one job takes`;
  return error instanceof Error ? error.message : String(error);
}
