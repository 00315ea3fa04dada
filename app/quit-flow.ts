// Quitting: whichever way the person asks (the quit key, Ctrl+C twice, /quit), while jobs run
// pitwall asks once ("3 jobs running: quit and stop them? y/n · k keep them running") and only
// quits on y or k. y ends every job's process group on the way out (dashboard-mode.ts disposes the
// agent); k leaves them running in the job host, for the next pitwall in this folder to take over.

/** How the dashboard quits: ending its jobs, or leaving them running in the job host. */
export type QuitChoice = "stop" | "keep";

export interface QuitHost {
  /** Jobs whose process runs now. */
  runningJobs(): number;
  /** Whether jobs can outlive this dashboard (they run in the job host). */
  canKeepJobs(): boolean;
  /** Shows the question in the status line, or clears it. */
  setQuestion(text: string | undefined): void;
  flash(text: string): void;
  requestFrame(): void;
}

export class QuitFlow {
  private done = false;
  /** The question is on screen, waiting for y, k or n. */
  asking = false;
  private readonly listeners = new Set<(choice: QuitChoice) => void>();

  constructor(private readonly host: QuitHost) {}

  onQuit(listener: (choice: QuitChoice) => void): void {
    this.listeners.add(listener);
  }

  /** Quits at once (stopping whatever runs, unless told to keep it). */
  now(choice: QuitChoice = "stop"): void {
    if (this.done) return;
    this.done = true;
    this.asking = false;
    this.host.setQuestion(undefined);
    for (const listener of this.listeners) listener(choice);
  }

  /** The person asked to quit: asks first while jobs run; asked again, it is a yes. */
  request(): void {
    const running = this.host.runningJobs();
    if (running === 0 || this.asking) return this.now();
    this.asking = true;
    const them = running === 1 ? "it" : "them";
    const keep = this.host.canKeepJobs() ? ` · k keep ${them} running` : "";
    this.host.setQuestion(`${running} job${running === 1 ? "" : "s"} running: quit and stop ${them}? y/n${keep}`);
    this.host.requestFrame();
  }

  /** y: quit and stop the jobs; k: quit and keep them (when they can be kept); n: stay. */
  answer(answer: "yes" | "keep" | "no"): void {
    if (!this.asking) return;
    if (answer === "yes") return this.now("stop");
    if (answer === "keep" && this.host.canKeepJobs()) return this.now("keep");
    this.asking = false;
    this.host.setQuestion(undefined);
    this.host.flash("not quitting: the jobs keep running");
  }
}
