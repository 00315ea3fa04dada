// The jobs in this process: a JobRegistry with its emulators and logs, the real job tools and a bash
// tool whose long calls the registry adopts as jobs. What createCodingAgent uses unless it is given
// another JobService (the dashboard, print and JSON modes give a client of the job host); the job
// host itself runs the same registry and tools for its clients.
import type { JobNotice } from "../registry/job-notices.js";
import { bashAdopter } from "../model-tools/bash-adoption.js";
import type { JobEvent, JobInfo, TerminalSize, TriggerInfo, WatchAction } from "../events.js";
import { jobSnapshotLines } from "../format.js";
import { JobRegistry } from "../registry/job-registry.js";
import type { JobService, JobTextKind, ServiceSandbox, ServiceToolCall } from "../service.js";
import { createJobTools } from "../model-tools/job-tools.js";
import { LocalScreens } from "./local-screens.js";
import type { JobScreen } from "../terminal/screen-feed.js";
import { PrestartedShells } from "../../process/prestarted-shells.js";
import { createBashTool } from "../model-tools/bash-tool.js";
import type { ChildMarker } from "../../process/process-guard.js";
import { JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";
import type { AgentTool, ToolResult } from "../../tool.js";
import { readJobText } from "../registry/job-text.js";
import type { JobSettings } from "../settings.js";
import { modelFence } from "../model-tools/model-fence.js";
import { toolJobs } from "../model-tools/tool-jobs.js";
import { processTempFolder } from "../../process/temp-folder.js";
import { CommandSandbox, withProfile, type SandboxProfile } from "../../sandbox/index.js";

export interface LocalJobServiceOptions {
  cwd: string;
  /** The environment commands and jobs run with. */
  env: NodeJS.ProcessEnv;
  settings?: Partial<JobSettings>;
  /** Marks every child and tracks its group, so a crash of this process still ends them. */
  marker?: ChildMarker;
  /** Replaced by [redacted] in bash's full-output files (the provider keys). */
  secrets?: readonly string[];
  /** The sandbox commands run in; without one, as the person. */
  sandbox?: ServiceSandbox;
}

export class LocalJobService implements JobService {
  readonly where = "local";
  readonly registry: JobRegistry;
  private readonly tools: Map<string, AgentTool>;
  private screens: LocalScreens | undefined;
  private readonly sandbox: ServiceSandbox | undefined;
  private readonly prestarted: PrestartedShells;

  constructor(options: LocalJobServiceOptions) {
    const registry = new JobRegistry({
      cwd: options.cwd,
      env: options.env,
      ...(options.settings ? { settings: options.settings } : {}),
      ...(options.marker ? { marker: options.marker } : {}),
      // The private /tmp and bash's full-output files live in this process's temp folder.
      ...(options.sandbox ? { sandbox: new CommandSandbox(processTempFolder) } : {}),
    });
    this.registry = registry;
    this.sandbox = options.sandbox;
    this.prestarted = new PrestartedShells(options.marker);
    const fence = options.sandbox ? modelFence(registry, options.sandbox.policy, [processTempFolder()]) : undefined;
    const bash = createBashTool(options.cwd, {
      env: options.env,
      maxOutputChars: registry.settings.maxOutputChars,
      // `server &` in a bash call outlives the call: the registry ends it with the jobs.
      onBackgroundLeft: (pgid, callEnv) => registry.adoptGroup(pgid, { mark: callEnv[JOB_MARKER_VARIABLE] }),
      callEnv: () => registry.callMark(),
      ...(options.marker ? { marker: options.marker } : {}),
      ...(options.secrets ? { secrets: options.secrets } : {}),
      // A call still running at the end of its wait, or when the person steers, becomes a job.
      adopter: bashAdopter(registry),
      ...(fence ? { fence, prestarted: this.prestarted } : {}),
    });
    this.tools = new Map([bash, ...createJobTools(toolJobs(registry, fence ? { modelFence: fence } : {}))].map((tool) => [tool.name, tool]));
  }

  get settings(): JobSettings {
    return this.registry.settings;
  }

  subscribe(listener: (event: JobEvent) => void): () => void {
    return this.registry.subscribe(listener);
  }

  list(): JobInfo[] {
    return this.registry.list().map((job) => job.info);
  }

  get(id: string): JobInfo | undefined {
    return this.registry.get(id)?.info;
  }

  runningCount(): number {
    return this.registry.runningCount();
  }

  async runTool(call: ServiceToolCall): Promise<ToolResult> {
    const tool = this.tools.get(call.tool);
    if (!tool) throw new Error(`${call.tool} is not a job tool.`);
    return tool.execute(call.toolCallId, call.params as never, call.signal, call.onUpdate, call.context);
  }

  async start(command: string, size?: TerminalSize): Promise<JobInfo> {
    const fence = this.sandbox ? await this.registry.makeFence({ policy: withProfile(this.sandbox.policy, this.sandbox.personProfile) }) : undefined;
    return this.registry.start({ command, startedBy: "person", ...(size ? { size } : {}), ...(fence ? { fence } : {}) }).info;
  }

  kill(id: string, signal?: NodeJS.Signals): Promise<JobInfo> {
    return this.registry.kill(id, { by: "person", ...(signal ? { signal } : {}) });
  }

  async restart(id: string, size?: TerminalSize, profile?: SandboxProfile): Promise<JobInfo> {
    return (await this.registry.restart(id, "person", size, undefined, profile)).info;
  }

  async remove(id: string): Promise<boolean> {
    return this.registry.remove(id);
  }

  async write(id: string, data: string, options: { eof?: boolean } = {}): Promise<void> {
    this.registry.write(id, data, { eof: options.eof ?? false, by: "person" });
  }

  async text(id: string, kind: JobTextKind, count?: number): Promise<string[]> {
    return readJobText(this.registry, id, kind, count);
  }

  open(id: string): JobScreen | undefined {
    this.screens ??= new LocalScreens(this.registry);
    return this.screens.open(id);
  }

  async addTrigger(id: string, trigger: { pattern: string; action: WatchAction }): Promise<TriggerInfo> {
    return this.registry.watches.add(id, { ...trigger, setBy: "person" });
  }

  async removeTriggers(id: string, triggerId?: number): Promise<TriggerInfo[]> {
    return this.registry.watches.remove(id, triggerId, "person");
  }

  triggers(id: string): TriggerInfo[] {
    return this.registry.watches.list(id);
  }

  notePersonAction(text: string): void {
    this.registry.notePersonAction(text);
  }

  adoptGroup(pgid: number): void {
    this.registry.adoptGroup(pgid);
  }

  prepare(): Promise<void> {
    // The jobs run in this process: nothing to start.
    return Promise.resolve();
  }

  async drainNotices(): Promise<JobNotice[]> {
    return this.registry.drainNotices();
  }

  async summaryLines(): Promise<string[]> {
    return jobSnapshotLines(this.registry.list());
  }

  async shutdown(): Promise<void> {
    this.screens?.dispose();
    this.prestarted.dispose();
    this.screens = undefined;
    await this.registry.shutdown();
  }

  killAllSync(): void {
    this.registry.killAllSync();
  }
}
