// Turns the command line, the config file and the environment into a running setup: the model, the
// provider connections, the coding agent and the session file. Every mode starts here.
import { createCodingAgent, UnknownToolError, type CodingAgent } from "../agent/coding-agent.js";
import { earlierJobsNotice, earlierRunningJobs, type EarlierJob } from "../agent/earlier-jobs.js";
import type { ThinkingLevel } from "../agent/messages.js";
import { isProviderName, ModelSpecError, resolveModel, type ModelInfo, type ProviderName } from "../agent/models.js";
import { defaultProvider, isConfigured, missingKeyMessage, resolveConnections, type Connections } from "../agent/providers/connections.js";
import { contextBudget } from "../agent/context/context-budget.js";
import { SessionFileError } from "../agent/sessions/session-file.js";
import { newestSession } from "../agent/sessions/session-list.js";
import { olderHistoryOf, type LoadedSession } from "../agent/sessions/session-load.js";
import { SessionLockedError, SessionStore } from "../agent/sessions/session-store.js";
import { UsageError, type CliOptions } from "./cli-options.js";
import type { PitwallConfig } from "./config.js";
import type { Settings } from "./settings.js";
import { pitwallVersion } from "./version.js";
import { ProcessGuard } from "../tools/process/process-guard.js";
import { processTempFolder, removeStaleTempFolders } from "../tools/process/temp-folder.js";
import { DEFAULT_KILL_GRACE_MS } from "../tools/process-group.js";
import { type HostClientKind, HostJobService, parseRemote, RemoteJobService, remoteSpec, type RemoteTarget } from "../tools/jobs/index.js";
import { describeUnloaded, loadResources, type Resources } from "../agent/resources/project-resources.js";
import { trustFile } from "./project-trust.js";
import { proxyCredentials } from "../agent/providers/proxy.js";
import { SLASH_COMMANDS } from "./slash-commands.js";
import { SharedFiles } from "../agent/shared-files.js";

export interface Setup {
  options: CliOptions;
  settings: Settings;
  config: PitwallConfig;
  home: string;
  sessionRoot: string;
  connections: Connections;
  model: ModelInfo;
  thinkingLevel: ThinkingLevel;
  coding: CodingAgent;
  /** Marks every process this run starts and ends them all, even if pitwall is killed (see README). */
  guard: ProcessGuard;
  /** Ends the agent and every job, sweeps for escaped processes, and lets the watchdog go. */
  dispose(): Promise<void>;
  /** The session being written; undefined with --no-session. */
  readonly session: SessionStore | undefined;
  /** /new: clears the conversation and starts writing a new session file (the agent must be idle). */
  newSession(): SessionStore | undefined;
  /** The session being continued, if any. */
  resumed: LoadedSession | undefined;
  /** Jobs the resumed conversation last knew as running: they ended with the earlier run (the model is told). */
  earlierJobs: EarlierJob[];
  /** Things a person should know about the configuration (bad config fields); shown, never fatal. */
  warnings: string[];
  /** The same about the session (a damaged line skipped, a copy made because it is open elsewhere). */
  sessionWarnings: string[];
  /** Set when no provider is usable: the message says how to configure one. */
  missingKey: string | undefined;
  /** Who of this run's agents changed which file, and who saw it since (shared-files.ts): given to every other agent. */
  sharedFiles: SharedFiles;
  /** The skills and prompt templates loaded (the project's only when it is trusted). */
  resources: Resources;
  /** The line that says which of the project's skills and templates were left unloaded, and why. */
  unloadedNote: string | undefined;
  /** Where the tools and jobs run when not on this machine (`dev@box:~/app`); the session file's cwd is its spec. */
  remote: RemoteTarget | undefined;
  /** Hears what pitwall does on the remote that the person should know (installing itself, reconnecting). */
  onRemoteStatus(listener: (text: string) => void): () => void;
}

/**
 * Where a session's tools ran, as its file records it (its header's cwd, and the folder it is kept
 * in): this machine's folder, or a remote's spec (`dev@box:~/app`), so -c and --resume return there.
 */
export function sessionPlace(options: CliOptions, settings: Settings): string {
  return settings.remote !== undefined ? remoteSpec(parseRemote(settings.remote)) : options.cwd;
}

/** The remote a session file's cwd names, if it names one (a local folder is absolute). */
function recordedRemote(cwd: string): string | undefined {
  if (cwd.startsWith("/")) return undefined;
  try {
    return remoteSpec(parseRemote(cwd));
  } catch {
    return undefined;
  }
}

export interface SetupChoices {
  /** A session picked by the person (--resume), already chosen by the mode. */
  sessionPath?: string;
  /** Start a new session even though --continue or --session named one (the person chose so). */
  fresh?: boolean;
  /**
   * Which client of the folder's job host this run is: a dashboard's jobs may be kept for the next
   * one, print and JSON runs' jobs end with them. Left out: the jobs run in this process.
   */
  jobClient?: HostClientKind;
  /** The person's answer to the dashboard's trust question, for this run (it is remembered elsewhere). */
  trustProject?: boolean;
  /** The dashboard agent this setup is (its job-host client says so to the other agents' tools). */
  agentName?: string;
  /** Another agent of a dashboard, whose jobs pane follows the first agent's client: no job output is sent to this one. */
  noJobOutput?: boolean;
  /** The files the agents of this dashboard (or JSON run) share: the first agent's, for the others. */
  sharedFiles?: SharedFiles;
  /** Another agent of the same dashboard: it shares the run's process guard, which its dispose leaves open. */
  guard?: ProcessGuard;
}

/** Whether this run loads the project's skills and templates, and if not, the line that says why. */
export function projectTrust(options: CliOptions, settings: Settings, answer?: boolean): { trusted: boolean; why: string; warning?: string } {
  if (options.trustProject) return { trusted: true, why: "" };
  if (answer !== undefined) return { trusted: answer, why: "you chose not to trust this project for now" };
  const file = trustFile(settings.home);
  const choice = file.choice(options.cwd);
  if (choice === "trusted") return { trusted: true, why: "" };
  const why =
    choice === "untrusted"
      ? `you chose not to trust this project (remembered in ${file.path}; --trust-project loads them for one run)`
      : "this project is not trusted yet: the dashboard asks once, or pass --trust-project";
  return { trusted: false, why, warning: file.warning };
}

/** The skills and prompt templates of this run, with a line for each bad one and for what trust left out. */
function setupResources(options: CliOptions, settings: Settings, answer: boolean | undefined, warnings: string[]): { resources: Resources; unloadedNote?: string } {
  const trust = projectTrust(options, settings, answer);
  const resources = loadResources({ home: settings.home, cwd: options.cwd, trustProject: trust.trusted, reservedCommands: new Set(SLASH_COMMANDS.map((c) => c.name)) });
  warnings.push(...resources.warnings);
  if (!resources.unloaded) return { resources };
  if (trust.warning) warnings.push(trust.warning);
  const unloadedNote = describeUnloaded(resources.unloaded, trust.why);
  warnings.push(unloadedNote);
  return { resources, unloadedNote };
}

/** The model whose window bounds what a resumed session loads: the one named on the command line, else the session's. */
function modelForBudget(options: CliOptions, configProvider: ProviderName | undefined, provider: string, model: string): ModelInfo {
  try {
    if (options.model) return resolveModel(options.model, options.provider ?? configProvider, "anthropic");
  } catch {
    // A bad --model is reported when the setup resolves it; the session's model serves here.
  }
  const sessionProvider = isProviderName(provider) ? provider : "anthropic";
  return resolveModel(model || undefined, options.provider ?? sessionProvider, sessionProvider);
}

/** The session file the command line asks to continue (--session, or the newest for --continue), if any. */
export async function requestedSessionPath(options: CliOptions, settings: Settings): Promise<string | undefined> {
  if (options.sessionFile) return options.sessionFile;
  if (options.continue) return newestSession(settings.sessionRoot, sessionPlace(options, settings));
  return undefined;
}

export async function createSetup(options: CliOptions, settings: Settings, choices: SetupChoices = {}): Promise<Setup> {
  const { home, config, sessionRoot, env } = settings;
  const warnings = [...settings.warnings];
  const context = settings.agent.context;

  const resumePath = choices.fresh ? undefined : (choices.sessionPath ?? (await requestedSessionPath(options, settings)));
  const sessionWarnings: string[] = [];
  if (!resumePath && !choices.fresh && options.continue) sessionWarnings.push(`No earlier session in ${sessionPlace(options, settings)}: starting a new one.`);

  let resumed: { store: SessionStore; session: LoadedSession } | undefined;
  const flags = {
    provider: options.provider ?? config.provider,
    apiKey: options.apiKey,
    baseUrl: settings.baseUrl,
    api: options.api,
  };
  const connections = resolveConnections(flags, env);
  // The proxy's password never reaches a session either.
  const secrets = [connections.anthropic.apiKey, connections.openai.apiKey, ...proxyCredentials(connections.anthropic.proxy)].filter((k): k is string => Boolean(k));
  // Only what the model in force can be sent is loaded; older messages stay on disk.
  const budgetFor = (provider: string, model: string): number => {
    const budget = contextBudget(modelForBudget(options, config.provider, provider, model), context);
    return budget.window - budget.reserve;
  };
  if (resumePath) {
    try {
      resumed = await SessionStore.open(resumePath, { secrets, budgetFor, pitwallVersion: pitwallVersion() });
    } catch (error) {
      if (error instanceof SessionFileError) throw new UsageError(error.message);
      if (!(error instanceof SessionLockedError)) throw error;
      // Two writers would interleave their records: continue in a copy, and say so.
      resumed = await SessionStore.fork(error.session, { root: sessionRoot, cwd: recordedRemote(error.session.header.cwd) ?? options.cwd, pitwallVersion: pitwallVersion(), secrets, budgetFor });
      sessionWarnings.push(forkedWarning(error, resumed.store.path));
    }
    sessionWarnings.push(...resumed.session.warnings);
  }

  // A resumed session keeps its model unless the command line names another.
  const sessionProvider = resumed && isProviderName(resumed.session.provider) ? resumed.session.provider : undefined;
  const modelSpec = options.model ?? (resumed ? resumed.session.model : config.model);
  let model: ModelInfo;
  try {
    model = resolveModel(modelSpec, options.provider ?? (options.model ? undefined : sessionProvider) ?? config.provider, defaultProvider(flags, connections));
  } catch (error) {
    if (error instanceof ModelSpecError) throw new UsageError(error.message);
    throw error;
  }
  const thinkingLevel = options.thinking ?? (resumed ? resumed.session.thinkingLevel : config.thinking) ?? "off";

  const { resources, unloadedNote } = setupResources(options, settings, choices.trustProject, warnings);

  // --remote (or config's), else the remote the resumed session ran on: its tools and jobs go back there.
  const remoteText = settings.remote ?? (resumed ? recordedRemote(resumed.session.header.cwd) : undefined);
  const remote = remoteText !== undefined ? parseRemote(remoteText) : undefined;
  const place = remote ? remoteSpec(remote) : options.cwd;
  const remoteListeners = new Set<(text: string) => void>();
  // A dashboard's agent names itself to the folder's host; its other agents ask for no job output.
  const agentClient = { ...(choices.agentName !== undefined ? { agent: choices.agentName } : {}), ...(choices.noJobOutput ? { noOutput: true } : {}) };

  // Before anything is started: every child carries this run's marker from the first one on.
  const ownGuard = choices.guard === undefined;
  const guard = choices.guard ?? ProcessGuard.start();
  if (ownGuard) {
    guard.removeAfterCrash(processTempFolder());
    void removeStaleTempFolders();
  }

  const sharedFiles = choices.sharedFiles ?? new SharedFiles();
  let coding: CodingAgent;
  try {
    coding = createCodingAgent({
      // A remote session's model works in the remote's folder: every file tool and command runs there.
      cwd: remote ? remote.path : options.cwd,
      model,
      connections,
      thinkingLevel,
      tools: options.tools ?? "default",
      customPrompt: options.systemPrompt,
      pitwallHome: home,
      skills: resources.skills,
      settings: settings.agent,
      messages: resumed?.session.messages,
      olderHistory: resumed ? olderHistoryOf(resumed.session) : undefined,
      ...(resumed?.session.wakes ? { wakeCount: resumed.session.wakes } : {}),
      marker: guard,
      sharedFiles: { files: sharedFiles, agent: choices.agentName ?? "main" },
      ...(remote
        ? {
            jobs: (inputs) =>
              new RemoteJobService(inputs, {
                home,
                kind: choices.jobClient ?? "print",
                keepJobsMs: settings.keepJobsMs,
                connection: { silenceMs: settings.hostSilenceMs },
                ...agentClient,
                sshCommand: settings.sshCommand,
                target: remote,
                onStatus: (text) => remoteListeners.forEach((listener) => listener(text)),
                // The sandbox's paths as written: `~` means the remote's home there.
                sandboxPaths: { ...(config.sandboxWritable ? { writable: config.sandboxWritable } : {}), ...(config.sandboxHidden ? { hidden: config.sandboxHidden } : {}) },
              }),
          }
        : choices.jobClient
          ? { jobs: (inputs) => new HostJobService(inputs, { home, kind: choices.jobClient!, keepJobsMs: settings.keepJobsMs, connection: { silenceMs: settings.hostSilenceMs, greetingMs: settings.hostGreetingMs }, ...agentClient }) }
          : {}),
    });
  } catch (error) {
    if (ownGuard) guard.close();
    if (error instanceof UnknownToolError) throw new UsageError(`--tools: ${error.message}`);
    throw error;
  }

  // The earlier run's jobs ended with it, and ids start again at 1: the model hears so first. A
  // dashboard first attaches to the folder's job host, whose kept jobs did not end (tellEarlierJobs).
  const earlierJobs = resumed ? earlierRunningJobs(resumed.session.messages) : [];
  if (choices.jobClient !== "dashboard") {
    const jobsNotice = earlierJobsNotice(earlierJobs);
    if (jobsNotice) coding.agent.notify(jobsNotice);
  }

  const freshStore = (): SessionStore | undefined =>
    options.noSession
      ? undefined
      : SessionStore.create({
          root: sessionRoot,
          cwd: place,
          provider: coding.agent.state.model.provider,
          model: coding.agent.state.model.id,
          thinkingLevel: coding.agent.state.thinkingLevel,
          pitwallVersion: pitwallVersion(),
          secrets,
          budgetFor,
        });
  coding.useSession(resumed?.store ?? freshStore());

  return {
    options,
    settings,
    config,
    home,
    sessionRoot,
    connections,
    model,
    thinkingLevel,
    coding,
    guard,
    async dispose() {
      if (!ownGuard) return coding.dispose();
      try {
        await coding.dispose();
        await guard.sweep(DEFAULT_KILL_GRACE_MS);
      } finally {
        guard.close();
      }
    },
    get session() {
      return coding.session;
    },
    newSession() {
      // A resumed session's older part, waiting to be summarised, goes with it.
      coding.agent.resetConversation([]);
      coding.session?.close();
      coding.useSession(freshStore());
      return coding.session;
    },
    resumed: resumed?.session,
    earlierJobs,
    warnings,
    sessionWarnings,
    missingKey: isConfigured(connections[model.provider]) ? undefined : missingKeyMessage(model.provider),
    sharedFiles,
    resources,
    unloadedNote,
    remote,
    onRemoteStatus(listener) {
      remoteListeners.add(listener);
      return () => remoteListeners.delete(listener);
    },
  };
}

/**
 * After a dashboard attached to the folder's job host: the resumed conversation's jobs that the host
 * no longer runs ended with the earlier run, and the model is told so (ids go on while a host with
 * jobs runs). Returns those jobs, for the person.
 */
export function tellEarlierJobs(setup: Setup): EarlierJob[] {
  const known = setup.coding.jobs.list();
  const stillRunning = new Set(known.filter((info) => info.status === "running").map((info) => `${info.id}\0${info.command}`));
  const runningIds = new Set(known.filter((info) => info.status === "running").map((info) => info.id));
  const ended = setup.earlierJobs.filter((job) => (job.command === undefined ? !runningIds.has(job.id) : !stillRunning.has(`${job.id}\0${job.command}`)));
  const notice = earlierJobsNotice(ended, { idsContinue: known.length > 0 });
  if (notice) setup.coding.agent.notify(notice);
  return ended;
}

function forkedWarning(error: SessionLockedError, copyPath: string): string {
  return (
    `${error.message} Writing to it from two pitwalls would interleave their messages, so this conversation ` +
    `continues in a copy: ${copyPath}. The original is left to the other pitwall.`
  );
}

/**
 * Saves what is still pending and lets the session go. Returns, when records could not be saved,
 * the message to show: those records are lost once pitwall exits.
 */
export function closeSession(setup: Setup): string | undefined {
  const session = setup.session;
  if (!session) return undefined;
  session.close();
  const { unsavedRecords, reason } = session.saveState;
  if (unsavedRecords === 0) return undefined;
  const records = unsavedRecords === 1 ? "1 record" : `${unsavedRecords} records`;
  return `${records} of this conversation could not be saved to ${session.path} (${reason ?? "unknown error"}) and are lost.`;
}
