// The contract every model-facing tool implements. The agent loop validates arguments against
// `parameters`, calls `execute`, and turns the result into a tool-result message; tools know nothing
// about providers, sessions or screens.
import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent, UnpreparedImage } from "./images/image-content.js";
import type { CommandEnd } from "./command-end.js";
import type { FileTouch } from "./file-touch.js";

export interface ToolResult<TDetails = unknown> {
  /** What the model reads: short, and when cut it ends with the exact next step to take. */
  content: string;
  /** What the UI shows: structured data such as a diff, an exit code, a duration, a full-output path. */
  details?: TDetails;
  /** True when the call failed; the model still reads `content`. */
  isError?: boolean;
  /** Images for the model (read on an image file), sent after `content`. */
  images?: ImageContent[];
  /** The file the call read, wrote or edited (file-touch.ts): the UI lists and shows it. */
  file?: FileTouch;
  /** How the command the call ran ended (command-end.ts): the UI shows it under the output. */
  command?: CommandEnd;
  /**
   * A remote session's read of an image: the file's bytes, for the machine with the image library
   * to prepare (tools/jobs/remote/remote-job-service.ts turns it into `images` before the agent or
   * the UI sees the result). Never set on a result a tool returns where it is read.
   */
  unpreparedImage?: UnpreparedImage;
  /** The job the call's command runs on as (a bash call that outlived its wait, a bash_stream that yielded). */
  runningJob?: string;
}

/** Live output of a running call; each update is appended to the ones before it. */
export interface ToolUpdate {
  chunk: string;
}

export interface ToolCallContext {
  /**
   * Fires when a steering message was queued (by the person, or a watch trigger's), its reason a
   * YieldCause saying whose. A tool that is only *waiting* (bash_stream waiting for its yield
   * window) returns early with what it has; work that must finish ignores it.
   */
  yieldSignal: AbortSignal;
}

/** Who queued the steering message that cut a wait short: the reason a yield signal is aborted with. */
export type YieldCause = { by: "person" } | { by: "trigger"; jobId: string; triggerId: number };

/** The cause a yield signal carries, when it carries one. */
export function yieldCauseOf(signal: AbortSignal): YieldCause | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason !== "object" || reason === null) return undefined;
  const cause = reason as Partial<{ by: unknown; jobId: unknown; triggerId: unknown }>;
  if (cause.by === "person") return { by: "person" };
  if (cause.by === "trigger" && typeof cause.jobId === "string" && typeof cause.triggerId === "number") return { by: "trigger", jobId: cause.jobId, triggerId: cause.triggerId };
  return undefined;
}

/** Why a wait was cut short, as a tool result says it to the model: "the person sent a message". */
export function yieldCauseText(signal: AbortSignal): string {
  const cause = yieldCauseOf(signal);
  if (cause?.by === "person") return "the person sent a message";
  if (cause?.by === "trigger") return `watch trigger ${cause.triggerId} on job ${cause.jobId} fired (its lines come next, as a steering message)`;
  return "a steering message arrived";
}

/** What the model is shown of a tool: everything but how it runs. */
export type ToolDefinition<P extends TSchema = TSchema> = Pick<AgentTool<P>, "name" | "label" | "description" | "parameters">;

export interface AgentTool<P extends TSchema = TSchema, D = unknown> {
  name: string;
  /** Human-readable name for the UI. */
  label: string;
  /** Carries the operational facts the model needs: limits, timeouts, what truncation does. */
  description: string;
  parameters: P;
  /**
   * Contract: arguments were already validated against `parameters`. A failure is either thrown
   * (its message becomes the error result) or returned with `isError: true`. `signal` aborts the
   * call promptly; `onUpdate` may be called any number of times before the promise settles.
   */
  execute(
    toolCallId: string,
    params: Static<P>,
    signal: AbortSignal,
    onUpdate: (update: ToolUpdate) => void,
    context: ToolCallContext,
  ): Promise<ToolResult<D>>;
}
