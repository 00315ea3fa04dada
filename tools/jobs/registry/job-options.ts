// What callers hand the job registry: how to start a job or take over a running command, who acts
// on a job (and so whose agent hears of it), and the registry's own settings.
import type { ChildProcess } from "node:child_process";
import type { JobStarter, TerminalSize } from "../events.js";
import type { StdinMode } from "../process/job.js";
import type { JobSettings } from "../settings.js";
import type { WatchTiming } from "../watch/trigger-set.js";
import type { ChildMarker } from "../../process/process-guard.js";
import type { CommandFence, CommandSandbox } from "../../sandbox/index.js";

export type { TerminalSize } from "../events.js";

export interface StartJobOptions {
  command: string;
  /** Relative paths resolve against the registry's cwd. */
  cwd?: string;
  /** Added to (and overriding) the inherited environment. */
  env?: Record<string, string>;
  stdinMode?: StdinMode;
  startedBy: JobStarter;
  /** Who ran it again under the same id (restart keeps who started it). */
  restartedBy?: JobStarter;
  toolCallId?: string;
  /** The terminal's size at start (the pane it will be shown in); the settings' size otherwise. */
  size?: TerminalSize;
  /** The client the job belongs to (DEFAULT_ACTOR in one process); told what the person did here. */
  owner?: string;
  /** The environment the job inherits instead of the registry's (a job host's client brings its own). */
  baseEnv?: Record<string, string>;
  /** The sandbox to run it in (CommandSandbox.fence); none: as the person, as a library may. */
  fence?: CommandFence;
}

/** Who acts, and whose agent hears of it: the one client of a registry in this process. */
export const DEFAULT_ACTOR = "local";

/** Who did something to a job, and in which client (whose agent is told). */
export interface ActOptions {
  by?: JobStarter;
  actor?: string;
}

export interface AdoptRunningOptions {
  command: string;
  cwd: string;
  /** The environment it runs with (used again by a restart). */
  env: Record<string, string>;
  /** The running process; its stdout and stderr deliver strings. */
  child: ChildProcess;
  startedAt: number;
  priorOutput: string;
  toolCallId?: string;
  /** The sandbox the call runs in: the job keeps it (a restart makes it again). */
  fence?: CommandFence;
  /** Stop it (TERM, grace, KILL) this long from now: the rest of the call's timeout. */
  killAfterMs?: number;
  owner?: string;
}

export interface JobRegistryOptions {
  cwd: string;
  /** What is not given takes its default (job-settings.ts). */
  settings?: Partial<JobSettings>;
  /** The environment jobs inherit. */
  env: NodeJS.ProcessEnv;
  /** Marks every job's environment and tracks its process group, so a crash of pitwall still ends it. */
  marker?: ChildMarker;
  /** How often groups a bash call left running are checked for being gone (5 s). */
  adoptedCheckMs?: number;
  /** How watch triggers gather a burst and how short their window may be (tools/jobs/watch/trigger-set.ts). */
  watchTiming?: Partial<WatchTiming>;
  /** Makes the fences of this process's commands (a restart under another profile makes a new one). */
  sandbox?: CommandSandbox;
}
