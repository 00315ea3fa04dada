// What print mode says on stderr about the sandbox, where a dashboard has its status line and chat:
// once, at the first command that ran unfenced, that commands run with the person's permissions, why
// and how to fix it; and one line per path the fence stopped, with what the person can do. Nothing is
// probed while commands run fenced: the first unfenced result asks bwrap why.
import { bwrapAvailability, fenceHitsOf, fenceNoticeForPerson } from "../tools/sandbox/index.js";
import type { ServiceSandbox } from "../tools/jobs/index.js";
import { unfencedMessage } from "./fence-notices.js";

export class PrintSandboxNotes {
  private readonly told = new Set<string>();
  private unfencedTold = false;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly sandbox: ServiceSandbox | undefined,
    private readonly say: (text: string) => void,
  ) {}

  /** A tool's result: its details say whether it ran unfenced and what the fence stopped. */
  result(toolName: string, details: unknown): void {
    for (const hit of fenceHitsOf(details)) {
      const key = `${hit.kind}\0${hit.target}`;
      if (this.told.has(key)) continue;
      this.told.add(key);
      this.say(fenceNoticeForPerson(hit, `the agent's ${toolName} call`));
    }
    if (!this.unfencedTold && this.sandbox && typeof details === "object" && details !== null && (details as { unfenced?: unknown }).unfenced === true) {
      this.unfencedTold = true;
      const sandbox = this.sandbox;
      this.pending = bwrapAvailability(sandbox.policy.bwrap).then((available) => {
        if (!available.ok) this.say(unfencedMessage(available, sandbox.policy.required));
      });
    }
  }

  /** Resolves once what is being found out has been said (before the process exits). */
  settled(): Promise<void> {
    return this.pending;
  }
}

