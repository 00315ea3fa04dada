// What the dashboard tells the person about the sandbox: once, at start, when commands cannot be
// fenced here (the status line keeps saying so; the chat says why and how to fix it), and one chat
// line per job (or tool call, or `!command`) and path the fence stopped, with what they can do about
// it. The jobs pane marks the job's row itself (from its JobInfo).
import type { PitwallEvent } from "../agent/events.js";
import { shortCommand, type ServiceSandbox } from "../tools/jobs/index.js";
import { bwrapAvailability, fenceHitsOf, fenceNoticeForPerson, type Availability, type FenceHit, type SandboxProfile } from "../tools/sandbox/index.js";
import type { DashboardCommon } from "./dashboard-common.js";
import { displayKeyName } from "./keys/key-names.js";

/** What the person is told, once, when no sandbox can be made here: what happens to commands, why, and how to fix it. */
export function unfencedMessage(available: Extract<Availability, { ok: false }>, required: boolean): string {
  return required
    ? `Commands will not run: --sandbox required, and no sandbox can be made here: ${available.reason}. To fix it, ${available.fix}.`
    : `Commands run unfenced, with your permissions: ${available.reason}. To fence them, ${available.fix}. (--sandbox required refuses to run commands instead.)`;
}

export class FenceNotices {
  /** "<whose>\0<target>": what was told already. */
  private readonly told = new Set<string>();

  constructor(private readonly common: Pick<DashboardCommon, "notice" | "requestFrame" | "view" | "keymap">) {}

  /** Tells once when the sandbox the person asked for cannot be made here (no bubblewrap, no user namespaces). */
  async announce(sandbox: ServiceSandbox): Promise<void> {
    if (sandbox.policy.profile === "off" && sandbox.personProfile === "off") return;
    const available = await bwrapAvailability(sandbox.policy.bwrap);
    if (available.ok) return;
    const required = sandbox.policy.required;
    this.common.view.status.state.sandbox = required ? "no sandbox: commands refused" : "unfenced";
    this.common.notice("warning", unfencedMessage(available, required));
    this.common.requestFrame();
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
