// What the dashboard tells the person about the sandbox: once, at start, when commands cannot be
// fenced where they run, here or on the remote (the status line keeps saying so; the chat says why
// and how to fix it), and in a remote session when the person's `!command`s cannot be fenced here,
// where they run; and one chat line per job (or tool call, or `!command`) and path the fence
// stopped, with what they can do about it. The jobs pane marks the job's row itself (from its JobInfo).
import type { PitwallEvent } from "../agent/events.js";
import { type JobService, RemoteJobService, shortCommand, type ServiceSandbox } from "../tools/jobs/index.js";
import { bwrapAvailability, fenceHitsOf, fenceNoticeForPerson, type Availability, type FenceHit, type SandboxProfile } from "../tools/sandbox/index.js";
import type { DashboardCommon } from "./dashboard-common.js";
import { displayKeyName } from "./keys/key-names.js";

type Unavailable = Extract<Availability, { ok: false }>;

/**
 * What the person is told, once, when no sandbox can be made where commands run: what happens to
 * them, why, and how to fix it. `where`: the remote machine they run on (`dev@box`), else this one.
 */
export function unfencedMessage(available: Unavailable, required: boolean, where?: string): string {
  if (where !== undefined) {
    return required
      ? `Commands on ${where} will not run: --sandbox required, and no sandbox can be made there: ${available.reason}. To fix it, on ${where}: ${available.fix}.`
      : `Commands on ${where} run unfenced, with the ssh login's permissions there: ${available.reason}. To fence them, on ${where}: ${available.fix}. (--sandbox required refuses to run commands instead.)`;
  }
  return required
    ? `Commands will not run: --sandbox required, and no sandbox can be made here: ${available.reason}. To fix it, ${available.fix}.`
    : `Commands run unfenced, with your permissions: ${available.reason}. To fence them, ${available.fix}. (--sandbox required refuses to run commands instead.)`;
}

/**
 * What the person is told, once, in a remote session whose `!command`s (which run on this machine,
 * under their personSandbox profile) cannot be fenced here, as a local session tells it.
 */
export function personCommandsUnfencedMessage(available: Unavailable, required: boolean): string {
  return required
    ? `Your !commands will not run: --sandbox required, and no sandbox can be made on this machine, where they run: ${available.reason}. To fix it, ${available.fix}.`
    : `Your !commands run on this machine unfenced, with your permissions: ${available.reason}. To fence them, ${available.fix}. (--sandbox required refuses to run them instead.)`;
}

/**
 * Whether the model's commands can be fenced where they run: bwrap probed on this machine, or, in a
 * remote session, on the remote by its job host. Undefined when they can, or when the remote cannot
 * be asked (its link's own messages say why).
 */
export async function unfencedWhere(jobs: JobService, sandbox: ServiceSandbox): Promise<{ available: Unavailable; where?: string } | undefined> {
  if (jobs instanceof RemoteJobService) {
    const available = await jobs.sandboxAvailability().catch(() => undefined);
    return available && !available.ok ? { available, where: jobs.destination } : undefined;
  }
  const available = await bwrapAvailability(sandbox.policy.bwrap);
  return available.ok ? undefined : { available };
}

export class FenceNotices {
  /** "<whose>\0<target>": what was told already. */
  private readonly told = new Set<string>();

  constructor(private readonly common: Pick<DashboardCommon, "notice" | "requestFrame" | "view" | "keymap">) {}

  /**
   * Tells once when the sandbox the person asked for cannot be made where commands run (no
   * bubblewrap, no user namespaces), here or on the remote; in a remote session, also when the
   * person's `!command`s, which run here, cannot be fenced here (the status line keeps the remote's state).
   */
  async announce(sandbox: ServiceSandbox, jobs: JobService): Promise<void> {
    if (sandbox.policy.profile === "off" && sandbox.personProfile === "off") return;
    const required = sandbox.policy.required;
    const [unfenced, personUnfenced] = await Promise.all([unfencedWhere(jobs, sandbox), this.personCommandsUnfenced(sandbox, jobs)]);
    if (unfenced) {
      this.common.view.status.state.sandbox = required ? "no sandbox: commands refused" : "unfenced";
      this.common.notice("warning", unfencedMessage(unfenced.available, required, unfenced.where));
    }
    if (personUnfenced) this.common.notice("warning", personCommandsUnfencedMessage(personUnfenced, required));
    if (unfenced || personUnfenced) this.common.requestFrame();
  }

  /** Why a remote session's `!command`s (run here, under the person's profile) cannot be fenced here; undefined when they can, are not fenced, or the session is local. */
  private async personCommandsUnfenced(sandbox: ServiceSandbox, jobs: JobService): Promise<Unavailable | undefined> {
    if (!(jobs instanceof RemoteJobService) || sandbox.personProfile === "off") return undefined;
    const available = await bwrapAvailability(sandbox.policy.bwrap);
    return available.ok ? undefined : available;
  }

  /** A bus event: a job the fence stopped, or a tool call's result that says what the fence stopped. */
  handle(event: PitwallEvent): void {
    if (event.type === "job_fenced") {
      this.tell(`job ${event.jobId}`, event.hit, `job ${event.jobId} (${shortCommand(event.command, 50)})`, (profile) => this.restartWords(event.jobId, profile));
    } else if (event.type === "tool_execution_end") {
      for (const hit of fenceHitsOf(event.details)) this.tell(`call ${event.toolCallId}`, hit, `the agent's ${event.toolName} call`);
    }
  }

  /** The fence stopped a `!command` of the person's. */
  personCommand(hit: FenceHit, command: string): void {
    this.tell(`! ${command}`, hit, `your command ! ${shortCommand(command, 50)}`, (profile) => `set "personSandbox": "${profile}" in ~/.pitwall/config.json`);
  }

  private tell(whose: string, hit: FenceHit, subject: string, rerun?: (profile: SandboxProfile) => string): void {
    const key = `${whose}\0${hit.kind}\0${hit.target}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.common.notice("warning", fenceNoticeForPerson(hit, subject, rerun));
    this.common.requestFrame();
  }

  /** "restart job 3 under profile off (p in the jobs pane, or /restart 3 off)". */
  private restartWords(id: string, profile: SandboxProfile): string {
    const key = this.common.keymap.keysFor("jobs", "restartProfile")[0];
    return `restart job ${id} under profile ${profile} (${key ? `${displayKeyName(key)} in the jobs pane, or ` : ""}/restart ${id} ${profile})`;
  }
}
