// The shape of every line of a session file, as TypeBox schemas: a line is used only when it has the
// shape the code relies on, so a hand-edited or damaged line is skipped with a warning instead of
// failing later with a TypeError. Extra fields are allowed (a newer pitwall may add some).
// Every record has a short `id` of its own (absent in files written before ids existed), so a
// compaction can name the first message it kept, and records can later name a parent.
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

/** The format this pitwall writes; a file with a higher version was written by a newer one. */
export const SESSION_FORMAT_VERSION = 1;

const ThinkingLevel = Type.Union([Type.Literal("off"), Type.Literal("minimal"), Type.Literal("low"), Type.Literal("medium"), Type.Literal("high")]);

const Cost = Type.Object({ input: Type.Number(), output: Type.Number(), cacheRead: Type.Number(), cacheWrite: Type.Number(), total: Type.Number() });

const Usage = Type.Object({
  input: Type.Number(),
  output: Type.Number(),
  cacheRead: Type.Number(),
  cacheWrite: Type.Number(),
  totalTokens: Type.Number(),
  cost: Type.Union([Cost, Type.Null()]),
});

const AssistantContent = Type.Union([
  Type.Object({ type: Type.Literal("text"), text: Type.String() }),
  Type.Object({ type: Type.Literal("thinking"), thinking: Type.String(), signature: Type.Optional(Type.String()), redacted: Type.Optional(Type.Boolean()) }),
  Type.Object({
    type: Type.Literal("toolCall"),
    id: Type.String(),
    name: Type.String(),
    arguments: Type.Record(Type.String(), Type.Unknown()),
    invalidArguments: Type.Optional(Type.String()),
  }),
]);

const Image = Type.Object({
  type: Type.Literal("image"),
  mimeType: Type.Union([Type.Literal("image/png"), Type.Literal("image/jpeg"), Type.Literal("image/gif"), Type.Literal("image/webp")]),
  data: Type.String(),
});

const FileTouch = Type.Union([
  Type.Object({ kind: Type.Literal("read"), path: Type.String() }),
  Type.Object({ kind: Type.Literal("write"), path: Type.String(), created: Type.Boolean(), bytes: Type.Number() }),
  Type.Object({ kind: Type.Literal("edit"), path: Type.String(), diff: Type.String(), linesAdded: Type.Number(), linesRemoved: Type.Number() }),
]);

const CommandEnd = Type.Object({
  exitCode: Type.Union([Type.Number(), Type.Null()]),
  signal: Type.Optional(Type.String()),
  timedOut: Type.Optional(Type.Boolean()),
  aborted: Type.Optional(Type.Boolean()),
  fullOutputPath: Type.Optional(Type.String()),
});

const TriggeredBy = Type.Object({
  jobId: Type.String(),
  triggerId: Type.Number(),
  pattern: Type.String(),
  ignoreCase: Type.Boolean(),
  action: Type.Union([Type.Literal("steer"), Type.Literal("follow-up"), Type.Literal("wake")]),
  setBy: Type.Union([Type.Literal("agent"), Type.Literal("user")]),
});

/** Message shapes by role. */
const MESSAGE_SCHEMAS = {
  user: Type.Object({
    role: Type.Literal("user"),
    content: Type.String(),
    origin: Type.Optional(
      Type.Union([Type.Literal("prompt"), Type.Literal("steer"), Type.Literal("follow_up"), Type.Literal("notice"), Type.Literal("summary"), Type.Literal("trigger")]),
    ),
    images: Type.Optional(Type.Array(Image)),
    trigger: Type.Optional(TriggeredBy),
    timestamp: Type.Number(),
  }),
  assistant: Type.Object({
    role: Type.Literal("assistant"),
    content: Type.Array(AssistantContent),
    provider: Type.String(),
    model: Type.String(),
    usage: Usage,
    stopReason: Type.Union([Type.Literal("stop"), Type.Literal("length"), Type.Literal("toolUse"), Type.Literal("error"), Type.Literal("aborted")]),
    errorMessage: Type.Optional(Type.String()),
    timestamp: Type.Number(),
  }),
  toolResult: Type.Object({
    role: Type.Literal("toolResult"),
    toolCallId: Type.String(),
    toolName: Type.String(),
    content: Type.String(),
    details: Type.Optional(Type.Unknown()),
    images: Type.Optional(Type.Array(Image)),
    file: Type.Optional(FileTouch),
    command: Type.Optional(CommandEnd),
    runningJob: Type.Optional(Type.String()),
    isError: Type.Boolean(),
    timestamp: Type.Number(),
  }),
};
const MessageSchema = Type.Union([MESSAGE_SCHEMAS.user, MESSAGE_SCHEMAS.assistant, MESSAGE_SCHEMAS.toolResult]);

const SessionHeaderSchema = Type.Object({
  type: Type.Literal("session"),
  version: Type.Integer({ minimum: 1 }),
  id: Type.String(),
  timestamp: Type.String(),
  cwd: Type.String(),
  provider: Type.String(),
  model: Type.String(),
  thinkingLevel: ThinkingLevel,
  pitwallVersion: Type.String(),
  /** Set on a copy made because the original was open in another pitwall: the original's path. */
  forkedFrom: Type.Optional(Type.String()),
});

/** Records after the header, by `type`. */
const RecordId = Type.Optional(Type.String({ minLength: 1 }));

const RECORD_SCHEMAS = {
  message: Type.Object({ type: Type.Literal("message"), id: RecordId, message: MessageSchema }),
  model_change: Type.Object({ type: Type.Literal("model_change"), id: RecordId, provider: Type.String(), model: Type.String(), timestamp: Type.String() }),
  thinking_change: Type.Object({ type: Type.Literal("thinking_change"), id: RecordId, level: ThinkingLevel, timestamp: Type.String() }),
  /**
   * From here on the conversation sent to the model is `summary` followed by the message records
   * from `firstKeptId` on (null: none of the earlier ones). The messages it replaced stay above it.
   */
  compaction: Type.Object({
    type: Type.Literal("compaction"),
    id: Type.String({ minLength: 1 }),
    summary: Type.String(),
    firstKeptId: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.Literal("threshold"), Type.Literal("manual"), Type.Literal("overflow"), Type.Literal("resume")]),
    tokensBefore: Type.Number(),
    tokensAfter: Type.Number(),
    messagesSummarized: Type.Number(),
    timestamp: Type.String(),
  }),
} as const;

export type SessionHeader = Static<typeof SessionHeaderSchema>;
export type SessionRecord = { [K in keyof typeof RECORD_SCHEMAS]: Static<(typeof RECORD_SCHEMAS)[K]> }[keyof typeof RECORD_SCHEMAS];
export type SessionLine = SessionHeader | SessionRecord;

export type RecordType = keyof typeof RECORD_SCHEMAS;

export function isRecordType(type: string): type is RecordType {
  return Object.hasOwn(RECORD_SCHEMAS, type);
}

export interface Validator<T> {
  check(value: unknown): value is T;
  /** The first problem, as "/path: what was expected", for a value that fails the check. */
  firstProblem(value: unknown): string;
}

function compile<T extends TSchema>(schema: T): Validator<Static<T>> {
  const compiled = TypeCompiler.Compile(schema);
  return {
    check: (value): value is Static<T> => compiled.Check(value),
    firstProblem: (value) => {
      const error = compiled.Errors(value).First();
      return error ? `${error.path || "/"}: ${error.message}` : "unknown problem";
    },
  };
}

/** The message validator, whose problems name the field of the message's own role that is wrong. */
function messageValidator(): Validator<Extract<SessionRecord, { type: "message" }>> {
  const whole = compile(RECORD_SCHEMAS.message);
  const byRole = Object.fromEntries(
    Object.entries(MESSAGE_SCHEMAS).map(([role, schema]) => [role, compile(Type.Object({ type: Type.Literal("message"), message: schema }))]),
  );
  return {
    check: whole.check,
    firstProblem: (value) => {
      const message = (value as { message?: unknown }).message;
      if (typeof message !== "object" || message === null) return whole.firstProblem(value);
      const role = (message as { role?: unknown }).role;
      const own = typeof role === "string" && Object.hasOwn(byRole, role) ? byRole[role] : undefined;
      return own ? own.firstProblem(value) : `/message/role: expected "user", "assistant" or "toolResult"`;
    },
  };
}

export const headerValidator = compile(SessionHeaderSchema);
export const recordValidators: { [K in RecordType]: Validator<Extract<SessionRecord, { type: K }>> } = {
  message: messageValidator(),
  model_change: compile(RECORD_SCHEMAS.model_change),
  thinking_change: compile(RECORD_SCHEMAS.thinking_change),
  compaction: compile(RECORD_SCHEMAS.compaction),
};
