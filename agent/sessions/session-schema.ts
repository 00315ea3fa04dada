// The shape of every line of a session file, as TypeBox schemas: a line is used only when it has the
// shape the code relies on, so a hand-edited or damaged line is skipped with a warning instead of
// failing later with a TypeError. Extra fields are allowed (a newer pitwall may add some).
// Every record has a short `id` of its own and the `parentId` of the record it follows on its branch
// (both absent in files written before they existed: those load as one branch), so a compaction can
// name the first message it kept, and a session is a tree: going back to an earlier point appends a
// `leaf` record, and what follows names that point as its parent (session-tree.ts).
import { Type, type Static, type TSchema } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";

/**
 * The format this pitwall writes; a file with a higher version was written by a newer one.
 * 1: a list of records. 2: a tree (`parentId`, `leaf` and `file_change` records); an older pitwall
 * would read every branch as one conversation, so it is told the file is newer.
 */
export const SESSION_FORMAT_VERSION = 2;

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
  // Files written before November 2026 say "user"; SessionLineChecker reads that as "person".
  setBy: Type.Union([Type.Literal("agent"), Type.Literal("person")]),
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
  /** Set on a copy (the original was open in another pitwall, or /fork): the original's path. */
  forkedFrom: Type.Optional(Type.String()),
});

/** Records after the header, by `type`. */
const RecordId = Type.Optional(Type.String({ minLength: 1 }));
/** The record this one follows on its branch; null: the first of the conversation. Absent in old files: the record above it. */
const ParentId = Type.Optional(Type.Union([Type.String({ minLength: 1 }), Type.Null()]));

/** A file's content as a hash (SHA-256, hex) and a size; its bytes are kept in the session's snapshot folder when they could be. */
const FileState = Type.Object({
  hash: Type.String({ pattern: "^[0-9a-f]{64}$" }),
  bytes: Type.Integer({ minimum: 0 }),
  /** Why the bytes were not kept: larger than the per-file cap, holding an API key in use, or they could not be written. */
  unkept: Type.Optional(Type.Union([Type.Literal("size"), Type.Literal("secret"), Type.Literal("unsaved")])),
});

const RECORD_SCHEMAS = {
  message: Type.Object({ type: Type.Literal("message"), id: RecordId, parentId: ParentId, message: MessageSchema }),
  model_change: Type.Object({ type: Type.Literal("model_change"), id: RecordId, parentId: ParentId, provider: Type.String(), model: Type.String(), timestamp: Type.String() }),
  thinking_change: Type.Object({ type: Type.Literal("thinking_change"), id: RecordId, parentId: ParentId, level: ThinkingLevel, timestamp: Type.String() }),
  /**
   * From here on the conversation sent to the model is `summary` followed by the message records
   * from `firstKeptId` on (null: none of the earlier ones). The messages it replaced stay above it.
   */
  compaction: Type.Object({
    type: Type.Literal("compaction"),
    id: Type.String({ minLength: 1 }),
    parentId: ParentId,
    summary: Type.String(),
    firstKeptId: Type.Union([Type.String(), Type.Null()]),
    reason: Type.Union([Type.Literal("threshold"), Type.Literal("manual"), Type.Literal("overflow"), Type.Literal("resume")]),
    tokensBefore: Type.Number(),
    tokensAfter: Type.Number(),
    messagesSummarized: Type.Number(),
    timestamp: Type.String(),
  }),
  /**
   * The agent's write or edit changed a file: its content before (null: the file did not exist) and
   * after, linked to the tool call. Rewinding with files restores the `before` of the first change
   * after the point gone back to.
   */
  file_change: Type.Object({
    type: Type.Literal("file_change"),
    id: Type.String({ minLength: 1 }),
    parentId: ParentId,
    toolCallId: Type.String(),
    /** Absolute path. */
    path: Type.String({ minLength: 1 }),
    before: Type.Union([FileState, Type.Null()]),
    after: FileState,
    timestamp: Type.String(),
  }),
  /**
   * Not part of the conversation: the current leaf moved to `parentId` (an earlier record, or null
   * for an empty conversation), by a rewind or a switch of branch. What is appended next follows it.
   */
  /**
   * Not part of the conversation: the wake cap's count changed (runs watch triggers started since
   * the person's last message, and whether the person was told that wakes now wait). The last one
   * in the file is where a resumed session's cap goes on from.
   */
  wake_count: Type.Object({
    type: Type.Literal("wake_count"),
    id: Type.String({ minLength: 1 }),
    parentId: ParentId,
    unattended: Type.Integer({ minimum: 0 }),
    told: Type.Boolean(),
    timestamp: Type.String(),
  }),
  leaf: Type.Object({
    type: Type.Literal("leaf"),
    id: Type.String({ minLength: 1 }),
    parentId: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
    reason: Type.Union([Type.Literal("rewind"), Type.Literal("switch")]),
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

/** Compiled on first use: TypeBox compiles to new code at every start, which no cache keeps. */
function compile<T extends TSchema>(schema: T): Validator<Static<T>> {
  let compiled: ReturnType<typeof TypeCompiler.Compile<T>> | undefined;
  const get = (): ReturnType<typeof TypeCompiler.Compile<T>> => (compiled ??= TypeCompiler.Compile(schema));
  return {
    check: (value): value is Static<T> => get().Check(value),
    firstProblem: (value) => {
      const error = get().Errors(value).First();
      return error ? `${error.path || "/"}: ${error.message}` : "unknown problem";
    },
  };
}

/** The message validator, whose problems name the field of the message's own role that is wrong. */
function messageValidator(): Validator<Extract<SessionRecord, { type: "message" }>> {
  const whole = compile(RECORD_SCHEMAS.message);
  const byRole = Object.fromEntries(
    Object.entries(MESSAGE_SCHEMAS).map(([role, schema]) => [role, compile(Type.Object({ type: Type.Literal("message"), id: RecordId, parentId: ParentId, message: schema }))]),
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
  file_change: compile(RECORD_SCHEMAS.file_change),
  wake_count: compile(RECORD_SCHEMAS.wake_count),
  leaf: compile(RECORD_SCHEMAS.leaf),
};
