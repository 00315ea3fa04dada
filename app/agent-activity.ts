// What the overview shows of one agent, kept from its bus whether or not it is in the chat: its
// state (working · waiting for you · idle · error · blocked on a job, with the reason), its last
// line, its cost and tokens, how full its context is, and the files it changed. "Waiting for you"
// is a run that ended while the person was looking at another agent; it lasts until the person
// switches to it or sends it something.
import type { PitwallEvent } from "../agent/events.js";
import type { AssistantMessage, Message } from "../agent/messages.js";

export type AgentState = "working" | "waiting" | "idle" | "error" | "blocked";

/** The job tools whose call waits on a job: while one runs, the agent is blocked on that job. */
const WAITING_TOOLS = new Set(["bash_stream", "poll_process", "watch_process", "write_stdin"]);
const MAX_LINE = 160;

export interface ActivitySource {
  subscribe(listener: (event: PitwallEvent) => void): () => void;
  /** How full the context window is now, in percent. */
  contextPercent(): number;
}

export class AgentActivity {
  state: AgentState = "idle";
  /** Why the state is what it is (the error, the job waited on); empty when it says itself. */
  reason = "";
  lastLine = "";
  cost = 0;
  tokens = 0;
  contextPercent = 0;
  readonly changedFiles = new Set<string>();
  private readonly unsubscribe: () => void;
  private readonly changeListeners = new Set<(activity: AgentActivity) => void>();
  /** The last run ended with an error message (provider failure), kept for its agent_end. */
  private failure: string | undefined;

  constructor(
    private readonly source: ActivitySource,
    /** Whether the person is looking at this agent (it is in the chat). */
    private readonly inFront: () => boolean,
    start: { cost?: number; tokens?: number; messages?: readonly Message[] } = {},
  ) {
    this.cost = start.cost ?? 0;
    this.tokens = start.tokens ?? 0;
    const last = [...(start.messages ?? [])].reverse().find((m): m is AssistantMessage => m.role === "assistant");
    if (last) this.lastLine = lastTextLine(last);
    this.contextPercent = source.contextPercent();
    this.unsubscribe = source.subscribe((event) => this.onEvent(event));
  }

  /** Called after every change the overview and the status bar show. */
  onChange(listener: (activity: AgentActivity) => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** The person looked at it (switched to it) or sent it something: it waits for nobody. */
  seen(): void {
    if (this.state !== "waiting") return;
    this.state = "idle";
    this.reason = "";
    this.changed();
  }

  /** The state as the overview words it, reason included. */
  describe(): string {
    const words: Record<AgentState, string> = { working: "working", waiting: "waiting for you", idle: "idle", error: "error", blocked: "blocked on a job" };
    return this.reason ? `${words[this.state]}: ${this.reason}` : words[this.state];
  }

  dispose(): void {
    this.unsubscribe();
    this.changeListeners.clear();
  }

  private onEvent(event: PitwallEvent): void {
    switch (event.type) {
      case "agent_start":
        this.state = "working";
        this.reason = "";
        this.failure = undefined;
        break;
      case "tool_execution_start":
        this.lastLine = `⏵ ${event.toolName} ${argumentLine(event.args)}`.trim().slice(0, MAX_LINE);
        if (WAITING_TOOLS.has(event.toolName)) {
          this.state = "blocked";
          const id = typeof event.args.jobId === "string" ? ` job ${event.args.jobId}` : "";
          this.reason = event.toolName === "bash_stream" ? `waits on its new job (${argumentLine(event.args).slice(0, 60)})` : `${event.toolName}${id}`;
        }
        break;
      case "tool_execution_end":
        if (this.state === "blocked") {
          this.state = "working";
          this.reason = "";
        }
        break;
      case "message_end":
        if (event.message.role === "assistant") {
          const line = lastTextLine(event.message);
          if (line) this.lastLine = line;
          this.tokens += event.message.usage.totalTokens;
          if (event.message.usage.cost) this.cost += event.message.usage.cost.total;
          this.contextPercent = this.source.contextPercent();
        }
        break;
      case "error":
        this.failure = event.message;
        break;
      case "file_change":
        this.changedFiles.add(event.path);
        break;
      case "compaction_end":
        this.contextPercent = this.source.contextPercent();
        break;
      case "agent_end": {
        const last = [...event.messages].reverse().find((m): m is AssistantMessage => m.role === "assistant");
        if (last?.stopReason === "error" || this.failure) {
          this.state = "error";
          this.reason = (last?.errorMessage ?? this.failure ?? "the model request failed").split("\n")[0]!.slice(0, MAX_LINE);
        } else if (last?.stopReason === "aborted") {
          this.state = "idle";
          this.reason = "stopped";
        } else {
          this.state = this.inFront() ? "idle" : "waiting";
          this.reason = "";
        }
        break;
      }
      default:
        return;
    }
    this.changed();
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener(this);
  }
}

function lastTextLine(message: AssistantMessage): string {
  const text = message.content
    .filter((part): part is Extract<typeof part, { type: "text" }> => part.type === "text")
    .map((part) => part.text)
    .join("\n");
  const lines = text.split("\n").map((line) => line.trim()).filter((line) => line !== "");
  return (lines.at(-1) ?? "").slice(0, MAX_LINE);
}

function argumentLine(args: Record<string, unknown>): string {
  const first = args.command ?? args.file_path ?? args.jobId ?? args.pattern;
  return typeof first === "string" ? first.replace(/\s+/g, " ") : "";
}
