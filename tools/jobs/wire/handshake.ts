// The job host's handshake: the client's first message (hello: its protocol and pitwall versions and
// who it is) and the host's answer. The host welcomes the client only when both versions match
// exactly; otherwise it answers mismatch, with its own versions, its pid and a list of its jobs, so
// the person can decide to stop it, and closes the connection. The hello and the mismatch never
// change shape, in any version: a client and a host of different versions always understand that
// much. Everything after the welcome may change with PROTOCOL_VERSION (methods.ts).
import { Type, type Static } from "@sinclair/typebox";
import type { JobInfo } from "../events.js";
import { checker } from "./checker.js";
import { JobInfoSchema, strict, TriggerInfoSchema } from "./job-shapes.js";

/**
 * Bumped whenever a message after the handshake changes shape. 3: the job terminal's screen data
 * (cursor, mouse modes); 4: the exits a greeting says are still to be told; 5: the sandbox
 * (runTool's and start's policy, restart's profile, JobInfo's sandbox fields, job_fenced); 6: a
 * link that may drop (a remote client's hello, job_output's offset, what a resuming client missed,
 * readFile, the file tools in the host); 7: a home-relative sandbox policy the host makes its own
 * (a remote client's), sandboxCheck; 8: a remote read's unprepared image (runTool's result), the
 * machine a policy names in its refusals; 9: job output for all-output clients as output frames
 * (framing.ts: a header line with the length, then the text unescaped); 10: a remote read's
 * image over one message's worth, its first piece with a token and the rest by imagePiece; 11: the
 * client's steer grace in runTool's settings.
 */
export const PROTOCOL_VERSION = 11;

export const ClientKindSchema = Type.Union([Type.Literal("dashboard"), Type.Literal("print"), Type.Literal("json"), Type.Literal("cli")]);
export type ClientKind = Static<typeof ClientKindSchema>;

export const ClientInfoSchema = Type.Object(
  {
    kind: ClientKindSchema,
    pid: Type.Integer(),
    /** Every job_output event, a sample (enough for an "unseen output" mark), or none. */
    output: Type.Union([Type.Literal("all"), Type.Literal("sampled"), Type.Literal("none")]),
    /** How long jobs a dashboard leaves running are kept without one attached. */
    keepJobsMs: Type.Optional(Type.Number({ minimum: 0 })),
    /** Job ids go on from here at least (the ids this client has already seen). */
    nextId: Type.Optional(Type.Integer({ minimum: 1 })),
    /** The dashboard agent this client serves ("main", "tests"): how other agents hear of its jobs. */
    agent: Type.Optional(Type.String({ maxLength: 64 })),
    /**
     * The client reaches the host over a link that may drop (ssh, through the remote bridge): when
     * it goes, its calls in flight are yielded rather than aborted (a bash command goes on as a
     * job) and its jobs are kept for it (keepJobsMs) rather than stopped.
     */
    remote: Type.Optional(Type.Boolean()),
    /** The id this client had on its connection before (a reconnect): it takes back what that one owned. */
    resumes: Type.Optional(Type.String()),
    /** Per job, the offset just past the last output this client saw: the host sends what followed first. */
    since: Type.Optional(Type.Array(Type.Object({ id: Type.String(), offset: Type.Integer({ minimum: 0 }) }, strict), { maxItems: 10_000 })),
  },
  strict,
);
export type ClientInfo = Static<typeof ClientInfoSchema>;

const HelloSchema = Type.Object({ type: Type.Literal("hello"), protocol: Type.Integer(), version: Type.String(), client: Type.Unknown() });
export type Hello = { type: "hello"; protocol: number; version: string; client: ClientInfo };

/** A job as a host of any version lists it when refusing a client. */
const BriefJobSchema = Type.Object({ id: Type.String(), command: Type.String(), status: Type.String() });
export type BriefJob = Static<typeof BriefJobSchema>;

const MismatchSchema = Type.Object({ type: Type.Literal("mismatch"), protocol: Type.Integer(), version: Type.String(), pid: Type.Integer(), jobs: Type.Array(BriefJobSchema) });
export type Mismatch = Static<typeof MismatchSchema>;

const WelcomeSchema = Type.Object({
  type: Type.Literal("welcome"),
  protocol: Type.Integer(),
  version: Type.String(),
  pid: Type.Integer(),
  clientId: Type.String(),
  jobs: Type.Array(JobInfoSchema),
  /** The ids of the jobs this client took over (left running by a client before it). */
  adopted: Type.Array(Type.String()),
  /** Of the jobs that ended, those whose exit this client's agent is now to be told (they ended while no pitwall owned them). */
  exitsToTell: Type.Array(Type.String()),
  /** Per job asked for in `since`: how many characters after that offset were older than what the host keeps. */
  missed: Type.Optional(Type.Array(Type.Object({ id: Type.String(), chars: Type.Integer({ minimum: 0 }) }, strict))),
  /** The watch triggers of the jobs that have any. */
  triggers: Type.Array(Type.Object({ jobId: Type.String(), triggers: Type.Array(TriggerInfoSchema) }, strict)),
});
export type Welcome = Omit<Static<typeof WelcomeSchema>, "jobs"> & { jobs: JobInfo[] };

/** The hello as the host reads it first: versions only; the client's info is checked once they match. */
export const checkHello = checker<{ type: "hello"; protocol: number; version: string; client: unknown }>(HelloSchema);
export const checkClientInfo = checker<ClientInfo>(ClientInfoSchema);
export const checkWelcome = checker<Welcome>(WelcomeSchema);
export const checkMismatch = checker<Mismatch>(MismatchSchema);
