// The contract every model-facing tool implements. The agent loop validates arguments against
// `parameters`, calls `execute`, and turns the result into a tool-result message; tools know nothing
// about providers, sessions or screens.
import type { Static, TSchema } from "@sinclair/typebox";
import type { ImageContent } from "./images/image-content.js";
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
  /** The job the call's command runs on as (a bash call that outlived its wait, a bash_stream that yielded). */
  runningJob?: string;
}

/** Live output of a running call; each update is appended to the ones before it. */
export interface ToolUpdate {
  chunk: string;
}

export interface ToolCallContext {
  /**
   * Fires when the person queued a steering message. A tool that is only *waiting* (bash_stream
   * waiting for its yield window) returns early with what it has; work that must finish ignores it.
   */
  yieldSignal: AbortSignal;
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
