// The job host's methods, after the handshake: each method's arguments and result as schemas (the
// table METHODS, which the host's dispatch must cover entirely, host/host-methods.ts), and the
// messages that carry them. A client sends calls (and steer or abort signals for a running call);
// the host answers each call with a result or a failure, streams a tool call's live output, and
// sends unasked the job events, the screen updates of the jobs a client watches and the log lines it
// follows. Each side checks every message against its schema before acting on it; one that does not
// match ends the connection rather than being half understood.
import { FILE_TOOL_NAMES } from "../model-tools/file-tools.js";
import { Type, type Static } from "@sinclair/typebox";
import { type JobEvent, type JobInfo, WATCH_ACTIONS, type TriggerInfo } from "../events.js";
import { JOB_TOOL_NAMES } from "../model-tools/job-tools.js";
import type { ScreenUpdate } from "../terminal/screen-state.js";
import { checker, type Checker } from "./checker.js";
import { ClientKindSchema } from "./handshake.js";
import { JobEventSchema, JobInfoSchema, SandboxPolicySchema, SandboxProfileSchema, ScreenUpdateSchema, strict, ToolResultSchema, TriggerInfoSchema } from "./job-shapes.js";
import { RefusalSchema, type Refusal } from "./refusals.js";

const SizeSchema = Type.Object({ cols: Type.Integer({ minimum: 1, maximum: 4096 }), rows: Type.Integer({ minimum: 1, maximum: 4096 }) }, strict);
const EnvSchema = Type.Record(Type.String(), Type.String());
const SignalSchema = Type.Union(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"].map((name) => Type.Literal(name)));

// ---- the methods --------------------------------------------------------------------------------

const ServiceToolSchema = Type.Union(
  ["bash", ...JOB_TOOL_NAMES, ...FILE_TOOL_NAMES].map((name) => Type.Literal(name)),
);

/** One listed job for `pitwall jobs`: the job, its last line, and whether a client owns it. */
const ListedJobSchema = Type.Object({ job: JobInfoSchema, lastLine: Type.String(), kept: Type.Boolean() }, strict);

export const HostStatusSchema = Type.Object(
  {
    pid: Type.Integer(),
    version: Type.String(),
    cwd: Type.String(),
    clients: Type.Array(ClientKindSchema),
    /** When the jobs left running without a dashboard are stopped (epoch ms), if that clock runs. */
    keptUntil: Type.Optional(Type.Number()),
    jobs: Type.Array(ListedJobSchema),
  },
  strict,
);
export type HostStatus = Omit<Static<typeof HostStatusSchema>, "jobs"> & { jobs: Array<{ job: JobInfo; lastLine: string; kept: boolean }> };

/** Each method: the schema of its arguments and of its result. */
export const METHODS = {
  runTool: {
    args: Type.Object(
      {
        tool: ServiceToolSchema,
        toolCallId: Type.String(),
        params: Type.Unknown(),
        /** The client's own limits: what its model was told. */
        settings: Type.Object({ maxOutputChars: Type.Integer({ minimum: 1 }), defaultYieldMs: Type.Integer({ minimum: 1 }), steerGraceMs: Type.Integer({ minimum: 0 }) }, strict),
        env: EnvSchema,
        secrets: Type.Array(Type.String()),
        /** The client's temp folder: bash's full-output files live as long as the agent that reads them. */
        outputDir: Type.Optional(Type.String()),
        /** The person's sandbox policy, and what the command must see through the private /tmp. */
        sandbox: Type.Optional(Type.Object({ policy: SandboxPolicySchema, visible: Type.Optional(Type.Array(Type.String())) }, strict)),
      },
      strict,
    ),
    result: ToolResultSchema,
  },
  /** The person starts a job; `sandbox` is the policy under the profile of the person's jobs. */
  start: { args: Type.Object({ command: Type.String(), size: Type.Optional(SizeSchema), env: EnvSchema, sandbox: Type.Optional(SandboxPolicySchema) }, strict), result: JobInfoSchema },
  kill: { args: Type.Object({ id: Type.String(), signal: Type.Optional(SignalSchema) }, strict), result: JobInfoSchema },
  /** The person runs a job again, under another sandbox profile when `profile` is given. */
  restart: { args: Type.Object({ id: Type.String(), size: Type.Optional(SizeSchema), profile: Type.Optional(SandboxProfileSchema) }, strict), result: JobInfoSchema },
  remove: { args: Type.Object({ id: Type.String() }, strict), result: Type.Boolean() },
  write: { args: Type.Object({ id: Type.String(), data: Type.String(), eof: Type.Optional(Type.Boolean()) }, strict), result: Type.Null() },
  text: {
    args: Type.Object({ id: Type.String(), kind: Type.Union([Type.Literal("log"), Type.Literal("tail"), Type.Literal("screen")]), count: Type.Optional(Type.Integer({ minimum: 0 })) }, strict),
    result: Type.Array(Type.String()),
  },
  /** Starts screen updates of a job for this client, under the watch number it chose; false: no such job. */
  watch: { args: Type.Object({ id: Type.String(), watch: Type.Integer() }, strict), result: Type.Boolean() },
  unwatch: { args: Type.Object({ watch: Type.Integer() }, strict), result: Type.Null() },
  scroll: {
    args: Type.Object({ watch: Type.Integer(), by: Type.Optional(Type.Integer()), to: Type.Optional(Type.Union([Type.Literal("top"), Type.Literal("bottom")])) }, strict),
    result: Type.Null(),
  },
  resize: { args: Type.Object({ id: Type.String(), cols: Type.Integer({ minimum: 1 }), rows: Type.Integer({ minimum: 1 }) }, strict), result: Type.Null() },
  /** Sends a job's completed log lines as they come (`pitwall jobs tail -f`); returns its last `last` lines now. */
  follow: { args: Type.Object({ id: Type.String(), watch: Type.Integer(), last: Type.Integer({ minimum: 0 }) }, strict), result: Type.Array(Type.String()) },
  /** The person sets a watch trigger on a job (a WatchError's refusal says why not). */
  addTrigger: {
    args: Type.Object({ id: Type.String(), pattern: Type.String(), action: Type.Union(WATCH_ACTIONS.map((action) => Type.Literal(action))) }, strict),
    result: TriggerInfoSchema,
  },
  /** The person removes trigger `trigger` of a job, or all its triggers; returns those removed. */
  removeTriggers: { args: Type.Object({ id: Type.String(), trigger: Type.Optional(Type.Integer()) }, strict), result: Type.Array(TriggerInfoSchema) },
  /** Something else the person did (a command of their own), queued with their job actions. */
  note: { args: Type.Object({ text: Type.String() }, strict), result: Type.Null() },
  /** The start of a file the host can read (a remote session's files pane): its size and up to maxBytes, base64. */
  readFile: {
    args: Type.Object({ path: Type.String(), maxBytes: Type.Integer({ minimum: 0, maximum: 4 * 1024 * 1024 }) }, strict),
    result: Type.Object({ size: Type.Number(), data: Type.String() }, strict),
  },
  /** A piece of an image a remote read kept open (its result's unpreparedImage.rest), base64. */
  imagePiece: {
    args: Type.Object({ token: Type.String(), offset: Type.Integer({ minimum: 0 }), maxBytes: Type.Integer({ minimum: 1, maximum: 4 * 1024 * 1024 }) }, strict),
    result: Type.Object({ data: Type.String() }, strict),
  },
  notices: { args: Type.Object({}, strict), result: Type.Array(Type.Object({ text: Type.String(), at: Type.Number() }, strict)) },
  summary: { args: Type.Object({}, strict), result: Type.Array(Type.String()) },
  status: { args: Type.Object({}, strict), result: HostStatusSchema },
  /** Whether the host can fence commands under `policy` (made the host machine's first): bwrap probed there. */
  sandboxCheck: {
    args: Type.Object({ policy: SandboxPolicySchema }, strict),
    result: Type.Union([Type.Object({ ok: Type.Literal(true) }, strict), Type.Object({ ok: Type.Literal(false), reason: Type.String(), fix: Type.String() }, strict)]),
  },
  /** Stops and forgets this client's jobs (a dashboard quitting with "stop them", print and JSON mode ending). */
  stopOwned: { args: Type.Object({}, strict), result: Type.Null() },
  /** `pitwall jobs stop`: stops jobs (all running ones) with every process they started; returns them. */
  stop: { args: Type.Object({ ids: Type.Union([Type.Array(Type.String()), Type.Literal("all")]) }, strict), result: Type.Array(JobInfoSchema) },
} as const;

export type MethodName = keyof typeof METHODS;
export type MethodArgs<M extends MethodName> = Static<(typeof METHODS)[M]["args"]>;
type ResultOverrides = {
  runTool: Static<typeof ToolResultSchema>;
  start: JobInfo;
  kill: JobInfo;
  restart: JobInfo;
  stop: JobInfo[];
  status: HostStatus;
  addTrigger: TriggerInfo;
  removeTriggers: TriggerInfo[];
};
export type MethodResult<M extends MethodName> = M extends keyof ResultOverrides ? ResultOverrides[M] : Static<(typeof METHODS)[M]["result"]>;

// ---- messages after the handshake --------------------------------------------------------------

const CallSchema = Type.Object({ type: Type.Literal("call"), id: Type.Integer(), method: Type.String(), args: Type.Unknown() }, strict);
/** Who queued the steering message behind a yield (tools/tool.ts, YieldCause). */
const YieldCauseSchema = Type.Union([
  Type.Object({ by: Type.Literal("person") }, strict),
  Type.Object({ by: Type.Literal("trigger"), jobId: Type.String(), triggerId: Type.Integer() }, strict),
]);
/** The person aborted the call (Esc), or a steering message was queued (a waiting tool returns early, saying whose it was). */
const SignalMessageSchema = Type.Object(
  { type: Type.Literal("signal"), id: Type.Integer(), signal: Type.Union([Type.Literal("abort"), Type.Literal("yield")]), cause: Type.Optional(YieldCauseSchema) },
  strict,
);
export const ClientMessageSchema = Type.Union([CallSchema, SignalMessageSchema]);
export type ClientMessage = Static<typeof ClientMessageSchema>;

export const HostMessageSchema = Type.Union([
  Type.Object({ type: Type.Literal("result"), id: Type.Integer(), value: Type.Unknown() }, strict),
  /** A failed call; `refusal` carries a registry refusal's fields (refusals.ts). */
  Type.Object({ type: Type.Literal("failure"), id: Type.Integer(), message: Type.String(), refusal: Type.Optional(RefusalSchema) }, strict),
  /** Live output of a running tool call. */
  Type.Object({ type: Type.Literal("update"), id: Type.Integer(), chunk: Type.String() }, strict),
  Type.Object({ type: Type.Literal("event"), event: JobEventSchema }, strict),
  Type.Object({ type: Type.Literal("screen"), watch: Type.Integer(), update: ScreenUpdateSchema }, strict),
  Type.Object({ type: Type.Literal("lines"), watch: Type.Integer(), lines: Type.Array(Type.String()) }, strict),
]);
export type HostMessage =
  | { type: "result"; id: number; value: unknown }
  | { type: "failure"; id: number; message: string; refusal?: Refusal }
  | { type: "update"; id: number; chunk: string }
  | { type: "event"; event: JobEvent }
  | { type: "screen"; watch: number; update: ScreenUpdate }
  | { type: "lines"; watch: number; lines: string[] };

export const checkClientMessage = checker<ClientMessage>(ClientMessageSchema);
export const checkHostMessage = checker<HostMessage>(HostMessageSchema);

const argCheckers = new Map<string, Checker<unknown>>();
const resultCheckers = new Map<string, Checker<unknown>>();
for (const [name, method] of Object.entries(METHODS)) {
  argCheckers.set(name, checker(method.args));
  resultCheckers.set(name, checker(method.result));
}

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(METHODS, name);
}

/** The checker of a method's arguments: what it passes is that method's MethodArgs (argCheckers is built from METHODS). */
export function argsChecker<M extends MethodName>(method: M): Checker<MethodArgs<M>> {
  return argCheckers.get(method) as Checker<MethodArgs<M>>;
}

export function resultChecker(method: MethodName): Checker<unknown> {
  return resultCheckers.get(method)!;
}
