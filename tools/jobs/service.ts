// The jobs as everything above tools/ sees them: the model's job tools (and bash, whose calls may
// become jobs), the agent's notices, the jobs pane and the person's job keys. Two implementations:
// LocalJobService runs the jobs in this process (library users, many tests), HostJobService
// (client/host-job-service.ts) is a client of the job host, the process of this working directory
// that owns ptys, emulators and logs and outlives the dashboard. Every method that may have a socket
// behind it is async; what the panes read synchronously (the list, a job's status) is kept current
// from the job events.
import type { JobNotice } from "./registry/job-notices.js";
import type { JobServiceEvent, JobInfo, TerminalSize, TriggerInfo, WatchAction } from "./events.js";
import { isJobToolName, jobToolDefinitions, type JobToolName } from "./model-tools/job-tools.js";
import type { JobScreens } from "./terminal/screen-feed.js";
import { bashToolDefinition } from "./model-tools/bash-tool.js";
import { fileToolDefinitions, isFileToolName, type FileToolName } from "./model-tools/file-tools.js";
import type { ChildMarker } from "../process/process-guard.js";
import type { AgentTool, ToolCallContext, ToolDefinition, ToolResult, ToolUpdate } from "../tool.js";
import type { JobSettings } from "./settings.js";
import type { SandboxPolicy, SandboxProfile } from "../sandbox/index.js";

/** The sandbox a JobService runs commands in, as the person set it. */
export interface ServiceSandbox {
  /** The model's commands run under its profile (or a stricter one the model asks for). */
  policy: SandboxPolicy;
  /** The profile of the jobs the person starts (`off` unless they set another). */
  personProfile: SandboxProfile;
}

/**
 * The tools that run where the jobs are: bash (a long call becomes a job) and the seven job tools;
 * in a remote session the file tools too (they act on the remote's files).
 */
export type ServiceToolName = "bash" | JobToolName | FileToolName;

export function isServiceToolName(name: string): name is ServiceToolName {
  return name === "bash" || isJobToolName(name) || isFileToolName(name);
}

/** One call of a service tool; `params` were already checked against the tool's schema. */
export interface ServiceToolCall {
  tool: ServiceToolName;
  toolCallId: string;
  params: unknown;
  signal: AbortSignal;
  onUpdate: (update: ToolUpdate) => void;
  context: ToolCallContext;
}

/** What a JobService is made from: the tools' environment and limits, the marker, the keys to redact. */
export interface JobServiceInputs {
  cwd: string;
  env: NodeJS.ProcessEnv;
  settings: Partial<JobSettings>;
  marker: ChildMarker | undefined;
  secrets: readonly string[];
  /** Without one, commands run as the person (a library's choice). */
  sandbox?: ServiceSandbox;
}

/** What the person may read of a job: its whole kept log, its last lines, or the rows of its view. */
export type JobTextKind = "log" | "tail" | "screen";

export interface JobService extends JobScreens {
  /**
   * "local": the jobs run in this process; "host": in the job host of the working directory;
   * "remote": in the job host of a folder on another machine, over ssh (the file tools run there too).
   */
  readonly where: "local" | "host" | "remote";
  /** The limits the tools describe to the model. */
  readonly settings: JobSettings;

  /** Job events, in order (a dashboard gets job_output sampled: see OUTPUT_SAMPLE_MS in host/host-server.ts). */
  subscribe(listener: (event: JobServiceEvent) => void): () => void;
  /** Every job known now, oldest first. */
  list(): JobInfo[];
  get(id: string): JobInfo | undefined;
  /** The running jobs this client would stop when it shuts down (in one process: all of them). */
  runningCount(): number;
  /** The owner this client's jobs carry (`JobInfo.owner`: the host's client id), once known. */
  ownerId?(): string | undefined;

  /** Runs a model tool call where the jobs are. */
  runTool(call: ServiceToolCall): Promise<ToolResult>;

  // The person's actions (the agent hears of them with its next request).
  start(command: string, size?: TerminalSize): Promise<JobInfo>;
  kill(id: string, signal?: NodeJS.Signals): Promise<JobInfo>;
  /** Runs the job again; under `profile` (the person's choice) when given, else under its own. */
  restart(id: string, size?: TerminalSize, profile?: SandboxProfile): Promise<JobInfo>;
  remove(id: string): Promise<boolean>;
  write(id: string, data: string, options?: { eof?: boolean }): Promise<void>;
  /** A job's text as lines: the kept log, its last `count` lines, or the `count` rows of its view. */
  text(id: string, kind: JobTextKind, count?: number): Promise<string[]>;
  /** The person sets a watch trigger on a job; throws a WatchError saying why it cannot be set. */
  addTrigger(id: string, trigger: { pattern: string; action: WatchAction }): Promise<TriggerInfo>;
  /** The person removes trigger `triggerId` of a job, or all of them; returns those removed (WatchError for an unknown one). */
  removeTriggers(id: string, triggerId?: number): Promise<TriggerInfo[]>;
  /** A job's watch triggers as known now (kept current from the job events). */
  triggers(id: string): TriggerInfo[];
  /** Something else the person did (a command of their own): told to the agent in order with their job actions. */
  notePersonAction(text: string): void;
  /** A process group the person's `!command` left running: ended with the jobs. */
  adoptGroup(pgid: number): void;

  // The agent.
  /**
   * A turn is starting and may call bash: get ready to run it without delay. The job host starts in
   * the background now, while the model thinks, rather than with the first bash call. Resolves once
   * ready (or once it could not get ready: the call that needs it says why); never rejects.
   */
  prepare(): Promise<void>;
  /** What the agent must be told before its next request, oldest first, each with when it happened. */
  drainNotices(): Promise<JobNotice[]>;
  /** One line per job, for a compaction's summary. */
  summaryLines(): Promise<string[]>;

  /**
   * Lets go of this client's jobs and leaves them running for the next pitwall in this folder (a
   * dashboard quitting with "keep them running"). Only jobs in the job host can outlive this process.
   */
  detach?(): Promise<void>;
  /** Stops this client's jobs (TERM, grace, KILL) and lets go of them. */
  shutdown(): Promise<void>;
  /** KILL to every job this process can reach, synchronously (process 'exit'). */
  killAllSync(): void;
}

/** A tool the model is shown as usual, whose calls the service runs. */
function serviceTool(service: JobService, name: ServiceToolName, definition: ToolDefinition): AgentTool {
  return {
    ...definition,
    execute: (toolCallId, params, signal, onUpdate, context) => service.runTool({ tool: name, toolCallId, params, signal, onUpdate, context }),
  };
}

/** bash and the seven job tools (and a remote service's file tools), as the model is shown them, run by `service`. */
export function serviceTools(service: JobService, settings: JobSettings = service.settings): AgentTool[] {
  return [
    serviceTool(service, "bash", bashToolDefinition(settings.maxOutputChars, settings.defaultYieldMs)),
    ...jobToolDefinitions(settings).map((definition) => serviceTool(service, definition.name as JobToolName, definition)),
    ...(service.where === "remote" ? fileToolDefinitions(settings.maxOutputChars).map((definition) => serviceTool(service, definition.name as FileToolName, definition)) : []),
  ];
}
