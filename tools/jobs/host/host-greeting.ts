// The job host's side of the handshake (wire/handshake.ts): a client's first message must be a
// hello. A client of another protocol or pitwall version gets a mismatch (the host's versions, pid
// and jobs) and the connection is closed; a client of the same version is welcomed with the jobs
// and their triggers. A dashboard takes over the jobs an earlier one left running, and its agent is
// told which.
import type { OutputHistory } from "./output-history.js";
import type { JobInfo } from "../events.js";
import { describeStatus, formatDuration, runtime, shortCommand } from "../format.js";
import type { JobRegistry } from "../registry/job-registry.js";
import { checkClientInfo, checkHello, PROTOCOL_VERSION } from "../wire/handshake.js";
import type { HostClient } from "./host-client.js";

/** What a greeting needs of the server. */
export interface GreetingHost {
  readonly registry: JobRegistry;
  /** The host's pitwall version: a client's must be the same. */
  readonly version: string;
  /** Set when a remote client greets: the host then keeps the output a reconnect resumes from. */
  servesRemote: boolean;
  /** A dashboard says how long the jobs it leaves running are kept without one (the latest wins). */
  keepJobsFor(ms: number): void;
  /** Restarts or stops the grace clock (a dashboard attached). */
  updateGrace(): void;
  /** A remote client came back (info.resumes): what its old connection owned is its again; true when the host held it. */
  resumeHeld(oldId: string, newId: string): boolean;
  /** The newest output of each job, for a client that comes back (info.since). */
  readonly history: OutputHistory;
  /** The jobs of remote dashboards whose link dropped become unowned (a new dashboard takes them over). */
  releaseHeldDashboards(): void;
}

/** The first message: the client's versions and who it is. */
export function greet(client: HostClient, message: unknown, host: GreetingHost): void {
  const registry = host.registry;
  if (!checkHello.check(message)) return client.drop("no hello");
  if (message.protocol !== PROTOCOL_VERSION || message.version !== host.version) {
    const jobs = registry.list().map((job) => ({ id: job.id, command: job.command, status: describeStatus(job.info) }));
    client.send({ type: "mismatch", protocol: PROTOCOL_VERSION, version: host.version, pid: process.pid, jobs });
    client.socket.end();
    return;
  }
  if (!checkClientInfo.check(message.client)) return client.drop(`a malformed hello (${checkClientInfo.problem(message.client)})`);
  const info = message.client;
  client.info = info;
  if (info.remote) host.servesRemote = true;
  if (info.nextId !== undefined) registry.reserveIds(info.nextId);
  let adopted: string[] = [];
  if (info.resumes !== undefined && host.resumeHeld(info.resumes, client.id)) {
    // Its own jobs, held while its link was down: nothing to tell its agent.
  } else if (info.kind === "dashboard") {
    host.releaseHeldDashboards();
    if (info.keepJobsMs !== undefined) host.keepJobsFor(info.keepJobsMs);
    const jobs = registry.adoptUnowned(client.id);
    adopted = jobs.map((job) => job.id);
    const running = jobs.filter((job) => job.running);
    if (running.length > 0) registry.notePersonAction(keptNotice(running.map((job) => job.info)), client.id);
  }
  // A client that comes back is sent what it missed right after its welcome, before anything new.
  const replay = (info.output === "none" ? [] : (info.since ?? [])).map(({ id, offset }) => ({ id, ...host.history.since(id, offset) }));
  const missed = replay.filter((r) => r.missed > 0).map((r) => ({ id: r.id, chars: r.missed }));
  client.send({
    type: "welcome",
    protocol: PROTOCOL_VERSION,
    version: host.version,
    pid: process.pid,
    clientId: client.id,
    jobs: registry.list().map((job) => job.info),
    adopted,
    exitsToTell: registry.exitsToTell(client.id),
    triggers: registry.list().flatMap((job) => {
      const triggers = registry.watches.list(job.id);
      return triggers.length > 0 ? [{ jobId: job.id, triggers }] : [];
    }),
    ...(missed.length > 0 ? { missed } : {}),
  });
  for (const { events } of replay) for (const event of events) client.send({ type: "event", event });
  host.updateGrace();
}

/** What an agent is told when its dashboard takes over jobs an earlier pitwall left running. */
export function keptNotice(jobs: JobInfo[], now: number = Date.now()): string {
  const lines = jobs.map((info) => {
    const who = info.startedBy === "person" ? "the person" : "the agent";
    return `job ${info.id} (${shortCommand(info.command)}, started by ${who}): running for ${formatDuration(runtime(info, now))}`;
  });
  return `These jobs were left running by an earlier pitwall in this folder and are still running (ids go on from them; poll_process and get_process_log read their output):\n${lines.join("\n")}`;
}
