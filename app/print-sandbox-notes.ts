// What print mode says on stderr about the sandbox, where a dashboard has its status line and chat:
// once, at the first command or job that ran unfenced, that commands run with the person's
// permissions, why and how to fix it; and once per path (and job), what the fence stopped and
// what the person can do. Nothing is probed while commands run fenced: the first unfenced one asks
// bwrap why (a remote session's host asks the remote's).
import type { PitwallEvent } from "../agent/events.js";
import { fenceHitsOf, fenceNoticeForPerson, type FenceHit } from "../tools/sandbox/index.js";
import { type JobService, shortCommand, type ServiceSandbox } from "../tools/jobs/index.js";
import { unfencedMessage, unfencedWhere } from "./fence-notices.js";

export class PrintSandboxNotes {
  /** "<calls or job id>\0<kind>\0<target>": what was told already. */
  private readonly told = new Set<string>();
  private unfencedTold = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly sandbox: ServiceSandbox | undefined,
    /** Where the commands run: a remote session's host is asked why they ran unfenced there. */
    private readonly jobs: JobService,
    private readonly say: (text: string) => void,
  ) {}

  /** Every bus event: a tool's result (its details), a job that started unfenced, a job the fence stopped. */
  event(event: PitwallEvent): void {
    if (event.type === "tool_execution_end") {
      // Calls by path alone: a model that tries again is not told about again.
      for (const hit of fenceHitsOf(event.details)) this.tell("calls", hit, `the agent's ${event.toolName} call`);
      const details = event.details;
      if (typeof details === "object" && details !== null && (details as { unfenced?: unknown }).unfenced === true) this.unfenced();
    } else if (event.type === "job_started") {
      if (event.job.unfenced) this.unfenced();
    } else if (event.type === "job_fenced") {
      this.tell(`job ${event.jobId}`, event.hit, `job ${event.jobId} (${shortCommand(event.command, 50)})`);
    }
  }

  /** Resolves once what is being found out has been said (before the process exits). */
  settled(): Promise<void> {
    return this.pending;
  }

  private tell(whose: string, hit: FenceHit, subject: string): void {
    const key = `${whose}\0${hit.kind}\0${hit.target}`;
    if (this.told.has(key)) return;
    this.told.add(key);
    this.say(fenceNoticeForPerson(hit, subject));
  }

  private unfenced(): void {
    if (this.unfencedTold || !this.sandbox) return;
    this.unfencedTold = true;
    const sandbox = this.sandbox;
    this.pending = unfencedWhere(this.jobs, sandbox).then((unfenced) => {
      if (unfenced) this.say(unfencedMessage(unfenced.available, sandbox.policy.required, unfenced.where));
    });
  }
}
