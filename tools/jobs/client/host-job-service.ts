// The jobs of a pitwall whose jobs live in the job host of its working directory. The model's bash
// and job tools are sent to the host and run there (their live output and the steer signal cross
// the socket); the person's actions are calls; the jobs pane reads a mirror of the jobs kept current
// by the host's events, and paints screens the host has already parsed. No host is started until
// something needs one (a bash call, bash_stream, a job of the person's); until then the tools that
// only look at jobs answer as an empty registry would. If the host goes away unexpectedly, its jobs
// are reported ended (its watchdog ended them) and the next job starts a new host, ids going on. A
// host that stops answering (HostConnection's silence limit) is reported as such, never as ended: its
// jobs may be alive in it, and a later connection that is answered picks them up again.
import type { JobNotice } from "../registry/job-notices.js";
import { groupAlive, signalGroup, terminateGroup } from "../../process-group.js";
import { processTempFolder } from "../../process/temp-folder.js";
import { valueWithin } from "../../promise-deadline.js";
import type { AgentTool, ToolResult } from "../../tool.js";
import type { JobInfo, JobServiceEvent, TerminalSize, TriggerInfo, WatchAction } from "../events.js";
import { JobRegistry } from "../registry/job-registry.js";
import type { JobService, JobServiceInputs, JobTextKind, ServiceSandbox, ServiceToolCall } from "../service.js";
import { createJobTools } from "../model-tools/job-tools.js";
import { ScreenFeed, type JobScreen } from "../terminal/screen-feed.js";
import { NoGreetingError, StuckHostError, type ConnectionOptions, type HostConnection } from "./host-connection.js";
import { JobMirror } from "./job-mirror.js";
import { openHost, type OpenedHost } from "./host-launcher.js";
import { hostPaths } from "../host/host-paths.js";
import { processAlive, recordedHostPid, stopHostProcess } from "./host-stop.js";
import type { ClientInfo, ClientKind, Mismatch } from "../wire/handshake.js";
import type { MethodArgs } from "../wire/methods.js";
import { resolveJobSettings, type JobSettings } from "../settings.js";
import { withProfile, type SandboxPolicy, type SandboxProfile } from "../../sandbox/index.js";

/** The clients that run an agent (`pitwall jobs` is the other kind). */
export type HostClientKind = Exclude<ClientKind, "cli">;

export interface HostJobServiceOptions {
  /** PITWALL_HOME: the host's folder is under it. */
  home: string;
  kind: HostClientKind;
  /** How long the host keeps jobs a dashboard leaves running, with no dashboard attached. */
  keepJobsMs: number;
  /** How long a host may say nothing while a call waits, and has to greet (the defaults unless a test shortens them). */
  connection?: ConnectionOptions;
  /** The dashboard agent this client serves: other agents' tools name its jobs' owner so. */
  agent?: string;
  /** No job output events at all (a dashboard's other agents: its jobs pane follows the first one's client). */
  noOutput?: boolean;
}

/** Before each model request the host's notices are asked for; a host slower than this is not waited for. */
const NOTICE_WAIT_MS = 1_000;

/** What attaching to the folder's host at start found. */
export type AttachOutcome = { kind: "none" } | { kind: "attached"; adopted: JobInfo[] } | { kind: "mismatch"; mismatch: Mismatch };

export class HostVersionError extends Error {
  constructor(readonly mismatch: Mismatch) {
    super(
      `A job host of another pitwall version (${mismatch.version}, protocol ${mismatch.protocol}, pid ${mismatch.pid}) runs in this folder with ${mismatch.jobs.length} job${mismatch.jobs.length === 1 ? "" : "s"}. ` +
        "This pitwall cannot use it: stop it with `pitwall jobs stop all` (its jobs end), then try again.",
    );
  }
}

interface OpenFeed {
  feed: ScreenFeed;
  jobId: string;
}

export class HostJobService implements JobService {
  /** Where the jobs run: the host of this machine's folder (RemoteJobService: another machine's). */
  get where(): "host" | "remote" {
    return "host";
  }
  readonly settings: JobSettings;
  private readonly cwd: string;
  private readonly env: Record<string, string>;
  private readonly secrets: string[];
  protected readonly sandbox: ServiceSandbox | undefined;
  protected connection: HostConnection | undefined;
  private connecting: Promise<HostConnection | undefined> | undefined;
  private preparing: Promise<void> | undefined;
  /** The host's jobs as this client knows them, from its events. */
  protected readonly mirror = new JobMirror();
  /** The host stopped answering (set until a connection is answered again). */
  private silent = false;
  private readonly feeds = new Map<number, OpenFeed>();
  private nextWatch = 1;
  /** What the agent must hear that the host cannot tell it (the host went away). */
  protected readonly ownNotices: JobNotice[] = [];
  /** Groups the person's `!command`s left running (they are this process's, not the host's). */
  private readonly leftovers = new Set<number>();
  /** Answers the looking tools before any host exists, as an empty registry would. */
  private emptyTools: Map<string, AgentTool> | undefined;
  protected readonly problemListeners = new Set<(text: string) => void>();
  protected shuttingDown = false;

  constructor(
    inputs: JobServiceInputs,
    protected readonly options: HostJobServiceOptions,
  ) {
    this.cwd = inputs.cwd;
    this.settings = resolveJobSettings(inputs.settings);
    this.env = Object.fromEntries(Object.entries(inputs.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    this.secrets = [...inputs.secrets];
    this.sandbox = inputs.sandbox;
  }

  /** The host's log file (for messages about it). */
  get logPath(): string {
    return hostPaths(this.options.home, this.cwd).log;
  }

  /** The host's pid while connected. */
  get hostPid(): number | undefined {
    return this.connection?.welcome.pid;
  }

  /** Called with a sentence a person should read (the host went away unexpectedly). */
  onProblem(listener: (text: string) => void): () => void {
    this.problemListeners.add(listener);
    return () => this.problemListeners.delete(listener);
  }

  /** Stops a host of another version that `attach` found (its jobs end); true once it is gone. */
  stopOtherHost(mismatch: Mismatch): Promise<boolean> {
    return stopHostProcess(this.options.home, this.cwd, mismatch.pid, this.settings.killGraceMs);
  }

  /** Connects to the folder's host if one runs (never starts one): its jobs show at once. */
  async attach(): Promise<AttachOutcome> {
    try {
      const connection = await this.connect(false);
      if (!connection) return { kind: "none" };
      const adopted = connection.welcome.adopted.map((id) => this.mirror.get(id)).filter((info): info is JobInfo => info !== undefined);
      return { kind: "attached", adopted };
    } catch (error) {
      if (error instanceof HostVersionError) return { kind: "mismatch", mismatch: error.mismatch };
      throw error;
    }
  }

  // ---- the mirror --------------------------------------------------------------------------

  subscribe(listener: (event: JobServiceEvent) => void): () => void {
    return this.mirror.subscribe(listener);
  }

  list(): JobInfo[] {
    return this.mirror.list();
  }

  get(id: string): JobInfo | undefined {
    return this.mirror.get(id);
  }

  ownerId(): string | undefined {
    return this.connection?.welcome.clientId;
  }

  /** This client's running jobs: those its shutdown stops (another pitwall's here are not counted). */
  runningCount(): number {
    const me = this.connection?.welcome.clientId;
    return me === undefined ? 0 : this.mirror.runningOwnedBy(me);
  }

  // ---- the connection ----------------------------------------------------------------------

  /** The connection, made (and the host started, with `start`) when there is none. */
  protected async connect(start: boolean): Promise<HostConnection | undefined> {
    if (this.connection?.open) return this.connection;
    if (this.shuttingDown) return undefined;
    if (this.connecting) {
      const pending = await this.connecting;
      if (pending || !start) return pending;
    }
    const attempt = (async (): Promise<HostConnection | undefined> => {
      const opened = await this.openConnection(
        {
          kind: this.options.kind,
          pid: process.pid,
          output: this.options.noOutput ? "none" : this.options.kind === "json" ? "all" : this.options.kind === "dashboard" ? "sampled" : "none",
          keepJobsMs: this.options.keepJobsMs,
          ...(this.options.agent !== undefined ? { agent: this.options.agent } : {}),
          nextId: this.mirror.highestId + 1,
        },
        start,
      );
      if (opened.kind === "none") return undefined;
      if (opened.kind === "mismatch") throw new HostVersionError(opened.mismatch);
      this.connected(opened.connection);
      return opened.connection;
    })();
    this.connecting = attempt;
    try {
      return await attempt;
    } finally {
      if (this.connecting === attempt) this.connecting = undefined;
    }
  }

  /** Opens a connection to the host as `client`, starting the host first when `start` is set and none answers. */
  protected openConnection(client: ClientInfo, start: boolean): Promise<OpenedHost> {
    return openHost({
      home: this.options.home,
      cwd: this.cwd,
      client,
      ...(start ? { start: { settings: { ...this.settings }, keepJobsMs: this.options.keepJobsMs, env: this.env } } : {}),
      ...(this.options.connection ? { connection: this.options.connection } : {}),
    }).catch((error: unknown) => Promise.reject(error instanceof NoGreetingError ? new StuckHostError(recordedHostPid(this.options.home, this.cwd), error.greetingMs) : error));
  }

  /** What a tool call carries besides the call: the secrets to redact, bash's output folder, the sandbox. */
  protected toolCallExtras(tool: string): { secrets: string[]; outputDir?: string; sandbox?: { policy: SandboxPolicy; visible: string[] } } {
    return {
      secrets: this.secrets,
      ...(tool === "bash" ? { outputDir: processTempFolder() } : {}),
      // Commands see bash's full-output files (in this process's temp folder) through the private /tmp.
      ...(this.sandbox ? { sandbox: { policy: this.sentPolicy(this.sandbox.policy), visible: [processTempFolder()] } } : {}),
    };
  }

  /** The policy as it crosses to the host: as it is here (RemoteJobService: home-relative, for the remote to make its own). */
  protected sentPolicy(policy: SandboxPolicy): SandboxPolicy {
    return policy;
  }

  protected connected(connection: HostConnection): void {
    this.connection = connection;
    if (this.silent) {
      this.silent = false;
      this.mirror.emit({ type: "job_host_state", answering: true, detail: `The job host (pid ${connection.welcome.pid}) answers again.` });
    }
    connection.handlers = {
      event: (event) => this.mirror.apply(event),
      screen: (watch, update) => this.feeds.get(watch)?.feed.apply(update),
      closed: (why, broken) => this.lost(connection, why, broken),
    };
    // The host's jobs and their triggers as it has them now.
    this.mirror.reconcile(connection.welcome);
    // Screens open before a reconnection watch again.
    for (const [watch, open] of this.feeds) void connection.call("watch", { id: open.jobId, watch }).catch(() => undefined);
    // It may have ended already, right after its greeting.
    if (connection.endedBecause) this.lost(connection, connection.endedBecause.why, connection.endedBecause.broken);
  }

  /**
   * The connection ended without us closing it: the host died (its jobs with it), dropped us, or
   * broke the protocol (then it is not used again by itself; the next job tries afresh).
   */
  protected lost(connection: HostConnection, why: string | undefined, broken: boolean): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    if (why === undefined || this.shuttingDown) return;
    const pid = connection.welcome.pid;
    if (connection.silent) {
      // Its jobs are not known to have ended: they may be running in the stopped host.
      this.silent = true;
      const text = `${why.charAt(0).toUpperCase()}${why.slice(1)}. Its jobs may still be running in it; \`pitwall jobs\` shows it, \`pitwall jobs stop all\` stops it and its jobs. Its log is ${this.logPath}.`;
      this.mirror.emit({ type: "job_host_state", answering: false, detail: text });
      this.ownNotices.push({ text, at: Date.now() });
      for (const listener of this.problemListeners) listener(text);
      return;
    }
    if (broken) {
      const text = `The job host (pid ${pid}) ${why}: this pitwall stopped talking to it. Its log is ${this.logPath}.`;
      this.ownNotices.push({ text, at: Date.now() });
      for (const listener of this.problemListeners) listener(text);
      return;
    }
    void (async () => {
      // A host that still runs dropped only us: attach again, and its jobs are ours again.
      if (processAlive(pid)) {
        try {
          if (await this.connect(false)) return;
        } catch {
          // Reported below.
        }
      }
      const ids = this.mirror.endRunning();
      const text = `The job host (pid ${pid}) stopped unexpectedly${ids.length ? `; job${ids.length === 1 ? "" : "s"} ${ids.join(", ")} ended with it` : ""}. Its log is ${this.logPath}. A new job starts a new host.`;
      this.ownNotices.push({ text, at: Date.now() });
      for (const listener of this.problemListeners) listener(text);
    })();
  }

  private async require(): Promise<HostConnection> {
    const connection = await this.connect(false);
    if (!connection) throw new Error("There are no jobs: no job host runs in this folder yet.");
    return connection;
  }

  // ---- the model's tools -------------------------------------------------------------------

  async runTool(call: ServiceToolCall): Promise<ToolResult> {
    const needsHost = call.tool === "bash" || call.tool === "bash_stream";
    const connection = await this.connect(needsHost);
    if (!connection) {
      this.emptyTools ??= new Map(createJobTools(new JobRegistry({ cwd: this.cwd, env: {} }), this.settings).map((tool) => [tool.name, tool]));
      const tool = this.emptyTools.get(call.tool);
      if (!tool) throw new Error(`${call.tool} needs the job host, which could not be started.`);
      return tool.execute(call.toolCallId, call.params as never, call.signal, call.onUpdate, call.context);
    }
    return connection.call("runTool", this.toolCallArgs(call.tool, call.toolCallId, call.params), {
      onUpdate: (chunk) => call.onUpdate({ chunk }),
      signal: call.signal,
      yieldSignal: call.context.yieldSignal,
    });
  }

  private toolCallArgs(tool: ServiceToolCall["tool"], toolCallId: string, params: unknown): MethodArgs<"runTool"> {
    const settings = { maxOutputChars: this.settings.maxOutputChars, defaultYieldMs: this.settings.defaultYieldMs, steerGraceMs: this.settings.steerGraceMs };
    return { tool, toolCallId, params, settings, env: this.env, ...this.toolCallExtras(tool) };
  }

  // ---- the person's actions ----------------------------------------------------------------

  async start(command: string, size?: TerminalSize): Promise<JobInfo> {
    const connection = await this.connect(true);
    if (!connection) throw new Error("The job host could not be started.");
    const sandbox = this.sandbox ? { sandbox: this.sentPolicy(withProfile(this.sandbox.policy, this.sandbox.personProfile)) } : {};
    const info = await connection.call("start", { command, env: this.env, ...(size ? { size } : {}), ...sandbox });
    // The event may come after the answer: the pane can select the job at once.
    if (!this.mirror.get(info.id)) this.mirror.apply({ type: "job_started", job: info });
    return info;
  }

  async kill(id: string, signal?: NodeJS.Signals): Promise<JobInfo> {
    return (await this.require()).call("kill", { id, ...(signal ? { signal } : {}) });
  }

  async restart(id: string, size?: TerminalSize, profile?: SandboxProfile): Promise<JobInfo> {
    return (await this.require()).call("restart", { id, ...(size ? { size } : {}), ...(profile ? { profile } : {}) });
  }

  async remove(id: string): Promise<boolean> {
    return (await this.require()).call("remove", { id });
  }

  async write(id: string, data: string, options: { eof?: boolean } = {}): Promise<void> {
    await (await this.require()).call("write", { id, data, ...(options.eof ? { eof: true } : {}) });
  }

  async text(id: string, kind: JobTextKind, count?: number): Promise<string[]> {
    return (await this.require()).call("text", { id, kind, ...(count !== undefined ? { count } : {}) });
  }

  open(id: string): JobScreen | undefined {
    const connection = this.connection;
    const info = this.mirror.get(id);
    if (!connection?.open || !info) return undefined;
    const watch = this.nextWatch++;
    const feed = new ScreenFeed(id, info.command, {
      resize: (cols, rows) => void this.connection?.call("resize", { id, cols, rows }).catch(() => undefined),
      scroll: (request) => void this.connection?.call("scroll", { watch, ...request }).catch(() => undefined),
      release: () => {
        this.feeds.delete(watch);
        void this.connection?.call("unwatch", { watch }).catch(() => undefined);
      },
    });
    this.feeds.set(watch, { feed, jobId: id });
    void connection.call("watch", { id, watch }).catch(() => undefined);
    return feed;
  }

  async addTrigger(id: string, trigger: { pattern: string; action: WatchAction }): Promise<TriggerInfo> {
    return (await this.require()).call("addTrigger", { id, ...trigger });
  }

  async removeTriggers(id: string, triggerId?: number): Promise<TriggerInfo[]> {
    return (await this.require()).call("removeTriggers", { id, ...(triggerId !== undefined ? { trigger: triggerId } : {}) });
  }

  triggers(id: string): TriggerInfo[] {
    return this.mirror.triggers(id);
  }

  notePersonAction(text: string): void {
    // In the host's queue, in order with the person's job actions; with no host there are none.
    const connection = this.connection?.open ? this.connection : undefined;
    const at = Date.now();
    if (connection) void connection.call("note", { text }).catch(() => this.ownNotices.push({ text, at }));
    else this.ownNotices.push({ text, at });
  }

  adoptGroup(pgid: number): void {
    this.leftovers.add(pgid);
  }

  // ---- the agent ---------------------------------------------------------------------------

  prepare(): Promise<void> {
    // A print run starts its host on demand, with its first command: one that only answers leaves none behind.
    if (this.options.kind === "print" || this.connection?.open || this.connecting || this.shuttingDown) return this.preparing ?? Promise.resolve();
    // A host that cannot start says so when a tool needs it (runTool starts it again). Once it answers, an
    // `echo` runs the whole bash path, output too: the first real command finds its fence set up
    // (tools/process/prestarted-shells.ts) and the call's code run in both processes.
    this.preparing = this.connect(true)
      .then((connection) => connection?.call("runTool", this.toolCallArgs("bash", "warm-up", { command: "echo" }), { onUpdate: () => undefined }))
      .then(() => undefined, () => undefined);
    return this.preparing;
  }

  /**
   * What the agent must hear before its next request. A host slower than NOTICE_WAIT_MS is not
   * waited for (the request goes out, Esc acts at once): its answer, when it comes, waits here for
   * the request after.
   */
  async drainNotices(): Promise<JobNotice[]> {
    const connection = this.connection?.open ? this.connection : undefined;
    const fromHost = connection ? connection.call("notices", {}).then((lines) => lines, () => []) : Promise.resolve([]);
    const answered = await valueWithin(fromHost, NOTICE_WAIT_MS);
    if (answered === undefined) void fromHost.then((lines) => this.ownNotices.push(...lines));
    return [...this.ownNotices.splice(0), ...(answered ?? [])].sort((a, b) => a.at - b.at);
  }

  async summaryLines(): Promise<string[]> {
    const connection = this.connection?.open ? this.connection : undefined;
    if (!connection) return [];
    const lines = connection.call("summary", {}).catch(() => []);
    return (await valueWithin(lines, NOTICE_WAIT_MS)) ?? [];
  }

  // ---- ending ------------------------------------------------------------------------------

  /** Stops this client's jobs in the host (and the person's leftovers here), then lets go. */
  async shutdown(): Promise<void> {
    const connection = this.connection?.open ? this.connection : undefined;
    this.shuttingDown = true;
    try {
      if (connection) await connection.call("stopOwned", {});
    } finally {
      connection?.close();
      await this.endLeftovers();
    }
  }

  /** Leaves this client's jobs running in the host (a dashboard quitting with "keep"), then lets go. */
  async detach(): Promise<void> {
    this.shuttingDown = true;
    this.connection?.close();
    await this.endLeftovers();
  }

  killAllSync(): void {
    for (const pgid of this.leftovers) signalGroup(pgid, "SIGKILL");
  }

  private async endLeftovers(): Promise<void> {
    await Promise.all([...this.leftovers].filter((pgid) => groupAlive(pgid)).map((pgid) => terminateGroup(pgid, this.settings.killGraceMs)));
    this.leftovers.clear();
  }
}
