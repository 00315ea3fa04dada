// The registry's typed refusals across the job host's socket: the host sends the error's fields
// with its message, the client raises the same error class again, so the dashboard still words it
// for the person (app/person-errors.ts) and the model still reads the registry's own text.
import { Type, type Static } from "@sinclair/typebox";
import { JobEndedError, JobInputLimitError, JobLimitError, JobTakesNoInputError, NoSuchJobError } from "../errors.js";
import { WatchError } from "../watch/trigger-spec.js";

const strict = { additionalProperties: false } as const;

export const RefusalSchema = Type.Union([
  Type.Object({ kind: Type.Literal("no-such-job"), jobId: Type.String(), known: Type.Array(Type.String()) }, strict),
  Type.Object({ kind: Type.Literal("job-limit"), running: Type.Integer(), limit: Type.Integer() }, strict),
  Type.Object({ kind: Type.Literal("job-ended"), jobId: Type.String(), ending: Type.String() }, strict),
  Type.Object({ kind: Type.Literal("takes-no-input"), jobId: Type.String() }, strict),
  Type.Object({ kind: Type.Literal("input-limit"), jobId: Type.String(), received: Type.Integer(), limit: Type.Integer() }, strict),
  /** A watch trigger that cannot be set or removed: the failure's message says why. */
  Type.Object({ kind: Type.Literal("watch"), message: Type.String() }, strict),
]);
export type Refusal = Static<typeof RefusalSchema>;

/** The wire form of a typed refusal; undefined for any other error. */
export function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof NoSuchJobError) return { kind: "no-such-job", jobId: error.jobId, known: error.known };
  if (error instanceof JobLimitError) return { kind: "job-limit", running: error.running, limit: error.limit };
  if (error instanceof JobEndedError) return { kind: "job-ended", jobId: error.jobId, ending: error.ending };
  if (error instanceof JobTakesNoInputError) return { kind: "takes-no-input", jobId: error.jobId };
  if (error instanceof JobInputLimitError) return { kind: "input-limit", jobId: error.jobId, received: error.received, limit: error.limit };
  if (error instanceof WatchError) return { kind: "watch", message: error.message };
  return undefined;
}

/** The error the host raised, raised again here. */
export function errorFromRefusal(refusal: Refusal): Error {
  switch (refusal.kind) {
    case "no-such-job":
      return new NoSuchJobError(refusal.jobId, refusal.known);
    case "job-limit":
      return new JobLimitError(refusal.running, refusal.limit);
    case "job-ended":
      return new JobEndedError(refusal.jobId, refusal.ending);
    case "takes-no-input":
      return new JobTakesNoInputError(refusal.jobId);
    case "input-limit":
      return new JobInputLimitError(refusal.jobId, refusal.received, refusal.limit);
    case "watch":
      return new WatchError(refusal.message);
  }
}
