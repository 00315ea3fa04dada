// The job host's server: one JobRegistry (ptys, process groups, emulators, logs) serving every
// pitwall of one working directory over a Unix socket. Each client is greeted (or refused when its
// version differs), then calls methods (wire/methods.ts) and receives job events, screen updates of the
// jobs it watches, and the live output of its tool calls. The model's job tools and bash run here,
// next to the logs, with the client's own limits and environment.
//
// Lifetime: a dashboard that goes away (quit with "keep", a closed terminal, kill -9, the OOM
// killer) leaves its jobs running, unowned; the next dashboard to attach takes them over. While no
// dashboard is attached, unowned jobs are stopped after the grace period (keepJobsMs). Print, JSON
// and other clients' jobs are stopped when they disconnect. The host is done (onIdle) once it has
// no client and no job.
import { createServer, type Server, type Socket } from "node:net";
import { chmodSync, rmSync } from "node:fs";
import type { JobEvent, JobInfo, JobStream } from "../events.js";
import { jobSnapshotLines, lastLines, describeStatus, formatDuration, runtime, shortCommand } from "../format.js";
import type { JobRegistry } from "../registry/job-registry.js";
import { isJobToolName, createJobTools } from "../model-tools/job-tools.js";
import { readJobText } from "../registry/job-text.js";
import { bashAdopter } from "../model-tools/bash-adoption.js";
import { ScreenWatches, type ScreenWatch } from "../terminal/screen-watch.js";
import { createBashTool } from "../model-tools/bash-tool.js";
import { refusalOf } from "../wire/refusals.js";
import { JOB_MARKER_VARIABLE } from "../../process/marked-processes.js";
import type { ChildMarker } from "../../process/process-guard.js";
import type { AgentTool } from "../../tool.js";
import { encodeMessage, LineSplitter } from "../wire/framing.js";
import { checkClientInfo, checkHello, PROTOCOL_VERSION, type ClientInfo } from "../wire/handshake.js";
import { argsChecker, checkClientMessage, isMethodName, type HostMessage, type HostStatus, type MethodArgs, type MethodName } from "../wire/methods.js";
import type { JobSettings } from "../settings.js";
import type { ToolJobs } from "../model-tools/tool-jobs.js";

export interface HostServerOptions {
  cwd: string;
  socketPath: string;
  registry: JobRegistry;
  /** The host's own guard: bash calls carry its marker (jobs get it from the registry). */
  marker?: ChildMarker;
  version: string;
  /** How long jobs left running without a dashboard are kept (the latest dashboard's setting wins). */
  keepJobsMs: number;
  /** Called when the host has nothing left to do: no client, no job. */
  onIdle: () => void;
}

/**
 * A "sampled" client (a dashboard) gets a job's output at most this often, what came in between
 * held and sent at the end of the interval, or before the job's exit: the output of a call its
 * tool pane shows must end with the job's last lines.
 */
const OUTPUT_SAMPLE_MS = 250;
/** What is held for a sampled client, per job: the newest output, from a line start. */
const HELD_OUTPUT_CHARS = 16 * 1024;
/** Screen updates wait while this much is still queued for a client's socket (a slow client gets fewer frames). */
const SCREEN_BACKLOG_BYTES = 1024 * 1024;

interface Call {
  abort: AbortController;
  yield: AbortController;
}

/** Output held back from a sampled client: its chunks in order, the oldest dropped once the rest fill the hold. */
interface HeldOutput {
  stream: JobStream;
  chunks: string[];
  chars: number;
  timer: NodeJS.Timeout;
}

/** The newest HELD_OUTPUT_CHARS of held output, from a line start where there is one. */
function newestOutput(text: string): string {
  if (text.length <= HELD_OUTPUT_CHARS) return text;
  const cut = text.length - HELD_OUTPUT_CHARS;
  const lineStart = text.indexOf("\n", cut);
  return text.slice(lineStart === -1 ? cut : lineStart + 1);
}

class HostClient {
  info: ClientInfo | undefined;
  readonly calls = new Map<number, Call>();
  readonly watches = new Map<number, ScreenWatch>();
  readonly follows = new Map<number, () => void>();
  readonly lastOutput = new Map<string, number>();
  /** Output held back from a sampled client, by job, until its interval ends or the job exits. */
  private readonly heldOutput = new Map<string, HeldOutput>();
  /** The client asked for its jobs to be stopped; nothing more to do when it goes. */
  stopped = false;

  constructor(
    readonly id: string,
    readonly socket: Socket,
  ) {}

  send(message: HostMessage | Record<string, unknown>): void {
    if (!this.socket.destroyed) this.socket.write(encodeMessage(message));
  }

  /**
   * Sends a job's output to a sampled client: at once if the interval since the last has passed,
   * else held (the newest HELD_OUTPUT_CHARS of it) and sent when it has.
   */
  sampleOutput(event: Extract<JobEvent, { type: "job_output" }>, now: number): void {
    let previous = this.heldOutput.get(event.jobId);
    if (previous && previous.stream !== event.stream) {
      this.flushOutput(event.jobId);
      previous = undefined;
    }
    const waited = now - (this.lastOutput.get(event.jobId) ?? -Infinity);
    if (waited >= OUTPUT_SAMPLE_MS && !previous) {
      this.lastOutput.set(event.jobId, now);
      this.send({ type: "event", event });
      return;
    }
    const held = previous ?? { stream: event.stream, chunks: [], chars: 0, timer: setTimeout(() => this.flushOutput(event.jobId), Math.max(0, OUTPUT_SAMPLE_MS - waited)) };
    held.chunks.push(event.chunk);
    held.chars += event.chunk.length;
    // A flood: only its newest HELD_OUTPUT_CHARS are sent, so older chunks go as they fall out.
    while (held.chunks.length > 1 && held.chars - held.chunks[0]!.length >= HELD_OUTPUT_CHARS) held.chars -= held.chunks.shift()!.length;
    this.heldOutput.set(event.jobId, held);
  }

  /** Sends what is held of a job's output now (before its exit, or at the end of its interval). */
  flushOutput(jobId: string): void {
    const held = this.heldOutput.get(jobId);
    if (!held) return;
    clearTimeout(held.timer);
    this.heldOutput.delete(jobId);
    this.lastOutput.set(jobId, Date.now());
    this.send({ type: "event", event: { type: "job_output", jobId, stream: held.stream, chunk: newestOutput(held.chunks.join("")) } });
  }

  /** The client went: nothing held is sent. */
  dropHeldOutput(): void {
    for (const held of this.heldOutput.values()) clearTimeout(held.timer);
    this.heldOutput.clear();
  }

  get backlogged(): boolean {
    return this.socket.writableLength > SCREEN_BACKLOG_BYTES;
  }
}

export class JobHostServer {
  private readonly server: Server;
  private readonly clients = new Set<HostClient>();
  private readonly watches: ScreenWatches;
  private readonly unsubscribe: () => void;
  private nextClient = 1;
  private keepJobsMs: number;
  private graceTimer: NodeJS.Timeout | undefined;
  private graceEndsAt: number | undefined;
  private closing = false;

  constructor(private readonly options: HostServerOptions) {
    this.keepJobsMs = options.keepJobsMs;
    this.watches = new ScreenWatches(options.registry);
    this.unsubscribe = options.registry.subscribe((event) => this.broadcast(event));
    this.server = createServer((socket) => this.accept(socket));
  }

  get registry(): JobRegistry {
    return this.options.registry;
  }

  /** Listens on the socket (mode 0600 inside the private folder). */
  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.socketPath, () => {
        this.server.off("error", reject);
        chmodSync(this.options.socketPath, 0o600);
        resolve();
      });
    });
  }

  /** Clients connected now, by kind. */
  clientKinds(): string[] {
    return [...this.clients].flatMap((c) => (c.info ? [c.info.kind] : []));
  }

  /** Stops listening and lets every client go (the jobs are the caller's to end). */
  close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.graceTimer);
    this.unsubscribe();
    this.watches.dispose();
    for (const client of this.clients) client.socket.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      rmSync(this.options.socketPath, { force: true });
    });
  }

  /** Checks whether the host is done: no client and no job. */
  checkIdle(): void {
    if (this.closing) return;
    this.updateGrace();
    if (this.clients.size === 0 && this.registry.list().length === 0) this.options.onIdle();
  }

  // ---- connections -------------------------------------------------------------------------

  private accept(socket: Socket): void {
    const client = new HostClient(`c${this.nextClient++}`, socket);
    this.clients.add(client);
    socket.setEncoding("utf8");
    const lines = new LineSplitter((line) => this.receive(client, line));
    socket.on("data", (chunk: string) => {
      try {
        lines.push(chunk);
      } catch (error) {
        this.drop(client, error instanceof Error ? error.message : String(error));
      }
    });
    socket.on("error", () => undefined);
    socket.on("close", () => this.disconnected(client));
  }

  /** Ends a connection that sent something that is not a message of this protocol. */
  private drop(client: HostClient, why: string): void {
    process.stderr.write(`job host: ${client.id} sent ${why}; disconnected\n`);
    client.socket.destroy();
  }

  private receive(client: HostClient, line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return this.drop(client, "a line that is not JSON");
    }
    if (!client.info) return this.greet(client, message);
    if (!checkClientMessage.check(message)) return this.drop(client, `a malformed message (${checkClientMessage.problem(message)})`);
    if (message.type === "signal") {
      const call = client.calls.get(message.id);
      if (call) (message.signal === "abort" ? call.abort : call.yield).abort();
      return;
    }
    const { id, method, args } = message;
    if (!isMethodName(method)) return client.send({ type: "failure", id, message: `The job host knows no method "${method}".` });
    const check = argsChecker(method);
    if (!check.check(args)) return client.send({ type: "failure", id, message: `Bad arguments for ${method}: ${check.problem(args)}` });
    this.run(client, id, method, args as MethodArgs<typeof method>).then(
      (value) => client.send({ type: "result", id, value: value ?? null }),
      (error: unknown) => {
        const refusal = refusalOf(error);
        client.send({ type: "failure", id, message: error instanceof Error ? error.message : String(error), ...(refusal ? { refusal } : {}) });
      },
    );
  }

  /** The first message: the client's versions and who it is. */
  private greet(client: HostClient, message: unknown): void {
    if (!checkHello.check(message)) return this.drop(client, "no hello");
    if (message.protocol !== PROTOCOL_VERSION || message.version !== this.options.version) {
      const jobs = this.registry.list().map((job) => ({ id: job.id, command: job.command, status: describeStatus(job.info) }));
      client.send({ type: "mismatch", protocol: PROTOCOL_VERSION, version: this.options.version, pid: process.pid, jobs });
      client.socket.end();
      return;
    }
    if (!checkClientInfo.check(message.client)) return this.drop(client, `a malformed hello (${checkClientInfo.problem(message.client)})`);
    const info = message.client;
    client.info = info;
    if (info.nextId !== undefined) this.registry.reserveIds(info.nextId);
    let adopted: string[] = [];
    if (info.kind === "dashboard") {
      if (info.keepJobsMs !== undefined) this.keepJobsMs = info.keepJobsMs;
      const jobs = this.registry.adoptUnowned(client.id);
      adopted = jobs.map((job) => job.id);
      const running = jobs.filter((job) => job.running);
      if (running.length > 0) this.registry.notePersonAction(keptNotice(running.map((job) => job.info)), client.id);
    }
    client.send({
      type: "welcome",
      protocol: PROTOCOL_VERSION,
      version: this.options.version,
      pid: process.pid,
      clientId: client.id,
      jobs: this.registry.list().map((job) => job.info),
      adopted,
      triggers: this.registry.list().flatMap((job) => {
        const triggers = this.registry.watches.list(job.id);
        return triggers.length > 0 ? [{ jobId: job.id, triggers }] : [];
      }),
    });
    this.updateGrace();
  }

  private disconnected(client: HostClient): void {
    this.clients.delete(client);
    client.dropHeldOutput();
    for (const call of client.calls.values()) call.abort.abort();
    for (const watch of client.watches.values()) this.watches.close(watch);
    for (const stop of client.follows.values()) stop();
    const info = client.info;
    if (!info || client.stopped) return this.checkIdle();
    if (info.kind === "dashboard") {
      // However the dashboard went, its jobs run on for the next one (within the grace period).
      this.registry.release(client.id);
      this.checkIdle();
    } else {
      void this.registry.stopOwned(client.id).finally(() => this.checkIdle());
    }
  }

  /** The grace clock runs while unowned jobs wait and no dashboard is attached. */
  private updateGrace(): void {
    const dashboard = [...this.clients].some((c) => c.info?.kind === "dashboard");
    const waiting = this.registry.unowned().length > 0;
    if (dashboard || !waiting) {
      clearTimeout(this.graceTimer);
      this.graceTimer = undefined;
      this.graceEndsAt = undefined;
      return;
    }
    if (this.graceTimer) return;
    this.graceEndsAt = Date.now() + this.keepJobsMs;
    this.graceTimer = setTimeout(() => {
      this.graceTimer = undefined;
      this.graceEndsAt = undefined;
      process.stderr.write(`job host: no pitwall attached for ${formatDuration(this.keepJobsMs)}: stopping the jobs left running\n`);
      void this.registry.stopOwned(undefined).finally(() => this.checkIdle());
    }, this.keepJobsMs);
  }

  // ---- events --------------------------------------------------------------------------------

  private broadcast(event: JobEvent): void {
    const now = Date.now();
    // A firing is acted on by the agent of the client that owns the job, and by no other
    // (with no owner, the registry keeps it as a notice for the next dashboard).
    const onlyTo = event.type === "job_triggered" ? (this.registry.get(event.jobId)?.owner ?? null) : undefined;
    for (const client of this.clients) {
      const info = client.info;
      if (!info) continue;
      if (onlyTo !== undefined && client.id !== onlyTo) continue;
      if (event.type === "job_output") {
        if (info.output === "none") continue;
        if (info.output === "sampled") {
          client.sampleOutput(event, now);
          continue;
        }
      }
      // A job's output comes before its exit.
      if (event.type === "job_exited" && info.output === "sampled") client.flushOutput(event.job.id);
      client.send({ type: "event", event });
    }
    if (event.type === "job_removed" || event.type === "job_exited") this.checkIdle();
  }

  // ---- methods -------------------------------------------------------------------------------

  private async run<M extends MethodName>(client: HostClient, id: number, method: M, args: MethodArgs<M>): Promise<unknown> {
    const registry = this.registry;
    const owner = client.id;
    switch (method) {
      case "runTool":
        return this.runTool(client, id, args as MethodArgs<"runTool">);
      case "start": {
        const a = args as MethodArgs<"start">;
        const job = registry.start({ command: a.command, startedBy: "person", owner, baseEnv: a.env, ...(a.size ? { size: a.size } : {}) });
        return job.info;
      }
      case "kill": {
        const a = args as MethodArgs<"kill">;
        return registry.kill(a.id, { by: "person", actor: owner, ...(a.signal ? { signal: a.signal as NodeJS.Signals } : {}) });
      }
      case "restart": {
        const a = args as MethodArgs<"restart">;
        return (await registry.restart(a.id, "person", a.size, owner)).info;
      }
      case "remove":
        return registry.remove((args as MethodArgs<"remove">).id, owner);
      case "write": {
        const a = args as MethodArgs<"write">;
        registry.write(a.id, a.data, { eof: a.eof ?? false, by: "person", actor: owner });
        return null;
      }
      case "text": {
        const a = args as MethodArgs<"text">;
        return readJobText(registry, a.id, a.kind, a.count);
      }
      case "watch": {
        const a = args as MethodArgs<"watch">;
        const watch = this.watches.open(a.id, (update) => {
          if (client.backlogged) return false;
          client.send({ type: "screen", watch: a.watch, update });
          return true;
        });
        if (!watch) return false;
        client.watches.set(a.watch, watch);
        return true;
      }
      case "unwatch": {
        const a = args as MethodArgs<"unwatch">;
        const watch = client.watches.get(a.watch);
        if (watch) this.watches.close(watch);
        client.watches.delete(a.watch);
        return null;
      }
      case "scroll": {
        const a = args as MethodArgs<"scroll">;
        const watch = client.watches.get(a.watch);
        if (a.by !== undefined) watch?.scroll({ by: a.by });
        else if (a.to !== undefined) watch?.scroll({ to: a.to });
        return null;
      }
      case "resize": {
        const a = args as MethodArgs<"resize">;
        registry.get(a.id)?.resize(a.cols, a.rows);
        return null;
      }
      case "follow":
        return this.follow(client, args as MethodArgs<"follow">);
      case "addTrigger": {
        const a = args as MethodArgs<"addTrigger">;
        return registry.watches.add(a.id, { pattern: a.pattern, action: a.action, setBy: "person" });
      }
      case "removeTriggers": {
        const a = args as MethodArgs<"removeTriggers">;
        return registry.watches.remove(a.id, a.trigger, "person");
      }
      case "note":
        registry.notePersonAction((args as MethodArgs<"note">).text, owner);
        return null;
      case "notices":
        return registry.drainNotices(owner);
      case "summary":
        return jobSnapshotLines(registry.list());
      case "status":
        return this.status();
      case "stopOwned":
        client.stopped = true;
        await registry.stopOwned(owner);
        return null;
      case "stop":
        return this.stop(args as MethodArgs<"stop">);
      default:
        throw new Error(`The job host knows no method "${String(method)}".`);
    }
  }

  private async runTool(client: HostClient, id: number, args: MethodArgs<"runTool">): Promise<unknown> {
    const registry = this.registry;
    const owner = client.id;
    const settings: JobSettings = { ...registry.settings, maxOutputChars: args.settings.maxOutputChars, defaultYieldMs: args.settings.defaultYieldMs };
    const jobs = clientJobs(registry, owner, args.env);
    let tool: AgentTool | undefined;
    if (args.tool === "bash") {
      tool = createBashTool(this.options.cwd, {
        env: args.env,
        maxOutputChars: settings.maxOutputChars,
        onBackgroundLeft: (pgid, callEnv) => registry.adoptGroup(pgid, { owner, mark: callEnv[JOB_MARKER_VARIABLE] }),
        callEnv: () => registry.callMark(),
        ...(this.options.marker ? { marker: this.options.marker } : {}),
        secrets: args.secrets,
        ...(args.outputDir !== undefined ? { outputDir: args.outputDir } : {}),
        adopter: bashAdopter(jobs, settings),
      });
    } else if (isJobToolName(args.tool)) {
      tool = createJobTools(jobs, settings).find((t) => t.name === args.tool);
    }
    if (!tool) throw new Error(`${args.tool} is not a job tool.`);
    const call: Call = { abort: new AbortController(), yield: new AbortController() };
    client.calls.set(id, call);
    try {
      return await tool.execute(args.toolCallId, args.params as never, call.abort.signal, (update) => client.send({ type: "update", id, chunk: update.chunk }), {
        yieldSignal: call.yield.signal,
      });
    } finally {
      client.calls.delete(id);
    }
  }

  /**
   * `pitwall jobs stop`: each job (every job, with "all") is stopped with all it started, escapes
   * included; its agent is told. With no dashboard attached, the stopped jobs are forgotten too.
   */
  private async stop(args: MethodArgs<"stop">): Promise<JobInfo[]> {
    const registry = this.registry;
    const ids = args.ids === "all" ? registry.list().map((job) => job.id) : args.ids;
    const stopped = await Promise.all(ids.map((id) => registry.kill(id, { by: "person", actor: registry.get(id)?.owner ?? "" })));
    if (args.ids === "all") await registry.endLeftoverGroups();
    if (![...this.clients].some((c) => c.info?.kind === "dashboard")) await registry.stopOwned(undefined);
    this.checkIdle();
    return stopped;
  }

  private follow(client: HostClient, args: MethodArgs<"follow">): string[] {
    const job = this.registry.get(args.id);
    if (!job) throw new Error(`No job "${args.id}".`);
    const stop = job.log.onLine((line) => client.send({ type: "lines", watch: args.watch, lines: [line] }));
    client.follows.set(args.watch, stop);
    return args.last > 0 ? job.log.tail(args.last) : [];
  }

  private status(): HostStatus {
    return {
      pid: process.pid,
      version: this.options.version,
      cwd: this.options.cwd,
      clients: [...this.clients].flatMap((c) => (c.info ? [c.info.kind] : [])),
      ...(this.graceEndsAt !== undefined ? { keptUntil: this.graceEndsAt } : {}),
      jobs: this.registry.list().map((job) => ({ job: job.info, lastLine: lastLines(job.log, 1, 200)[0] ?? "", kept: job.owner === undefined })),
    };
  }
}

/** The registry as one client's tools see it: what they start belongs to the client and inherits its environment. */
function clientJobs(registry: JobRegistry, owner: string, baseEnv: Record<string, string>): ToolJobs {
  return {
    settings: registry.settings,
    start: (options) => registry.start({ ...options, owner, baseEnv }),
    adoptRunning: (options) => registry.adoptRunning({ ...options, owner }),
    get: (id) => registry.get(id),
    list: () => registry.list(),
    kill: (id, options) => registry.kill(id, options),
    write: (id, data, options) => registry.write(id, data, options),
    reportYield: (toolCallId, job, tail) => registry.reportYield(toolCallId, job, tail),
    watches: registry.watches,
  };
}

/** What an agent is told when its dashboard takes over jobs an earlier pitwall left running. */
export function keptNotice(jobs: JobInfo[], now: number = Date.now()): string {
  const lines = jobs.map((info) => {
    const who = info.startedBy === "person" ? "the person" : "the agent";
    return `job ${info.id} (${shortCommand(info.command)}, started by ${who}): running for ${formatDuration(runtime(info, now))}`;
  });
  return `These jobs were left running by an earlier pitwall in this folder and are still running (ids go on from them; poll_process and get_process_log read their output):\n${lines.join("\n")}`;
}
