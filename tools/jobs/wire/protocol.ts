// The job host's wire protocol: JSON messages, one per line, over a Unix socket. The first exchange
// (hello → welcome | mismatch) is frozen for every version, so a client and a host of different
// versions always understand that much: the client says its protocol and pitwall version, the host
// answers `welcome` only when both match exactly, `mismatch` (with its pid and a list of its jobs,
// so the person can decide to stop it) otherwise. After the welcome every message is checked
// against its schema (TypeBox, compiled) before anything acts on it; one that does not match ends
// the connection rather than being half understood. tools/jobs/host/README.md describes the methods.
import { RefusalSchema, type Refusal } from "./refusals.js";
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { type JobEvent, type JobInfo, WATCH_ACTIONS, type TriggerInfo } from "../events.js";
import { JOB_TOOL_NAMES } from "../model-tools/job-tools.js";
import type { ScreenUpdate } from "../terminal/screen-state.js";

/** Bumped whenever a message after the handshake changes shape. */
export const PROTOCOL_VERSION = 2;
/** A line longer than this is not a message of ours: the connection is ended. */
export const MAX_LINE_CHARS = 64 * 1024 * 1024;

const strict = { additionalProperties: false } as const;

// ---- shared shapes -----------------------------------------------------------------------------

const JobStarterSchema = Type.Union([Type.Literal("agent"), Type.Literal("person")]);

export const JobInfoSchema = Type.Object(
  {
    id: Type.String(),
    command: Type.String(),
    cwd: Type.String(),
    pid: Type.Integer(),
    startedAt: Type.Number(),
    endedAt: Type.Optional(Type.Number()),
    status: Type.Union([Type.Literal("running"), Type.Literal("exited"), Type.Literal("killed")]),
    exitCode: Type.Optional(Type.Integer()),
    signal: Type.Optional(Type.String()),
    startedBy: JobStarterSchema,
    restartedBy: Type.Optional(JobStarterSchema),
    stopRequestedBy: Type.Optional(JobStarterSchema),
    stdinMode: Type.Union([Type.Literal("pty"), Type.Literal("pipe")]),
    restarts: Type.Integer(),
    toolCallId: Type.Optional(Type.String()),
  },
  strict,
);

export const TriggerInfoSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    pattern: Type.String(),
    action: Type.Union(WATCH_ACTIONS.map((action) => Type.Literal(action))),
    ignoreCase: Type.Boolean(),
    debounceMs: Type.Number(),
    setBy: JobStarterSchema,
    fired: Type.Integer({ minimum: 0 }),
  },
  strict,
);

const JobStreamSchema = Type.Union([Type.Literal("stdout"), Type.Literal("stderr"), Type.Literal("pty")]);

export const JobEventSchema = Type.Union([
  Type.Object({ type: Type.Literal("job_started"), job: JobInfoSchema }, strict),
  Type.Object({ type: Type.Literal("job_output"), jobId: Type.String(), stream: JobStreamSchema, chunk: Type.String() }, strict),
  Type.Object(
    { type: Type.Literal("job_yielded"), toolCallId: Type.String(), jobId: Type.String(), pid: Type.Integer(), startedAt: Type.Number(), tail: Type.String() },
    strict,
  ),
  Type.Object({ type: Type.Literal("job_exited"), job: JobInfoSchema }, strict),
  Type.Object({ type: Type.Literal("job_removed"), jobId: Type.String() }, strict),
  Type.Object(
    {
      type: Type.Literal("job_triggers_changed"),
      jobId: Type.String(),
      triggers: Type.Array(TriggerInfoSchema),
      added: Type.Optional(TriggerInfoSchema),
      removed: Type.Optional(Type.Array(TriggerInfoSchema)),
      by: Type.Optional(JobStarterSchema),
    },
    strict,
  ),
  Type.Object(
    {
      type: Type.Literal("job_triggered"),
      jobId: Type.String(),
      command: Type.String(),
      trigger: TriggerInfoSchema,
      lines: Type.Array(Type.Object({ n: Type.Integer(), text: Type.String(), match: Type.Boolean() }, strict)),
      matches: Type.Integer({ minimum: 0 }),
      omitted: Type.Optional(Type.Object({ count: Type.Integer({ minimum: 0 }), fromLine: Type.Integer(), toLine: Type.Integer() }, strict)),
      firedAt: Type.Number(),
    },
    strict,
  ),
]);

const ScreenRunSchema = Type.Union([
  Type.Tuple([Type.Integer(), Type.Integer(), Type.Integer(), Type.String()]),
  Type.Tuple([Type.Integer(), Type.Integer(), Type.Integer(), Type.String(), Type.Integer({ minimum: 1, maximum: 2 })]),
]);

export const ScreenUpdateSchema = Type.Object(
  {
    cols: Type.Integer({ minimum: 1 }),
    rows: Type.Integer({ minimum: 1 }),
    viewportY: Type.Integer({ minimum: 0 }),
    baseY: Type.Integer({ minimum: 0 }),
    cursorX: Type.Integer({ minimum: 0 }),
    cursorY: Type.Integer({ minimum: 0 }),
    applicationCursorKeys: Type.Boolean(),
    bracketedPaste: Type.Boolean(),
    changed: Type.Array(Type.Tuple([Type.Integer({ minimum: 0 }), Type.Array(ScreenRunSchema)])),
  },
  strict,
);

const CommandEndSchema = Type.Object(
  {
    exitCode: Type.Union([Type.Integer(), Type.Null()]),
    signal: Type.Optional(Type.String()),
    timedOut: Type.Optional(Type.Boolean()),
    aborted: Type.Optional(Type.Boolean()),
    fullOutputPath: Type.Optional(Type.String()),
  },
  strict,
);

/** What bash and the job tools return (never images or a file touch). */
export const ToolResultSchema = Type.Object(
  {
    content: Type.String(),
    details: Type.Optional(Type.Unknown()),
    isError: Type.Optional(Type.Boolean()),
    command: Type.Optional(CommandEndSchema),
    runningJob: Type.Optional(Type.String()),
  },
  strict,
);

const SizeSchema = Type.Object({ cols: Type.Integer({ minimum: 1, maximum: 4096 }), rows: Type.Integer({ minimum: 1, maximum: 4096 }) }, strict);
const EnvSchema = Type.Record(Type.String(), Type.String());
const SignalSchema = Type.Union(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"].map((name) => Type.Literal(name)));

// ---- the frozen handshake ----------------------------------------------------------------------

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
  /** The watch triggers of the jobs that have any. */
  triggers: Type.Array(Type.Object({ jobId: Type.String(), triggers: Type.Array(TriggerInfoSchema) }, strict)),
});
export type Welcome = Omit<Static<typeof WelcomeSchema>, "jobs"> & { jobs: JobInfo[] };

// ---- methods -----------------------------------------------------------------------------------

const ServiceToolSchema = Type.Union(
  ["bash", ...JOB_TOOL_NAMES].map((name) => Type.Literal(name)),
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
        settings: Type.Object({ maxOutputChars: Type.Integer({ minimum: 1 }), defaultYieldMs: Type.Integer({ minimum: 1 }) }, strict),
        env: EnvSchema,
        secrets: Type.Array(Type.String()),
        /** The client's temp folder: bash's full-output files live as long as the agent that reads them. */
        outputDir: Type.Optional(Type.String()),
      },
      strict,
    ),
    result: ToolResultSchema,
  },
  start: { args: Type.Object({ command: Type.String(), size: Type.Optional(SizeSchema), env: EnvSchema }, strict), result: JobInfoSchema },
  kill: { args: Type.Object({ id: Type.String(), signal: Type.Optional(SignalSchema) }, strict), result: JobInfoSchema },
  restart: { args: Type.Object({ id: Type.String(), size: Type.Optional(SizeSchema) }, strict), result: JobInfoSchema },
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
  notices: { args: Type.Object({}, strict), result: Type.Array(Type.String()) },
  summary: { args: Type.Object({}, strict), result: Type.Array(Type.String()) },
  status: { args: Type.Object({}, strict), result: HostStatusSchema },
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
/** The person aborted the call (Esc), or queued a steering message (a waiting tool returns early). */
const SignalMessageSchema = Type.Object({ type: Type.Literal("signal"), id: Type.Integer(), signal: Type.Union([Type.Literal("abort"), Type.Literal("yield")]) }, strict);
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

// ---- checking ----------------------------------------------------------------------------------

export interface Checker<T> {
  check(value: unknown): value is T;
  /** The first problem, "/path: what was expected". */
  problem(value: unknown): string;
}

/**
 * Compiled on first use: compiling every method's schemas up front took ~27 ms of each host's
 * start (and of the dashboard's), and a session uses a handful of methods.
 */
export function checker<T>(schema: TSchema): Checker<T> {
  let compiled: ReturnType<typeof TypeCompiler.Compile> | undefined;
  const get = (): ReturnType<typeof TypeCompiler.Compile> => (compiled ??= TypeCompiler.Compile(schema));
  return {
    check: (value): value is T => get().Check(value),
    problem: (value) => {
      const error = get().Errors(value).First();
      return error ? `${error.path || "/"}: ${error.message}` : "unknown problem";
    },
  };
}

export const checkHello = checker<{ type: "hello"; protocol: number; version: string; client: unknown }>(HelloSchema);
export const checkClientInfo = checker<ClientInfo>(ClientInfoSchema);
export const checkWelcome = checker<Welcome>(WelcomeSchema);
export const checkMismatch = checker<Mismatch>(MismatchSchema);
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

export function argsChecker(method: MethodName): Checker<unknown> {
  return argCheckers.get(method)!;
}

export function resultChecker(method: MethodName): Checker<unknown> {
  return resultCheckers.get(method)!;
}

// ---- framing -----------------------------------------------------------------------------------

/** Splits a stream of text into lines; a line past MAX_LINE_CHARS is an error. */
export class LineSplitter {
  private buffer = "";

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxChars: number = MAX_LINE_CHARS,
  ) {}

  /** Throws when a line is too long. */
  push(chunk: string): void {
    let text = this.buffer + chunk;
    let newline = text.indexOf("\n");
    while (newline !== -1) {
      const line = text.slice(0, newline);
      text = text.slice(newline + 1);
      if (line.length > 0) this.onLine(line);
      newline = text.indexOf("\n");
    }
    if (text.length > this.maxChars) throw new Error(`a message longer than ${this.maxChars} characters`);
    this.buffer = text;
  }
}

/** One message as a line. JSON never holds a raw newline, so a line is exactly one message. */
export function encodeMessage(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}

// The schemas describe the very types the rest of pitwall uses: this fails to compile when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemasMatchTypes: [
  Same<Static<typeof JobInfoSchema>, JobInfo>,
  Same<Static<typeof JobEventSchema>, JobEvent>,
  Same<Static<typeof ScreenUpdateSchema>, ScreenUpdate>,
  Same<Static<typeof TriggerInfoSchema>, TriggerInfo>,
] = [true, true, true, true];
void schemasMatchTypes;
