// Quitting: whichever way the person asks (the quit key, Ctrl+C twice, /quit), while jobs run
// pitwall asks once ("3 jobs running: quit and stop them? y/n") and only quits on yes; then every
// job's process group is ended on the way out (dashboard-mode.ts disposes the agent).

export interface QuitHost {
  /** Jobs whose process runs now. */
  runningJobs(): number;
  /** Shows the question in the status line, or clears it. */
  setQuestion(text: string | undefined): void;
  flash(text: string): void;
  requestFrame(): void;
}

export class QuitFlow {
  private done = false;
  /** The question is on screen, waiting for y or n. */
  asking = false;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly host: QuitHost) {}

  onQuit(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** Quits at once. */
  now(): void {
    if (this.done) return;
    this.done = true;
    this.asking = false;
    this.host.setQuestion(undefined);
    for (const listener of this.listeners) listener();
  }

  /** The person asked to quit: asks first while jobs run; asked again, it is a yes. */
  request(): void {
    const running = this.host.runningJobs();
    if (running === 0 || this.asking) return this.now();
    this.asking = true;
    this.host.setQuestion(`${running} job${running === 1 ? "" : "s"} running: quit and stop ${running === 1 ? "it" : "them"}? y/n`);
    this.host.requestFrame();
  }

  answer(yes: boolean): void {
    if (!this.asking) return;
    if (yes) return this.now();
    this.asking = false;
    this.host.setQuestion(undefined);
    this.host.flash("not quitting: the jobs keep running");
  }
}
