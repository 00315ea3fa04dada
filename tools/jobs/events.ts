// Events the job registry publishes, all named `job_*`, and the plain data they carry: a job belongs
// to the registry, not to the tool call that may have started it. The agent layer folds them into
// its one event union (agent/events.ts, which also states the order guarantees); panes, the session
// writer and JSON mode see them on the same bus as the agent's own events, and they cross the job
// host's socket unchanged. Plain JSON data only, and nothing imported but the sandbox's plain types:
// every room of tools/jobs/ (and every client of the host) may depend on this file, and it on none of them.
import type { FenceHit, SandboxProfile } from "../sandbox/index.js";

export type JobStatus = "running" | "exited" | "killed";
/** Who acted: the agent (through a tool call) or the person (from the dashboard or `pitwall jobs`). */
export type JobStarter = "agent" | "person";
export type JobStream = "stdout" | "stderr" | "pty";

/** A plain snapshot of one job, safe to serialise. */
export interface JobInfo {
  /** Short and typeable: "1", "2", … */
  id: string;
  command: string;
  cwd: string;
  pid: number;
  /** Epoch milliseconds. */
  startedAt: number;
  endedAt?: number;
  status: JobStatus;
  /** Set when status is "exited". */
  exitCode?: number;
  /** Set when status is "killed": the signal's name, e.g. "SIGTERM". */
  signal?: string;
  /** Who started the job first; a restart keeps it. */
  startedBy: JobStarter;
  /** Who ran it again under the same id, when it was restarted. */
  restartedBy?: JobStarter;
  /** Who asked for it to stop, if anyone did: an exit nobody asked for is news. */
  stopRequestedBy?: JobStarter;
  stdinMode: "pty" | "pipe";
  /** How many times it was restarted under the same id. */
  restarts: number;
  /** The bash_stream call that started it, so a pane can show the job's terminal for that call. */
  toolCallId?: string;
  /** The sandbox profile it runs under (absent: started without a sandbox policy, as a library may). */
  sandbox?: SandboxProfile;
  /** True when its profile asked for a fence that could not be made here: it runs as the person. */
  unfenced?: boolean;
  /** How many things the fence has stopped it doing (each path or address once). */
  fenceHits?: number;
  /**
   * The client of the job host it belongs to, as the host names clients ("c3"; "local" for a
   * registry in one process). Absent while nobody owns it: left running for the next pitwall.
   */
  owner?: string;
}

/** The terminal size of a job (its pty, its emulator). */
export interface TerminalSize {
  cols: number;
  rows: number;
}

/**
 * notify: a line in the chat and the status bar; the model is told with its next request.
 * steer: queued as a steering message (delivered after the tool batch in flight).
 * follow-up: delivered when the agent would otherwise stop.
 * wake: starts a turn when the agent is idle; a steering message when it is busy.
 */
export const WATCH_ACTIONS = ["notify", "steer", "follow-up", "wake"] as const;
export type WatchAction = (typeof WATCH_ACTIONS)[number];

/** A watch trigger as listed and as carried by its events. */
export interface TriggerInfo {
  /** 1, 2, … within its job; never reused while the job is listed. */
  id: number;
  pattern: string;
  action: WatchAction;
  ignoreCase: boolean;
  debounceMs: number;
  setBy: JobStarter;
  /** The host client whose agent set it (its firings go to that agent); absent in one process. */
  owner?: string;
  /** Firings so far. */
  fired: number;
}

/** A line of a job's plain-text log. */
export interface LogLine {
  /** The line's number in the job's log (1-based). */
  n: number;
  text: string;
}

/** A line a firing carries: a matching line, or one of context around it. */
export interface FiredLine extends LogLine {
  match: boolean;
}

/** Matching lines a firing does not show (past the first few): how many and where. */
export interface OmittedMatches {
  count: number;
  fromLine: number;
  toLine: number;
}

/** One firing of a watch trigger. */
export interface TriggerFiring {
  /** The trigger as it is after this firing (its `fired` count included). */
  trigger: TriggerInfo;
  /** Matching lines and their context, in log order. */
  lines: FiredLine[];
  /** Matching lines gathered for this firing, shown or not. */
  matches: number;
  /** Matching lines not shown (past the first few): how many and where. */
  omitted?: OmittedMatches;
  firedAt: number;
}

/** The job events of watch triggers (tools/jobs/watch/). */
export type WatchEvent =
  /** Triggers of a job were added or removed: `triggers` is the whole list now. */
  | {
      type: "job_triggers_changed";
      jobId: string;
      triggers: TriggerInfo[];
      added?: TriggerInfo;
      removed?: TriggerInfo[];
      /** Who added or removed them; absent when they went with their job (removed from the list). */
      by?: JobStarter;
    }
  /** A trigger fired: what it matched, with context; the agent side carries out its action. */
  | ({ type: "job_triggered"; jobId: string; command: string } & TriggerFiring);

export type JobTriggeredEvent = Extract<WatchEvent, { type: "job_triggered" }>;

export type JobEvent =
  | { type: "job_started"; job: JobInfo }
  /** Raw output as the job wrote it (escape codes included), in chunks of at most 8 KiB. */
  /**
   * `offset`: how many characters of the job's output (every stream, every run under its id) came
   * before this chunk. A client whose link dropped asks for what follows the last one it saw.
   */
  | { type: "job_output"; jobId: string; stream: JobStream; chunk: string; offset?: number }
  /** A bash_stream call returned (yielded) while its job runs on: `toolCallId` is that call. */
  | {
      type: "job_yielded";
      toolCallId: string;
      jobId: string;
      pid: number;
      startedAt: number;
      /** The last lines of plain-text output. */
      tail: string;
    }
  | {
      type: "job_exited";
      job: JobInfo;
      /**
       * This client's agent is told of the exit with its next request: the job ended without anyone
       * asking and is this client's (another pitwall's job, or one stopped on purpose, is not).
       */
      told?: boolean;
      /** It ended before this client attached to the job host, which tells it now (ended earlier, not now). */
      earlier?: boolean;
    }
  | { type: "job_removed"; jobId: string }
  /** The sandbox stopped the job doing something (once per path or address and run of the job). */
  | { type: "job_fenced"; jobId: string; command: string; hit: FenceHit }
  | WatchEvent;

/**
 * Whether the job host answers (a client of the host publishes it; the host itself never sends it):
 * `answering: false` once it said nothing for the silence limit while a call waited, true again
 * when a later connection is answered.
 */
export interface JobHostStateEvent {
  type: "job_host_state";
  answering: boolean;
  /** What happened, in words a person reads ("the job host (pid 12) stopped answering: …"). */
  detail: string;
}

/** What a JobService publishes: the jobs' events, and the state of the host behind it. */
export type JobServiceEvent = JobEvent | JobHostStateEvent;
