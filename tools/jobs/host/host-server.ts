// The job host's server: one JobRegistry (ptys, process groups, emulators, logs) serving every
// pitwall of one working directory over a Unix socket. Each client is greeted (or refused when its
// version differs: host-greeting.ts), then calls methods (wire/methods.ts, dispatched by
// host-methods.ts) and receives job events, screen updates of the jobs it watches
// (screen-plumbing.ts), and the live output of its tool calls. The model's job tools and bash run
// here, next to the logs, with the client's own limits and environment (run-tool.ts). Each client's
// connection is a HostClient (host-client.ts); this file keeps the socket, the clients, the events
// they receive, and the host's lifetime.
//
// Lifetime: a dashboard that goes away (quit with "keep", a closed terminal, kill -9, the OOM
// killer) leaves its jobs running, unowned; the next dashboard to attach takes them over. While no
// dashboard is attached, unowned jobs are stopped after the grace period (keepJobsMs). Print, JSON
// and other clients' jobs are stopped when they disconnect. The host is done (onIdle) once it has
// no client and no running job: jobs that have ended are not kept for anyone then (the next
// pitwall -c tells its agent which jobs it knew as running ended).
import { OutputHistory } from "./output-history.js";
import { createServer, type Server, type Socket } from "node:net";
import { chmodSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { JobEvent } from "../events.js";
import { formatDuration, lastLines } from "../format.js";
import type { JobRegistry } from "../registry/job-registry.js";
import type { Job } from "../process/job.js";
import { groupAlive } from "../../process-group.js";
import { ScreenWatches } from "../terminal/screen-watch.js";
import type { ChildMarker } from "../../process/process-guard.js";
import { PrestartedShells } from "../../process/prestarted-shells.js";
import type { HostStatus } from "../wire/methods.js";
import { policyHere, type SandboxPolicy } from "../../sandbox/index.js";
import { HostClient } from "./host-client.js";
import type { HostContext } from "./host-context.js";
import { OpenImages } from "./open-images.js";
import { greet, type GreetingHost } from "./host-greeting.js";
import { dispatch } from "./host-methods.js";
import { closeViews } from "./screen-plumbing.js";

export { keptNotice } from "./host-greeting.js";

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
  /** pitwall's folder on this machine (the host's PITWALL_HOME): read-only to a remote client's commands. */
  pitwallHome?: string;
  /** The bubblewrap program of a remote client's commands (PITWALL_BWRAP on this machine); the PATH's when not given. */
  bwrap?: string;
}

export class JobHostServer implements HostContext, GreetingHost {
  readonly watches: ScreenWatches;
  private readonly server: Server;
  private readonly clients = new Set<HostClient>();
  private readonly unsubscribe: () => void;
  private nextClient = 1;
  private keepJobsMs: number;
  private graceTimer: NodeJS.Timeout | undefined;
  private graceEndsAt: number | undefined;
  private closing = false;
  /** Remote clients whose link dropped: their jobs are kept for them until the timer ends. */
  private readonly held = new Map<string, NodeJS.Timeout>();
  readonly history = new OutputHistory();
  readonly prestarted: PrestartedShells;
  readonly images = new OpenImages();
  /** Set once a remote client greets: only a remote link may drop and come back, so only then is output kept for it. */
  servesRemote = false;
  /** Which held clients were dashboards: a new dashboard takes their jobs over as it would a left one's. */
  private readonly heldDashboards = new Set<string>();

  constructor(private readonly options: HostServerOptions) {
    this.keepJobsMs = options.keepJobsMs;
    this.prestarted = new PrestartedShells(options.marker);
    this.watches = new ScreenWatches(options.registry);
    this.unsubscribe = options.registry.subscribe((event) => this.broadcast(event));
    this.server = createServer((socket) => this.accept(socket));
  }

  get registry(): JobRegistry {
    return this.options.registry;
  }

  get cwd(): string {
    return this.options.cwd;
  }

  get marker(): ChildMarker | undefined {
    return this.options.marker;
  }

  get version(): string {
    return this.options.version;
  }

  policyHere(policy: SandboxPolicy): SandboxPolicy {
    const { XDG_RUNTIME_DIR: runtimeDir, SSH_AUTH_SOCK: sshAuthSock } = process.env;
    return policyHere(policy, {
      home: homedir(),
      pitwallHome: this.options.pitwallHome ?? join(homedir(), ".pitwall"),
      ...(runtimeDir ? { runtimeDir } : {}),
      ...(sshAuthSock ? { sshAuthSock } : {}),
      ...(this.options.bwrap ? { bwrap: this.options.bwrap } : {}),
    });
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
    for (const timer of this.held.values()) clearTimeout(timer);
    this.unsubscribe();
    this.watches.dispose();
    this.prestarted.dispose();
    for (const client of this.clients) client.socket.destroy();
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      rmSync(this.options.socketPath, { force: true });
    });
  }

  /** Checks whether the host is done: no client and no running job. */
  checkIdle(): void {
    if (this.closing) return;
    this.updateGrace();
    // A held client's yielded bash call may not be a job yet: not idle while one is held.
    if (this.clients.size === 0 && this.held.size === 0 && !this.registry.list().some(stillRuns)) this.options.onIdle();
  }

  /** Whether a client's call is in progress or a job runs. */
  busy(): boolean {
    return [...this.clients].some((client) => client.calls.size > 0) || this.registry.list().some(stillRuns);
  }

  agentOf(clientId: string): string | undefined {
    return [...this.clients].find((client) => client.id === clientId)?.info?.agent;
  }

  dashboardAttached(): boolean {
    return [...this.clients].some((c) => c.info?.kind === "dashboard");
  }

  keepJobsFor(ms: number): void {
    this.keepJobsMs = ms;
  }

  status(): HostStatus {
    return {
      pid: process.pid,
      version: this.options.version,
      cwd: this.options.cwd,
      clients: [...this.clients].flatMap((c) => (c.info ? [c.info.kind] : [])),
      ...(this.graceEndsAt !== undefined ? { keptUntil: this.graceEndsAt } : {}),
      jobs: this.registry.list().map((job) => ({ job: job.info, lastLine: lastLines(job.log, 1, 200)[0] ?? "", kept: job.owner === undefined })),
    };
  }

  /** The grace clock runs while unowned jobs run and no dashboard is attached. */
  updateGrace(): void {
    const dashboard = this.dashboardAttached();
    const waiting = this.registry.unowned().some(stillRuns);
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

  // ---- connections -------------------------------------------------------------------------

  private accept(socket: Socket): void {
    const client = new HostClient(`c${this.nextClient++}`, socket, {
      greet: (from, message) => greet(from, message, this),
      call: (from, id, method, args) => dispatch(from, id, method, args, this),
      closed: (from) => this.disconnected(from),
    });
    this.clients.add(client);
  }

  resumeHeld(oldId: string, newId: string): boolean {
    const timer = this.held.get(oldId);
    if (!timer) return false;
    clearTimeout(timer);
    this.held.delete(oldId);
    this.heldDashboards.delete(oldId);
    this.registry.transfer(oldId, newId);
    return true;
  }

  releaseHeldDashboards(): void {
    for (const id of this.heldDashboards) {
      clearTimeout(this.held.get(id));
      this.held.delete(id);
      this.registry.release(id);
    }
    this.heldDashboards.clear();
  }

  private disconnected(client: HostClient): void {
    this.clients.delete(client);
    client.output.drop();
    const info = client.info;
    // A remote link may come back: a call in flight goes on (bash as a job) rather than being killed.
    for (const call of client.calls.values()) (info?.remote ? call.yield : call.abort).abort();
    closeViews(client, this.watches);
    void this.images.release(client.id);
    if (!info || client.stopped) return this.checkIdle();
    if (info.remote) {
      // Held for the client's return (RemoteJobService reconnects with `resumes`) for the grace
      // period, then stopped; a bash call it yielded becomes one of its jobs meanwhile.
      const id = client.id;
      const timer = setTimeout(() => {
        this.held.delete(id);
        this.heldDashboards.delete(id);
        void this.registry.stopOwned(id).finally(() => this.checkIdle());
      }, this.keepJobsMs);
      timer.unref();
      this.held.set(id, timer);
      if (info.kind === "dashboard") this.heldDashboards.add(id);
      this.checkIdle();
    } else if (info.kind === "dashboard") {
      // However the dashboard went, its jobs run on for the next one (within the grace period).
      this.registry.release(client.id);
      this.checkIdle();
    } else {
      void this.registry.stopOwned(client.id).finally(() => this.checkIdle());
    }
  }

  // ---- events --------------------------------------------------------------------------------

  private broadcast(event: JobEvent): void {
    const now = Date.now();
    if (this.servesRemote) this.history.record(event);
    // A firing is acted on by the agent of the client that set the trigger (or, when that client
    // has gone, that owns the job), and by no other (with no owner, the registry keeps it as a
    // notice for the next dashboard).
    const setter = event.type === "job_triggered" ? event.trigger.owner : undefined;
    const setterHere = setter !== undefined && [...this.clients].some((client) => client.id === setter);
    const onlyTo = event.type === "job_triggered" ? ((setterHere ? setter : undefined) ?? this.registry.get(event.jobId)?.owner ?? null) : undefined;
    for (const client of this.clients) {
      const info = client.info;
      if (!info) continue;
      if (onlyTo !== undefined && client.id !== onlyTo) continue;
      if (event.type === "job_output") {
        if (info.output === "none") continue;
        if (info.output === "sampled") client.output.sample(event, now);
        else client.sendOutput(event);
        continue;
      }
      // A job's output comes before its exit.
      if (event.type === "job_exited" && info.output === "sampled") client.output.flush(event.job.id);
      // Only the owner's agent is told of an exit.
      if (event.type === "job_exited" && event.told) client.send({ type: "event", event: { ...event, told: this.registry.get(event.job.id)?.owner === client.id } });
      else client.send({ type: "event", event });
    }
    if (event.type === "job_removed" || event.type === "job_exited") this.checkIdle();
  }
}

/** A job whose command runs, or whose processes do (it left some behind in its group). */
function stillRuns(job: Job): boolean {
  return job.running || groupAlive(job.pid);
}
