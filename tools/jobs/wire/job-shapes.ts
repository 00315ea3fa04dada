// The job data that crosses the job host's socket, as schemas: a job's info, its watch triggers,
// the job events, a screen update of a watched job, a tool call's result. They describe the very
// types the rest of pitwall uses (events.ts, screen-state.ts); the check at the end fails to compile
// when the two drift apart. The handshake (handshake.ts) and the methods (methods.ts) are built of them.
import { IMAGE_MIME_TYPES, type ImageContent, type UnpreparedImage } from "../../images/image-content.js";
import type { FileTouch } from "../../file-touch.js";
import { Type, type Static } from "@sinclair/typebox";
import { type JobEvent, type JobInfo, WATCH_ACTIONS, type TriggerInfo } from "../events.js";
import type { ScreenUpdate } from "../terminal/screen-state.js";
import { SANDBOX_PROFILES, type FenceHit, type SandboxPolicy } from "../../sandbox/index.js";

export const strict = { additionalProperties: false } as const;

export const JobStarterSchema = Type.Union([Type.Literal("agent"), Type.Literal("person")]);

export const SandboxProfileSchema = Type.Union(SANDBOX_PROFILES.map((profile) => Type.Literal(profile)));

/** The person's sandbox policy, sent with every command (tools/sandbox/profiles.ts). */
export const SandboxPolicySchema = Type.Object(
  {
    profile: SandboxProfileSchema,
    required: Type.Boolean(),
    home: Type.String(),
    writable: Type.Array(Type.String()),
    hidden: Type.Array(Type.String()),
    protected: Type.Array(Type.String()),
    bwrap: Type.Optional(Type.String()),
    machine: Type.Optional(Type.String()),
  },
  strict,
);

export const FenceHitSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal("read-only"), Type.Literal("hidden"), Type.Literal("link"), Type.Literal("network")]),
    target: Type.String(),
    why: Type.String(),
    profile: SandboxProfileSchema,
    line: Type.String(),
  },
  strict,
);

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
    sandbox: Type.Optional(SandboxProfileSchema),
    unfenced: Type.Optional(Type.Boolean()),
    fenceHits: Type.Optional(Type.Integer({ minimum: 0 })),
    owner: Type.Optional(Type.String()),
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
    owner: Type.Optional(Type.String()),
    fired: Type.Integer({ minimum: 0 }),
  },
  strict,
);

const JobStreamSchema = Type.Union([Type.Literal("stdout"), Type.Literal("stderr"), Type.Literal("pty")]);

export const JobEventSchema = Type.Union([
  Type.Object({ type: Type.Literal("job_started"), job: JobInfoSchema }, strict),
  Type.Object({ type: Type.Literal("job_output"), jobId: Type.String(), stream: JobStreamSchema, chunk: Type.String(), offset: Type.Optional(Type.Integer({ minimum: 0 })) }, strict),
  Type.Object(
    { type: Type.Literal("job_yielded"), toolCallId: Type.String(), jobId: Type.String(), pid: Type.Integer(), startedAt: Type.Number(), tail: Type.String() },
    strict,
  ),
  Type.Object({ type: Type.Literal("job_exited"), job: JobInfoSchema, told: Type.Optional(Type.Boolean()), earlier: Type.Optional(Type.Boolean()) }, strict),
  Type.Object({ type: Type.Literal("job_removed"), jobId: Type.String() }, strict),
  Type.Object({ type: Type.Literal("job_fenced"), jobId: Type.String(), command: Type.String(), hit: FenceHitSchema }, strict),
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
    cursorVisible: Type.Boolean(),
    cursorShape: Type.Integer({ minimum: 0, maximum: 6 }),
    applicationCursorKeys: Type.Boolean(),
    bracketedPaste: Type.Boolean(),
    mouseTracking: Type.Union([Type.Literal("none"), Type.Literal("x10"), Type.Literal("vt200"), Type.Literal("drag"), Type.Literal("any")]),
    mouseEncoding: Type.Union([Type.Literal("default"), Type.Literal("sgr"), Type.Literal("sgr-pixels")]),
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

/** An image a remote host's read returns. */
const ImageContentSchema = Type.Object(
  {
    type: Type.Literal("image"),
    mimeType: Type.Union(IMAGE_MIME_TYPES.map((type) => Type.Literal(type))),
    data: Type.String(),
    name: Type.Optional(Type.String()),
    width: Type.Optional(Type.Number()),
    height: Type.Optional(Type.Number()),
    original: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() }, strict)),
  },
  strict,
);

/** A remote host's read of an image: the file's bytes, which the client prepares. */
const UnpreparedImageSchema = Type.Object(
  { mimeType: Type.Union(IMAGE_MIME_TYPES.map((type) => Type.Literal(type))), data: Type.String(), size: Type.Optional(Type.Integer({ minimum: 0 })), rest: Type.Optional(Type.String()) },
  strict,
);

const FileTouchSchema = Type.Union([
  Type.Object({ kind: Type.Literal("read"), path: Type.String() }, strict),
  Type.Object({ kind: Type.Literal("write"), path: Type.String(), created: Type.Boolean(), bytes: Type.Number() }, strict),
  Type.Object({ kind: Type.Literal("edit"), path: Type.String(), diff: Type.String(), linesAdded: Type.Number(), linesRemoved: Type.Number() }, strict),
]);

/** A tool's result as it crosses the socket: bash's and the job tools', and a remote host's file tools' (an image read, the file touched). */
export const ToolResultSchema = Type.Object(
  {
    content: Type.String(),
    details: Type.Optional(Type.Unknown()),
    isError: Type.Optional(Type.Boolean()),
    images: Type.Optional(Type.Array(ImageContentSchema)),
    unpreparedImage: Type.Optional(UnpreparedImageSchema),
    file: Type.Optional(FileTouchSchema),
    command: Type.Optional(CommandEndSchema),
    runningJob: Type.Optional(Type.String()),
  },
  strict,
);

// The schemas describe the very types the rest of pitwall uses: this fails to compile when they drift.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemasMatchTypes: [
  Same<Static<typeof JobInfoSchema>, JobInfo>,
  Same<Static<typeof JobEventSchema>, JobEvent>,
  Same<Static<typeof ScreenUpdateSchema>, ScreenUpdate>,
  Same<Static<typeof TriggerInfoSchema>, TriggerInfo>,
  Same<Static<typeof SandboxPolicySchema>, SandboxPolicy>,
  Same<Static<typeof FenceHitSchema>, FenceHit>,
  Same<Static<typeof ImageContentSchema>, ImageContent>,
  Same<Static<typeof UnpreparedImageSchema>, UnpreparedImage>,
  Same<Static<typeof FileTouchSchema>, FileTouch>,
] = [true, true, true, true, true, true, true, true, true];
void schemasMatchTypes;
