// Reads a fake-LLM script from JSON (for main.ts, benches and manual runs): an array of FakeReply /
// FakeError objects, checked against a TypeBox schema so a typo in a bench script is reported with
// its path instead of silently producing a different reply.

import { readFile } from "node:fs/promises";
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import type { FakeError, FakeReply } from "./script.js";

const Count = Type.Integer({ minimum: 0 });

const ReplySchema = Type.Object(
  {
    kind: Type.Literal("reply"),
    thinking: Type.Optional(Type.String()),
    text: Type.Optional(Type.String()),
    toolCalls: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.Optional(Type.String()),
            name: Type.String(),
            arguments: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.String()]),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    usage: Type.Optional(
      Type.Object(
        { input: Count, output: Count, cacheRead: Type.Optional(Count), cacheWrite: Type.Optional(Count) },
        { additionalProperties: false },
      ),
    ),
    estimateUsage: Type.Optional(Type.Boolean()),
    stopReason: Type.Optional(Type.Union([Type.Literal("stop"), Type.Literal("length"), Type.Literal("toolUse")])),
    chunkSize: Type.Optional(Type.Integer({ minimum: 1 })),
    delayMs: Type.Optional(Count),
    dropAfterChunks: Type.Optional(Count),
    holdOpen: Type.Optional(Type.Boolean()),
    withholdHeaders: Type.Optional(Type.Boolean()),
    stallAfterChunks: Type.Optional(Count),
    streamError: Type.Optional(
      Type.Object({ afterChunks: Count, type: Type.String(), message: Type.Optional(Type.String()) }, { additionalProperties: false }),
    ),
    responsesFailure: Type.Optional(
      Type.Object(
        { event: Type.Union([Type.Literal("response.failed"), Type.Literal("error")]), code: Type.String(), message: Type.Optional(Type.String()) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const ErrorSchema = Type.Object(
  {
    kind: Type.Literal("error"),
    status: Type.Integer({ minimum: 400, maximum: 599 }),
    message: Type.Optional(Type.String()),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    code: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const ScriptFileSchema = Type.Array(Type.Union([ReplySchema, ErrorSchema]), { minItems: 1 });

// Compile-time guard: the schemas must describe exactly the public types (same fields, each side
// assignable to the other), so a field added to FakeReply cannot be forgotten here.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Same<A, B> = Mutual<A, B> extends true ? Mutual<keyof A, keyof B> : false;
const replySchemaMatches: Same<Static<typeof ReplySchema>, FakeReply> = true;
const errorSchemaMatches: Same<Static<typeof ErrorSchema>, FakeError> = true;
void replySchemaMatches;
void errorSchemaMatches;

/** Validates parsed JSON as a script list; throws naming the first bad fields. */
export function parseScripts(value: unknown, source = "script"): Array<FakeReply | FakeError> {
  if (Value.Check(ScriptFileSchema, value)) return value;
  throw new Error(
    `${source} is not a valid fake-LLM script. Expected a non-empty JSON array of ` +
      `{"kind":"reply",...} or {"kind":"error","status":...} objects.\n${problemsIn(value).slice(0, 5).join("\n")}`,
  );
}

/** Each item is checked against the schema its `kind` picks, so errors name fields, not "union". */
function problemsIn(value: unknown): string[] {
  if (!Array.isArray(value)) return ["  /: not an array"];
  if (value.length === 0) return ["  /: the array is empty"];
  return value.flatMap((item: unknown, index) => {
    const kind = typeof item === "object" && item !== null ? (item as { kind?: unknown }).kind : undefined;
    const schema = kind === "reply" ? ReplySchema : kind === "error" ? ErrorSchema : undefined;
    if (schema === undefined) return [`  /${index}/kind: must be "reply" or "error"`];
    return [...Value.Errors(schema, item)].map((e) => `  /${index}${e.path}: ${e.message}`);
  });
}

export async function loadScriptFile(path: string): Promise<Array<FakeReply | FakeError>> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`cannot read the fake-LLM script ${path}: ${reason}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${path} is not JSON (${reason}); a fake-LLM script is a JSON array of replies.`);
  }
  return parseScripts(value, path);
}
