// The one event union every front end consumes: panes, the session writer, print mode and JSON mode
// all subscribe to the same bus and so see the same truth. Every event is plain, JSON-serialisable
// data with a snake_case `type`. The agent's events are `agent_*`, `turn_*`, `message_*` and
// `tool_execution_*` (one model tool call); the job registry's are `job_*` (tools/jobs/events.ts),
// whoever started the job. PITWALL_EVENT_TYPES (at the end) lists every event with what it means,
// and the compiler holds it to the union; PitwallEvent's comment states the order guarantees.
//
// Several agents (a dashboard's /agent new, JSON mode's named agents): one bus per agent, and no
// agent name on the events. Each agent's bus carries its own conversation and its own job-host
// client's view of the folder's jobs (every agent's bus carries every job's events); a front end
// that shows several agents knows which bus an event came from and tags it itself (the dashboard
// shows one agent's bus in its panes and watches the others for its overview; JSON mode adds
// `agent` to each line of a named agent).
import type { CommandEnd } from "../tools/command-end.js";
import type { FileTouch } from "../tools/file-touch.js";
import type { JobServiceEvent } from "../tools/jobs/index.js";
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
  | { type: "thinking_change"; level: ThinkingLevel }
  /**
   * The wake cap's count changed (tools/jobs/watch/wake-policy.ts): runs watch triggers started
   * since the person's last message, and whether the person was told that wakes now wait. The
   * session keeps it, so a resumed session goes on counting.
   */
  | {
      type: "wake_count";
      unattended: number;
      told: boolean;
      /** Set when wakes start to wait: what to tell the person (a notice; nothing failed). */
      message?: string;
    };

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

/**
 * Every event the bus carries. The guarantees below are what the code does (agent-loop.ts, agent.ts,
 * context/context-keeper.ts, tools/jobs/registry/); consumers may rely on them.
 *
 * Delivery. The bus is synchronous: an event reaches every listener, in the order they subscribed,
 * before emit returns. An event emitted by a listener while another is delivered reaches every
 * listener first, so listeners subscribed after that one would see it before its cause. Where an
 * event causes others, they are emitted once it has reached every listener, so causes come first:
 * a session's save `error` (below), and a watch trigger's action, carried out by a listener of the
 * job service itself once the `job_triggered` has reached every listener of the bus
 * (job-trigger-actions.ts): a wake's `agent_start` and `turn_start`, a steer's or follow-up's
 * `queue_update` and the wake policy's `wake_count` come after the `job_triggered` that caused
 * them.
 *
 * A run (a prompt, or a trigger's wake):
 * - `agent_start` is its first event and `agent_end` its last, also when it fails, is aborted or a
 *   hook throws. Runs never overlap, nor does a run overlap /compact or a rewind.
 * - The agent is idle from the moment `agent_end` is emitted (state.isStreaming is false, nothing is
 *   streaming or pending): a listener of `agent_end` may prompt(), compact() or rewind; what it
 *   starts begins once `agent_end` has reached every listener, so its `agent_start` (or
 *   `compaction_start`) comes after. A trigger's wake that arrives meanwhile, or waited for the run
 *   to end, goes after whatever a listener or an `await untilIdle()` started then (its message is
 *   queued and goes with that run); promptWhenIdle() prompts with nothing in between.
 * - A run that is aborted or fails leaves what is still queued in the queue, in order. The next run
 *   delivers a watch trigger's queued messages before its prompt (or wake), the person's queued
 *   steers right after it, in its first request, and follow-ups when it would otherwise stop.
 * - Every `turn_start` is closed by a `turn_end` before the next `turn_start` or `agent_end`, unless a
 *   hook throws (a library's notice source that throws ends the run with `agent_end` alone).
 * - Messages a turn delivers leave the queue (`queue_update`) before its `turn_start`. Within a turn:
 *   its user messages (queued steers, the prompt or follow-ups, in that order, and the notices put
 *   among them in the order things happened: a notice goes before the first message queued after
 *   what it tells; model-notices.ts), each a `message_start` directly followed by its `message_end`;
 *   then, when the context must shrink,
 *   `compaction_start` … `compaction_end`; then the reply's `message_start`, `message_update`*,
 *   `message_end`; then its tool calls, in the reply's order; then `turn_end`.
 * - A failed attempt that will be tried again sends `retry` before the wait. If it had begun
 *   streaming, what it streamed is discarded: the next attempt sends a new `message_start`, and
 *   only the reply kept gets a `message_end`. Every message that joins the
 *   conversation gets exactly one `message_end`, in conversation order (the session writer records
 *   these); an overflow's compaction comes between a rejected attempt and the next `message_start`.
 * - A reply that fails: its `message_start` (unless it had streamed), `error` (source "provider"),
 *   its `message_end` (stopReason "error"), `turn_end` without results, `agent_end`. An aborted
 *   reply goes the same way without the `error` (stopReason "aborted").
 * - Tool calls run one at a time: `tool_execution_start`, `tool_execution_update`*,
 *   `tool_execution_end`, then at once the result's `message_start` and `message_end`. Every start
 *   gets one end, also for a call that was invalid, threw, or was not run (aborted). A call's
 *   `file_change`, and the `job_started` and `job_yielded` of a job it started, come between its
 *   start and its end. The built-in tools send no update once their call returned; the loop does
 *   not drop a late one from a library's tool.
 *
 * Otherwise:
 * - `queue_update` follows every change of the queue and carries all of it.
 * - `compaction_start` is always followed by its `compaction_end` (with `error` when it failed), and
 *   the agent sends nothing between them (the summary requests are not on the bus). /compact runs
 *   outside any run: no `agent_start` around it, and no run starts before it ends.
 * - `branch_change` and `session_forked` come only while the agent is idle, never inside a run.
 * - `model_change` and `thinking_change` come when set, idle or not; the next request uses them.
 * - `wake_count` comes when a trigger's wake starts a run (before its `agent_start`), when wakes
 *   start to wait (with the `message` for the person, before the `queue_update` of the wake held),
 *   and when the person's message sets the count back to 0 (before the run or queue change that
 *   message makes).
 * - `error` from the session (source "session": a save failed) comes after the event being
 *   recorded has reached every listener, once until saving recovers.
 *
 * Jobs (tools/jobs/events.ts), in the order the registry publishes them, across the host's socket too:
 * - `job_started` comes before every other event of its job (a client that attaches to a running
 *   host is sent one for each job it did not know). A restart sends `job_started` again, same id.
 * - `job_output` keeps the order the job wrote. A client of the job host may get it sampled (the
 *   dashboard: merged, the newest kept) or not at all (print mode); the job's log has all of it.
 *   Its `offset` counts the job's output characters before the chunk: a remote client whose link
 *   dropped is sent what followed the last one it saw, in order, before anything new (a gap older
 *   than the host keeps is told to the agent, never papered over).
 * - `job_exited` follows the output read by the time the job ended: a pty job's is read to its end
 *   first, and held samples are sent first. A pipe job whose children keep its pipes open past a
 *   short drain (250 ms) may still send `job_output` after its `job_exited`.
 * - `job_triggered` comes once a burst of matching lines has settled, after their `job_output`
 *   (when output is sent whole), so it may follow `job_exited`; a batch pending when the job
 *   restarts fires before the new run's `job_started`. Nothing of a job follows its `job_removed`
 *   but what its leftover processes still print, and the `job_triggers_changed` that says its
 *   triggers went (an empty list, no `by`) comes just before it.
 * - `job_fenced` comes after the `job_output` that showed the failure (when output is sent whole),
 *   once per path or address in a run of the job; a check that must ask outside (a host name
 *   resolved) may put it after `job_exited`, never after `job_removed` or a restart's `job_started`.
 * - `job_host_state` comes from a client of the host, never across its socket: `answering: false`
 *   after the calls that waited on a silent host have failed, `answering: true` when a later
 *   connection is answered. It says nothing about the jobs, which may run on in the stopped host.
 *   A remote session's link that dropped gives `answering: false` ("reconnecting…") and, once a
 *   reconnection is answered, `answering: true`; its jobs ran on there meanwhile.
 */
export type PitwallEvent = AgentLifecycleEvent | CompactionEvent | AgentStateEvent | SessionEvent | ProblemEvent | JobServiceEvent;
export type PitwallEventType = PitwallEvent["type"];

/** Every event the bus carries, with what it means; the check below keeps it equal to the union. */
export const PITWALL_EVENT_TYPES = [
  "agent_start", // a run began: a prompt, or a watch trigger's wake
  "turn_start", // one request to the model and the tool calls of its reply begin
  "message_start", // a message joins the conversation (a reply: its streaming begins)
  "message_update", // a piece of the reply being streamed: text, thinking or a tool call's arguments
  "message_end", // a message is complete as kept, with its usage (a reply: stopped, cut, failed or aborted)
  "tool_execution_start", // a tool call starts, with its arguments
  "tool_execution_update", // live output of the running tool call
  "tool_execution_end", // a tool call ended: what the model reads, what the UI shows, error or not
  "turn_end", // the reply and its tool results are in
  "agent_end", // the run ended: the messages it added that are still in the conversation
  "compaction_start", // older turns are being summarised, and why
  "compaction_end", // the summary stands for the older turns now (or why it failed)
  "queue_update", // the steering and follow-up queues changed: all of both
  "model_change", // the model for the next request changed
  "thinking_change", // the thinking level for the next request changed
  "wake_count", // the count of runs watch triggers started since the person's last message changed
  "file_change", // the agent's write or edit changed a file: its state before and after
  "branch_change", // the conversation moved to another point of the session's tree
  "session_forked", // the session is written to a new file from now on
  "error", // a failure a person can act on, and where it came from
  "retry", // a model request failed and is tried again after a wait
  "job_started", // a background job started (or restarted under its id)
  "job_output", // a job printed: raw output, escape codes and all
  "job_yielded", // a bash_stream or bash call returned while its job runs on
  "job_exited", // a job ended: its exit code or signal, whether this agent is told, whether it ended before this client attached
  "job_removed", // a finished job left the list
  "job_triggers_changed", // a job's watch triggers were added or removed: all of them now
  "job_triggered", // a watch trigger matched a job's output: the lines, with context
  "job_fenced", // the sandbox stopped a job doing something: what, and why (once per path and run)
  "job_host_state", // the job host stopped answering, or answers again
] as const;

/** Compiles only while the list above names exactly the union's events: the error names the odd one out. */
type NoneLeft<Odd extends never> = Odd;
export type EveryEventListed = [
  NoneLeft<Exclude<PitwallEventType, (typeof PITWALL_EVENT_TYPES)[number]>>,
  NoneLeft<Exclude<(typeof PITWALL_EVENT_TYPES)[number], PitwallEventType>>,
];
