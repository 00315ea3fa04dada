// The one event union every front end consumes: panes, the session writer, print mode and JSON mode
// all subscribe to the same bus and so see the same truth. Every event is plain, JSON-serialisable
// data with a snake_case `type`. The agent's events are `agent_*`, `turn_*`, `message_*` and
// `tool_execution_*` (one model tool call); the job registry's are `job_*` (tools/jobs/events.ts:
// `job_started`, `job_output`, `job_yielded`, `job_exited`, `job_removed`), whoever started the job.
import type { CommandEnd } from "../tools/command-end.js";
import type { FileTouch } from "../tools/file-touch.js";
import type { JobEvent } from "../tools/jobs/index.js";
import type { AssistantMessage, ImageContent, Message, ThinkingLevel, ToolCall, ToolResultMessage } from "./messages.js";
import type { FileRestoreReport } from "./sessions/file-restore.js";
import type { FileState } from "./sessions/session-file.js";

/** One step of an assistant message being streamed. `contentIndex` points into `message.content`. */
export type AssistantDelta =
  | { kind: "text_delta"; contentIndex: number; delta: string }
  | { kind: "thinking_delta"; contentIndex: number; delta: string }
  | { kind: "toolcall_start"; contentIndex: number; id: string; name: string }
  /** Raw JSON text of the arguments; the parsed partial arguments live on the streaming message. */
  | { kind: "toolcall_delta"; contentIndex: number; delta: string }
  | { kind: "toolcall_end"; contentIndex: number; toolCall: ToolCall };

export interface QueueState {
  steering: string[];
  followUp: string[];
}

export type AgentLifecycleEvent =
  | { type: "agent_start" }
  | { type: "turn_start" }
  | { type: "message_start"; message: Message }
  | { type: "message_update"; delta: AssistantDelta }
  | { type: "message_end"; message: Message }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  /** Live output of a running tool call, appended to what came before. */
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; chunk: string }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      /** What the model reads. */
      content: string;
      /** What the UI shows. */
      details?: unknown;
      /** The file the call read, wrote or edited (tools/file-touch.ts). */
      file?: FileTouch;
      /** How the command the call ran ended (tools/command-end.ts). */
      command?: CommandEnd;
      /** The job the call's command runs on as (its output goes on in the jobs pane). */
      runningJob?: string;
      isError: boolean;
      durationMs: number;
    }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  /** `messages` are the ones this run added and still in the conversation (a compaction drops the ones it summarised). */
  | { type: "agent_end"; messages: Message[] };

/**
 * Why a compaction ran: the next request would pass the threshold, the person asked (/compact), the
 * provider rejected a request as too long, or a resumed session's older part did not fit in memory.
 */
export type CompactionReason = "threshold" | "manual" | "overflow" | "resume";

export type CompactionEvent =
  | { type: "compaction_start"; reason: CompactionReason; tokensBefore: number; instructions?: string }
  | {
      type: "compaction_end";
      reason: CompactionReason;
      tokensBefore: number;
      /** Estimated for the next request; equal to tokensBefore when it failed. */
      tokensAfter: number;
      /** The summary that now stands for the earlier turns; absent when it failed. */
      summary?: string;
      /** Messages the summary replaced. */
      messagesSummarized: number;
      /** Messages kept word for word after the summary: the newest ones of the conversation. */
      messagesKept: number;
      /** What went wrong (the summary request failed or was aborted); the conversation is unchanged. */
      error?: string;
    };

export type AgentStateEvent =
  | ({ type: "queue_update" } & QueueState)
  | { type: "model_change"; provider: string; model: string }
  | { type: "thinking_change"; level: ThinkingLevel };

/** One of the person's messages a rewind went back to: its text (and images) to send again, edited or not. */
export interface RewoundPrompt {
  id: string;
  text: string;
  images?: ImageContent[];
}

/**
 * The session as a tree (agent/sessions/session-tree.ts): the agent's file changes (recorded so a
 * rewind can undo them), moves to another point of the tree, and copies into a new file.
 */
export type SessionEvent =
  /** The agent's write or edit changed a file: its state before (null: there was no file) and after. */
  | { type: "file_change"; toolCallId: string; path: string; before: FileState | null; after: FileState }
  /**
   * The conversation moved to another point of the session's tree: back before one of the person's
   * messages (`rewind`, which gives the message back in `prompt`), or to another branch (`switch`).
   * `messages` is what the model is sent from now on; the branch left stays in the session file.
   */
  | {
      type: "branch_change";
      reason: "rewind" | "switch";
      /** The record the conversation now ends with (null: nothing yet). */
      leafId: string | null;
      previousLeafId: string | null;
      messages: Message[];
      prompt?: RewoundPrompt;
      /** What a rewind with files did to the files the agent changed after that point. */
      files?: FileRestoreReport;
    }
  /** The current branch was copied into a new session file, which is written from now on. */
  | { type: "session_forked"; path: string; forkedFrom: string; leafId: string | null };

export type ProblemEvent =
  /** A failure a person can act on: the message says what happened and what to do next. */
  | { type: "error"; message: string; source: "provider" | "input" | "tool" | "session" | "config" }
  /** A provider call failed and will be tried again after `delayMs`. */
  | { type: "retry"; attempt: number; maxAttempts: number; delayMs: number; reason: string };

export type PitwallEvent = AgentLifecycleEvent | CompactionEvent | AgentStateEvent | SessionEvent | ProblemEvent | JobEvent;
export type PitwallEventType = PitwallEvent["type"];
