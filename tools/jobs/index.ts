// The front door of the job subsystem: everything outside tools/jobs/ (the agent, the panes, the
// app, the other tools) imports from here and nowhere deeper (eslint.config.js holds the line). What
// each room behind it does, and what crosses the job host's socket, is in README.md beside this file.

// What a job is, as data: the events the registry publishes and the shapes they carry.
export {
  WATCH_ACTIONS,
  type JobEvent,
  type JobHostStateEvent,
  type JobInfo,
  type JobServiceEvent,
  type JobStarter,
  type JobStatus,
  type JobTriggeredEvent,
  type TerminalSize,
  type TriggerFiring,
  type TriggerInfo,
  type WatchAction,
  type WatchEvent,
} from "./events.js";

// The jobs as the rest of pitwall uses them: one JobService, in this process or in the job host.
export { serviceTools, type JobService, type JobServiceInputs, type JobTextKind, type ServiceSandbox, type ServiceToolName } from "./service.js";
export { LocalJobService, type LocalJobServiceOptions } from "./local/local-job-service.js";
export { HostJobService, HostVersionError, type AttachOutcome, type HostClientKind, type HostJobServiceOptions } from "./client/host-job-service.js";
export { installJobCleanup } from "./registry/job-cleanup.js";
// Jobs (and the file tools) on another machine, over the person's ssh.
export { RemoteJobService, type RemoteJobServiceOptions } from "./remote/remote-job-service.js";
export { parseRemote, remoteSpec, RemoteSpecError, type RemoteTarget } from "./remote/remote-target.js";
export { RemoteError } from "./remote/ssh-link.js";
export { openRemoteHost } from "./remote/remote-host.js";
export { REMOTE_IMAGE_PIECE_BYTES } from "./model-tools/file-tools.js";

// The in-process registry and the model's job tools over it (library users, tests).
export { JobRegistry, type JobRegistryOptions, type StartJobOptions } from "./registry/job-registry.js";
export { createJobTools, JOB_TOOL_NAMES, type JobToolName } from "./model-tools/job-tools.js";
export { createBashTool, type BashOwnOptions, type BashToolOptions } from "./model-tools/bash-tool.js";

// Limits, and the refusals the registry raises (the dashboard words them for the person).
export {
  clamp,
  clampSteerGraceMs,
  clampYieldMs,
  DEFAULT_JOB_TTL_MS,
  DEFAULT_STEER_GRACE_MS,
  DEFAULT_YIELD_MS,
  MAX_JOB_TTL_MS,
  MIN_JOB_TTL_MS,
  MIN_YIELD_MS,
  resolveJobSettings,
  type JobSettings,
} from "./settings.js";
export { JobEndedError, JobInputLimitError, JobLimitError, JobTakesNoInputError, NoSuchJobError } from "./errors.js";

// How a job reads to people: status words, durations, the person's actions as the agent is told them.
export { describeStatus, failed, formatDuration, runtime, shortCommand } from "./format.js";
export { personJobAction } from "./registry/job-notices.js";

// A job's terminal as the jobs pane paints it: plain screen data, kept current by a feed.
export { type JobScreen, type JobScreens } from "./terminal/screen-feed.js";
export {
  applyScreenUpdate,
  CellFlag,
  DEFAULT_CELL_COLOR,
  screenText,
  TRUE_COLOR,
  underlineStyleOf,
  type MouseEncoding,
  type MouseTracking,
  type ScreenRun,
  type ScreenState,
  type ScreenUpdate,
} from "./terminal/screen-state.js";
export { encodeRows, screenMeta, terminalText } from "./terminal/screen-encoder.js";

// Watch triggers: their limits and wording, and how firings that wait to be read merge.
export { clampDebounceMs, DEFAULT_WATCH_DEBOUNCE_MS, isWatchAction, MIN_WATCH_DEBOUNCE_MS, patternLabel } from "./watch/trigger-spec.js";
export { firingLines, firingsForPerson, foldFirings } from "./watch/firing-text.js";
export { firingMessage, MergedFirings, type FiringMessage } from "./watch/merged-firings.js";
// When a trigger may wake the agent (the cap on runs started with nobody there).
export { MAX_UNATTENDED_WAKES, WakePolicy, type WakeCount } from "./watch/wake-policy.js";

// The job host seen from outside: finding or starting it, asking it, stopping it.
export { openHost, type OpenedHost } from "./client/host-launcher.js";
export { HOST_GREETING_MS, HOST_SILENCE_MS, HostConnection, HostSilentError, NoHostError } from "./client/host-connection.js";
export { recordedHostPid, stopHostProcess } from "./client/host-stop.js";
export type { Mismatch } from "./wire/handshake.js";
export type { HostStatus } from "./wire/methods.js";
