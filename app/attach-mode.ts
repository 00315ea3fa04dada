// Attaching to a job: while attached, every key the person presses (Esc, Ctrl+C and Ctrl+D
// included) is encoded as a terminal would send it and written to the job's pty (a y/n question,
// a REPL, a 2FA code) until the detach key, which the key dispatcher keeps for itself (the
// "attached" context). The job's terminal pane says so on its border and shows the job's cursor;
// the agent is told the person typed into it.
import type { InputEvent } from "./keys/key-decoder.js";
import type { JobScreen, JobService } from "../tools/jobs/index.js";
import { displayKeyName } from "./keys/key-names.js";
import { forThePerson } from "./person-errors.js";
import { encodeKey, encodePaste, type PtyModes } from "./keys/pty-keys.js";
import type { Key } from "./keys/key.js";

export interface AttachHost {
  jobs(): JobService | undefined;
  /** The screen of the job shown in the job terminal, if it is this one. */
  screen(id: string): JobScreen | undefined;
  detachKeys(): Key[];
  /** Called when attaching starts or ends: the pane's border and hint change. */
  setAttached(hint: string | undefined): void;
  flash(text: string): void;
  notice(level: "info" | "warning" | "error", text: string): void;
}

export class AttachMode {
  private jobId: string | undefined;

  constructor(private readonly host: AttachHost) {}

  /** The job keys go to, if any. */
  get attachedId(): string | undefined {
    return this.jobId;
  }

  attach(id: string | undefined): void {
    const jobs = this.host.jobs();
    const job = id === undefined ? undefined : jobs?.get(id);
    if (id === undefined || !jobs || !job) {
      this.host.flash("no job selected");
      return;
    }
    if (job.status !== "running") {
      this.host.flash(`job ${id} is not running: nothing to type into (r restarts it)`);
      return;
    }
    if (job.stdinMode !== "pty") {
      this.host.flash(`job ${id} reads a pipe, not a terminal: attaching needs a pty job`);
      return;
    }
    const key = this.host.detachKeys()[0];
    if (!key) {
      this.host.notice("error", "No detach key is bound (attached.detach in keymap.json), so attaching is refused: you could not get back.");
      return;
    }
    this.jobId = id;
    this.host.screen(id)?.scroll({ to: "bottom" });
    this.host.setAttached(`${displayKeyName(key)} to detach`);
    // Detach when this run of the job ends (a restart is another run: its start time differs).
    const unsubscribe = jobs.subscribe((event) => {
      const ended = (event.type === "job_exited" && event.job.id === id && event.job.startedAt === job.startedAt) || (event.type === "job_removed" && event.jobId === id);
      if (this.jobId !== id) unsubscribe();
      else if (ended) {
        unsubscribe();
        this.detach();
        this.host.flash(`job ${id} ended: detached`);
      }
    });
  }

  detach(): void {
    if (this.jobId === undefined) return;
    this.jobId = undefined;
    this.host.setAttached(undefined);
  }

  /** Forwards an input event to the attached job, encoded as a terminal would send it. */
  forward(event: InputEvent): void {
    const id = this.jobId;
    if (id === undefined) return;
    const jobs = this.host.jobs();
    if (!jobs || jobs.get(id)?.status !== "running") {
      this.detach();
      return;
    }
    const screen = this.host.screen(id);
    const modes: PtyModes = {
      applicationCursorKeys: screen?.state?.applicationCursorKeys ?? false,
      bracketedPaste: screen?.state?.bracketedPaste ?? false,
    };
    let data: string | undefined;
    if (event.type === "key") data = encodeKey(event.name, modes);
    else if (event.type === "text") data = event.text;
    else if (event.type === "paste") data = encodePaste(event.text, modes);
    if (data === undefined || data === "") return;
    jobs.write(id, data).catch((error: unknown) => this.host.flash(`not sent: ${forThePerson(error)}`));
    // Typing goes to the live screen, not to a scrolled-back view.
    if (screen?.state && screen.state.viewportY !== screen.state.baseY) screen.scroll({ to: "bottom" });
  }
}
