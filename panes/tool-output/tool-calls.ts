// What the dashboard knows about each tool call, built from bus events (or from a resumed
// session's messages): name, arguments, status, timing, the live output and the final result.
// The chat pane draws one line per call from it; the tool-output pane draws a call in full. The
// person's own views (a `!command`, `/tail`, a file opened from the files pane) are records too,
// marked `personal`: the tool-output pane shows them, the chat does not list them. A bash_stream
// call shows its job's raw output while it waits (colours kept, as its job terminal shows them),
// not the plain lines it sends as progress.
import type { PitwallEvent } from "../../agent/events.js";
import type { Message } from "../../agent/messages.js";
import type { StyledLine } from "../text/styled-text.js";
import type { CommandEnd } from "../../tools/command-end.js";
import type { FileTouch } from "../../tools/file-touch.js";
import { toolCallsOf } from "../../agent/messages.js";
import { TerminalTextLog } from "../text/terminal-text.js";
import type { JobInfo } from "../../tools/jobs/index.js";

export type ToolCallStatus = "pending" | "running" | "done" | "error";

export interface ToolCallResult {
  content: string;
  details: unknown;
  /** The file the call read, wrote or edited. */
  file?: FileTouch;
  /** How the command the call ran ended. */
  command?: CommandEnd;
  /** The job the call's command runs on as. */
  runningJob?: string;
  isError: boolean;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  args: Record<string, unknown>;
  status: ToolCallStatus;
  startedAt?: number;
  durationMs?: number;
  /** Output streamed while it ran (tool_execution_update), raw as the tool sent it. */
  output: TerminalTextLog;
  result?: ToolCallResult;
  /** Bumped on every change. */
  version: number;
  /** The person's own view, not a call of the agent's. */
  personal?: boolean;
  /** Shown as the pane's title instead of the call's name and key argument. */
  title?: string;
  /** Finished content to show as is (instead of the output or the result). */
  lines?: StyledLine[];
  /** A personal view that opens at its end (a log's tail, a command's output) rather than its start. */
  followEnd?: boolean;
  /** The job a bash_stream call started. */
  jobId?: string;
  /** How the job the call's command runs on as (result.runningJob) ended, once it has. */
  jobEnd?: JobInfo;
}

/**
 * What a finished call whose command runs on as a job says about it: a started job is up ("▶ job 1
 * up"), a bash call that outlived its wait was moved ("↷ moved to job 2"); once the job ended, how
 * ("job 1 exit 1", "job 1 killed"). Undefined for any other call. `tone` picks the colour.
 */
export function jobState(record: ToolCallRecord): { text: string; tone: "up" | "ok" | "failed" | "killed" } | undefined {
  const id = record.result?.runningJob;
  if (id === undefined) return undefined;
  const end = record.jobEnd;
  if (!end) return { text: record.name === "bash" ? `↷ moved to job ${id}` : `▶ job ${id} up`, tone: "up" };
  if (end.status === "killed") return { text: `job ${id} killed`, tone: "killed" };
  const code = end.exitCode ?? 0;
  return { text: `job ${id} exit ${code}`, tone: code === 0 ? "ok" : "failed" };
}

/** The person's own views (`!command`, `/tail`, a file opened) kept for going back to. */
const PERSONAL_KEPT = 50;

export class ToolCallStore {
  private readonly byId = new Map<string, ToolCallRecord>();
  /** Ids in the order the calls appeared. */
  readonly order: string[] = [];
  /** The call that ran most recently (running, or the last one finished). */
  latestId: string | undefined;
  /** Running bash_stream calls by the id of the job they started. */
  private readonly jobCalls = new Map<string, ToolCallRecord>();
  /** Finished calls whose command runs on as a job, by the job's id: told when it ends. */
  private readonly runningOn = new Map<string, ToolCallRecord>();

  get(id: string): ToolCallRecord | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.order.length;
  }

  clear(): void {
    this.byId.clear();
    this.jobCalls.clear();
    this.runningOn.clear();
    this.order.length = 0;
    this.personal.length = 0;
    this.latestId = undefined;
  }

  /** Registers a call seen in an assistant message (streaming or finished). */
  ensure(id: string, name: string, args?: Record<string, unknown>): ToolCallRecord {
    let record = this.byId.get(id);
    if (!record) {
      record = { id, name, args: args ?? {}, status: "pending", output: new TerminalTextLog(), version: 0 };
      this.byId.set(id, record);
      this.order.push(id);
    } else if (args) {
      record.args = args;
      record.version++;
    }
    return record;
  }

  private personalCount = 0;
  /** The person's views, oldest first: only the last PERSONAL_KEPT stay (they are not in the session). */
  private readonly personal: string[] = [];

  /** A record for something the person asked to see; never the latest call, never in the chat. */
  addPersonal(title: string, options: { lines?: StyledLine[]; followEnd?: boolean } = {}): ToolCallRecord {
    const { lines, followEnd } = options;
    const id = `person-${++this.personalCount}`;
    this.personal.push(id);
    if (this.personal.length > PERSONAL_KEPT) this.byId.delete(this.personal.shift()!);
    const record: ToolCallRecord = {
      id,
      name: "person",
      args: {},
      status: lines ? "done" : "running",
      startedAt: Date.now(),
      output: new TerminalTextLog(),
      version: 0,
      personal: true,
      title,
      followEnd: followEnd ?? false,
      ...(lines ? { lines } : {}),
    };
    this.byId.set(id, record);
    return record;
  }

  /** Applies an event; returns the record it changed, if any. */
  handle(event: PitwallEvent): ToolCallRecord | undefined {
    switch (event.type) {
      case "tool_execution_start": {
        const record = this.ensure(event.toolCallId, event.toolName, event.args);
        record.status = "running";
        record.startedAt = Date.now();
        record.version++;
        this.latestId = record.id;
        return record;
      }
      case "tool_execution_update": {
        const record = this.ensure(event.toolCallId, event.toolName);
        // The job's own output (job_output) is what the call shows: its plain-text progress would repeat it.
        if (record.jobId !== undefined) return undefined;
        record.output.write(event.chunk);
        record.version++;
        return record;
      }
      case "job_started": {
        // A job restarted under its id is up again for the call that started it.
        const started = this.runningOn.get(event.job.id);
        if (started?.jobEnd) {
          started.jobEnd = undefined;
          started.version++;
          return started;
        }
        const record = event.job.toolCallId === undefined ? undefined : this.byId.get(event.job.toolCallId);
        if (!record || record.status !== "running") return undefined;
        record.jobId = event.job.id;
        this.jobCalls.set(event.job.id, record);
        return record;
      }
      case "job_output": {
        const record = this.jobCalls.get(event.jobId);
        if (!record) return undefined;
        record.output.write(event.chunk);
        record.version++;
        return record;
      }
      case "tool_execution_end": {
        const record = this.ensure(event.toolCallId, event.toolName);
        if (record.jobId !== undefined) this.jobCalls.delete(record.jobId);
        record.status = event.isError ? "error" : "done";
        record.durationMs = event.durationMs;
        record.result = { content: event.content, details: event.details, file: event.file, command: event.command, runningJob: event.runningJob, isError: event.isError };
        if (event.runningJob !== undefined) this.runningOn.set(event.runningJob, record);
        record.version++;
        this.latestId = record.id;
        return record;
      }
      case "job_exited": {
        const record = this.runningOn.get(event.job.id);
        if (!record) return undefined;
        record.jobEnd = event.job;
        record.version++;
        return record;
      }
      case "job_removed":
        this.runningOn.delete(event.jobId);
        return undefined;
      default:
        return undefined;
    }
  }

  /**
   * Lets go of calls the chat no longer shows (it reads them back from the session file when the
   * person scrolls to them). A running call and the latest stay.
   */
  forget(ids: readonly string[]): void {
    const gone = new Set(ids.filter((id) => id !== this.latestId && this.byId.get(id)?.status !== "running"));
    if (gone.size === 0) return;
    for (const id of gone) this.byId.delete(id);
    for (const [job, record] of this.runningOn) if (gone.has(record.id)) this.runningOn.delete(job);
    const kept = this.order.filter((id) => !gone.has(id));
    this.order.length = 0;
    this.order.push(...kept);
  }

  /** Rebuilds records from a conversation (a resumed session; `latest: false`, older calls read back). */
  loadMessages(messages: readonly Message[], options: { latest?: boolean } = {}): void {
    for (const m of messages) {
      if (m.role === "assistant") {
        for (const call of toolCallsOf(m)) this.ensure(call.id, call.name, call.arguments);
      } else if (m.role === "toolResult") {
        const record = this.ensure(m.toolCallId, m.toolName);
        record.status = m.isError ? "error" : "done";
        record.result = { content: m.content, details: m.details, file: m.file, command: m.command, isError: m.isError };
        record.version++;
        if (options.latest !== false) this.latestId = record.id;
      }
    }
  }
}
