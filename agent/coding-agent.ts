// Assembles a working coding agent without any screen: one bus, the job registry, the tools, the
// system prompt, the Agent and the session it writes, wired so job events reach the bus, job notices
// and the actions of watch triggers reach the model, and the files the agent changes can be put back
// by a rewind.
// The dashboard, print and JSON modes and library users all start from here.
import { homedir } from "node:os";
import { toolEnvironment } from "../tools/tool-environment.js";
import { redactingTool, secretRedaction } from "./secret-redaction.js";
import { CODING_TOOL_NAMES, createReadOnlyTools, createToolByName, isToolName, READ_ONLY_TOOL_NAMES, TOOL_NAMES } from "../tools/coding-tools.js";
import { type JobService, type JobServiceInputs, type JobSettings, LocalJobService, serviceTools, type ServiceSandbox, type WakeCount } from "../tools/jobs/index.js";
import { FileFence, sandboxPolicy } from "../tools/sandbox/index.js";
import { fenceFileTool } from "../tools/fenced-file-tools.js";
import type { AgentTool } from "../tools/tool.js";
import type { ChildMarker } from "../tools/process/process-guard.js";
import type { ToolSettings } from "../tools/tool-settings.js";
import { Agent } from "./agent.js";
import type { ContextSettings } from "./context/context-budget.js";
import type { ContextUsage } from "./context/context-keeper.js";
import { contextBreakdown, type ContextBreakdown } from "./context/context-usage.js";
import type { OlderHistory } from "./context/compaction.js";
import { EventBus } from "./event-bus.js";
import { deliverJobTriggers } from "./job-trigger-actions.js";
import type { PitwallEvent } from "./events.js";
import type { Message, ThinkingLevel } from "./messages.js";
import type { ModelInfo } from "./models.js";
import { createProviderResolver, type Connections } from "./providers/connections.js";
import { proxyCredentials } from "./providers/proxy.js";
import type { StreamTimeouts } from "./providers/stall-guard.js";
import type { RetryPolicy } from "./retry.js";
import { describeSystemPrompt, type SystemPromptReport } from "./system-prompt.js";
import type { Skill } from "./resources/skills.js";
import { FILE_CHANGING_TOOLS, trackFileChanges } from "./file-change-tracking.js";
import type { SharedFiles } from "./shared-files.js";
import { SessionControl, type BranchChange, type RewindTarget, type SessionForked } from "./session-control.js";
import type { SessionStore } from "./sessions/session-store.js";
import type { SessionTreeView } from "./sessions/session-tree.js";

export type ToolSelection = "default" | "read-only" | string[];

/**
 * What a coding agent works within. app/settings.ts resolves it once (flags > environment >
 * config.json > defaults); a library user gives what it wants and gets the defaults for the rest.
 */
export interface CodingAgentSettings extends ToolSettings {
  /** The environment bash calls and jobs run with; this process's own when left out. */
  env: NodeJS.ProcessEnv;
  /** The job registry's limits (its output cap is `maxOutputChars`). */
  jobs: Partial<Omit<JobSettings, "maxOutputChars">>;
  retry: Partial<RetryPolicy>;
  /** How long a provider's server may stay silent (no headers, or no byte of the stream) before the attempt fails and is retried. */
  streamTimeouts: StreamTimeouts;
  /** The context window (for a model the table does not know, or smaller) and the compaction threshold. */
  context: ContextSettings;
  /** Leave the provider keys in the environment of commands and jobs (they are removed by default). */
  passKeysToTools: boolean;
  /**
   * The sandbox commands run in and the file tools follow; `false`: none (commands run as the
   * person). When left out: the workspace profile, the person's own jobs off.
   */
  sandbox: ServiceSandbox | false;
}

export interface CodingAgentOptions {
  cwd: string;
  model: ModelInfo;
  connections: Connections;
  thinkingLevel?: ThinkingLevel;
  /** "default": read, write, edit, bash and the seven job tools; "read-only": read, grep, find, ls. */
  tools?: ToolSelection;
  /** Replaces the built-in instructions of the system prompt. */
  customPrompt?: string;
  /** Searched for a global AGENTS.md. */
  pitwallHome: string;
  /** Skills listed in the system prompt (resources/project-resources.ts loads them); none when left out. */
  skills?: readonly Skill[];
  settings?: Partial<CodingAgentSettings>;
  messages?: readonly Message[];
  /** A resumed session's older messages left on disk, summarised before the first request. */
  olderHistory?: OlderHistory;
  /** A resumed session's wake count (LoadedSession.wakes): the cap on triggers' wakes goes on from it. */
  wakeCount?: WakeCount;
  /** Marks every child and tracks its group, so a crash of this process still ends them (ProcessGuard). */
  marker?: ChildMarker;
  /**
   * Where bash calls and jobs run: made from the settings given the environment they need (the
   * modes pass a client of the job host); jobs in this process (LocalJobService) when left out.
   */
  jobs?: (given: JobServiceInputs) => JobService;
  /** The session file to write the conversation to (SessionStore.create or .open); `useSession` changes it. */
  session?: SessionStore;
  /** One of several agents in the folder: its writes and edits of files another agent changed unseen are refused (shared-files.ts). */
  sharedFiles?: { files: SharedFiles; agent: string };
}

/** What /context shows: where the tokens go, and how full the window is. */
export interface ContextReport {
  breakdown: ContextBreakdown;
  usage: ContextUsage;
  /** A resumed session's messages still on disk, waiting to be summarised. */
  olderPending: number;
}

export interface CodingAgent {
  agent: Agent;
  bus: EventBus<PitwallEvent>;
  /** Where bash calls and jobs run (this process, or the job host): the jobs pane and the person's keys use it too. */
  jobs: JobService;
  /**
   * A prompt is coming (the person is typing one, or an answer began): the tools get ready to run
   * without delay (the job host starts when the agent has bash). Cheap to call again.
   */
  prepareTools(): Promise<void>;
  /** The environment commands and jobs run in: `env` without the provider keys (unless passed on). */
  toolEnv: NodeJS.ProcessEnv;
  /** Given in the options: marks children so that a crash still ends them. */
  marker: ChildMarker | undefined;
  /** The sandbox commands run in (the person's `!command` too, under its own profile); undefined: none. */
  sandbox: ServiceSandbox | undefined;
  systemPrompt: SystemPromptReport;
  /** Recomputes the system prompt (after /cwd-like changes or edits to AGENTS.md). */
  reloadSystemPrompt(): SystemPromptReport;
  contextReport(): ContextReport;
  /** The session the conversation is written to; undefined when none. */
  readonly session: SessionStore | undefined;
  /** Writes the conversation to `store` from now on (undefined: to none); the previous one is left open. */
  useSession(store: SessionStore | undefined): void;
  /** The session's tree (ids, parents, the person's messages, file changes, the current leaf); undefined without a session. */
  sessionTree(): SessionTreeView | undefined;
  /**
   * Goes back to before one of the person's messages (or to after any record) and continues from
   * there as a new branch; `files: true` first puts back the files the agent changed since. Throws
   * BranchError (a message for the person) or AgentBusyError; the `branch_change` event says the rest.
   */
  rewind(target: RewindTarget, options?: { files?: boolean }): Promise<BranchChange>;
  /** Continues from another point of the session's tree (a branch's leaf); files are not touched. */
  switchBranch(leafId: string | null): Promise<BranchChange>;
  /** Copies the current branch into a new session file and continues there. */
  fork(): Promise<SessionForked>;
  /** Ends every job of this agent and lets go of the job service. */
  dispose(): Promise<void>;
}

export class UnknownToolError extends Error {}

export function createCodingAgent(options: CodingAgentOptions): CodingAgent {
  const settings = options.settings ?? {};
  const bus = new EventBus<PitwallEvent>();
  const secrets = [options.connections.anthropic.apiKey, options.connections.openai.apiKey].filter((key): key is string => Boolean(key));
  const toolEnv = toolEnvironment(settings.env ?? process.env, { passKeys: settings.passKeysToTools, keys: secrets });
  const toolSettings: Partial<ToolSettings> = { env: toolEnv, maxOutputChars: settings.maxOutputChars };
  const sandbox = settings.sandbox === false ? undefined : (settings.sandbox ?? defaultSandbox(options.pitwallHome, toolEnv));
  const inputs: JobServiceInputs = {
    cwd: options.cwd,
    env: toolEnv,
    settings: { ...settings.jobs, maxOutputChars: settings.maxOutputChars },
    marker: options.marker,
    secrets,
    ...(sandbox ? { sandbox } : {}),
  };
  const jobs = options.jobs ? options.jobs(inputs) : new LocalJobService(inputs);
  const unsubscribeJobs = jobs.subscribe((event) => bus.emit(event));
  // Called only when a tool runs, once `sessions` (below) exists.
  const fileChanges = { snapshots: () => sessions.session?.snapshots, emit: (event: PitwallEvent) => bus.emit(event) };
  // A proxy's password is redacted too; its variables stay in the tools' environment (npm needs them).
  const redact = secretRedaction([...secrets, ...proxyCredentials(options.connections.anthropic.proxy ?? options.connections.openai.proxy)]);
  // The file tools in this process follow the profile the model's commands run under; with several
  // agents, a change to a file another agent changed unseen is refused first (shared-files.ts).
  // Not in a remote session: there the remote's job host fences its file tools itself, under the same
  // rules made that machine's (tools/jobs/host/run-tool.ts).
  const fileFence = sandbox && jobs.where !== "remote" ? new FileFence(sandbox.policy, options.cwd) : undefined;
  const shared = options.sharedFiles;
  const tools = selectTools(options.cwd, options.tools ?? "default", jobs, toolSettings).map((tool) => {
    const guarded = shared ? shared.files.guard(tool, options.cwd, shared.agent) : tool;
    const fenced = fileFence ? fenceFileTool(guarded, options.cwd, fileFence) : guarded;
    return redactingTool(FILE_CHANGING_TOOLS.has(tool.name) ? trackFileChanges(fenced, options.cwd, fileChanges) : fenced, redact);
  });
  const usesBash = tools.some((tool) => tool.name === "bash");
  // The job service gets ready for bash (the job host starts) as the model's answer begins, not when
  // the answer calls bash: a model takes longer to write a call than a host takes to start. Not
  // before the request goes out, which would wait for the start.
  const prepareTools = (): Promise<void> => (usesBash ? jobs.prepare() : Promise.resolve());
  const unsubscribeTurns = bus.subscribe((event) => {
    if (event.type === "message_start" && event.message.role === "assistant") void prepareTools();
  });
  const promptOptions = { cwd: options.cwd, tools, pitwallHome: options.pitwallHome, customPrompt: options.customPrompt, skills: options.skills };
  let systemPrompt = describeSystemPrompt(promptOptions);
  const agent = new Agent({
    bus,
    model: options.model,
    getProvider: createProviderResolver(options.connections, settings.streamTimeouts),
    systemPrompt: systemPrompt.prompt,
    thinkingLevel: options.thinkingLevel,
    tools,
    messages: options.messages,
    retry: settings.retry,
    ...(settings.maxOutputChars !== undefined ? { maxOutputChars: settings.maxOutputChars } : {}),
    noticeSources: [async () => (await jobs.drainNotices()).map((notice) => ({ ...notice, text: redact(notice.text) }))],
    context: settings.context,
    jobsForSummary: () => jobs.summaryLines(),
    olderHistory: options.olderHistory,
    ...(options.wakeCount ? { wakeCount: options.wakeCount } : {}),
  });
  const sessions = new SessionControl(agent, bus);
  sessions.use(options.session);
  // What a job's watch triggers ask for (notify, steer, follow-up, wake) is done here, whoever set them.
  // Subscribed after `unsubscribeJobs` forwards the service's events to the bus: a firing reaches
  // every listener of the bus before what it causes.
  const stopTriggers = deliverJobTriggers(jobs, agent, redact);
  return {
    agent,
    bus,
    jobs,
    prepareTools,
    toolEnv,
    marker: options.marker,
    sandbox,
    get systemPrompt() {
      return systemPrompt;
    },
    reloadSystemPrompt() {
      systemPrompt = describeSystemPrompt(promptOptions);
      agent.setSystemPrompt(systemPrompt.prompt);
      return systemPrompt;
    },
    contextReport() {
      const state = agent.state;
      return {
        breakdown: contextBreakdown({ systemPrompt: state.systemPrompt, tools: state.tools, messages: state.messages }, systemPrompt.contextFiles, systemPrompt.skills),
        usage: agent.contextUsage(),
        olderPending: agent.olderPending,
      };
    },
    get session() {
      return sessions.session;
    },
    useSession: (store) => sessions.use(store),
    sessionTree: () => sessions.tree(),
    rewind: (target, rewindOptions) => sessions.rewind(target, rewindOptions),
    switchBranch: (leafId) => sessions.switchTo(leafId),
    fork: () => sessions.fork(),
    async dispose() {
      stopTriggers();
      agent.abort();
      unsubscribeTurns();
      await jobs.shutdown();
      unsubscribeJobs();
    },
  };
}

/** A library's default: the workspace profile for the model's commands, the person's own jobs unfenced. */
function defaultSandbox(pitwallHome: string, env: NodeJS.ProcessEnv): ServiceSandbox {
  return { policy: sandboxPolicy({ profile: "workspace", home: env.HOME || homedir(), pitwallHome }), personProfile: "off" };
}

function selectTools(cwd: string, selection: ToolSelection, jobs: JobService, settings: Partial<ToolSettings>): AgentTool[] {
  // bash and the job tools run where the jobs are (and, in a remote session, the file tools).
  const jobTools = serviceTools(jobs);
  const toolOptions = { settings };
  if (selection === "default") {
    const coding = CODING_TOOL_NAMES.map((name) => jobTools.find((t) => t.name === name) ?? createToolByName(cwd, name, toolOptions));
    return [...coding, ...jobTools.filter((t) => !isToolName(t.name))];
  }
  if (selection === "read-only") {
    if (jobs.where !== "remote") return createReadOnlyTools(cwd, toolOptions);
    return READ_ONLY_TOOL_NAMES.map((name) => jobTools.find((t) => t.name === name) ?? createToolByName(cwd, name, toolOptions));
  }
  const pick = (name: string): AgentTool | undefined => jobTools.find((t) => t.name === name) ?? (isToolName(name) ? createToolByName(cwd, name, toolOptions) : undefined);
  const unknown = selection.filter((name) => !pick(name));
  if (unknown.length) {
    const known = [...new Set([...TOOL_NAMES, ...jobTools.map((t) => t.name)])].join(", ");
    throw new UnknownToolError(`unknown tool${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")} (known: ${known}, or read-only)`);
  }
  return selection.map((name) => pick(name)!);
}
