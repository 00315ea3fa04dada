// What the jobs pane's keys do to the registry: stop (TERM then KILL), kill now, restart, start a
// stopped job again. Attaching (typing into a job's terminal) comes with the job terminal view.
import type { DashboardController } from "./dashboard-controller.js";

export class JobControl {
  constructor(
    private readonly c: DashboardController,
    private readonly requestFrame: () => void,
  ) {}

  private registry() {
    return this.c.setup?.coding.jobs;
  }

  private act(id: string | undefined, what: string, run: (id: string) => Promise<unknown>): void {
    const jobs = this.registry();
    if (id === undefined || !jobs) {
      this.c.flash("no job selected");
      return;
    }
    this.c.flash(`${what} job ${id}…`);
    run(id).then(
      () => this.requestFrame(),
      (error: unknown) => {
        this.c.notice("error", `Could not ${what.toLowerCase()} job ${id}: ${error instanceof Error ? error.message : String(error)}`);
        this.requestFrame();
      },
    );
  }

  kill(id: string | undefined, hard: boolean): void {
    this.act(id, hard ? "Killing" : "Stopping", (jobId) => this.registry()!.kill(jobId, { by: "user", ...(hard ? { signal: "SIGKILL" as const } : {}) }));
  }

  restart(id: string | undefined): void {
    this.act(id, "Restarting", (jobId) => this.registry()!.restart(jobId, "user"));
  }

  start(id: string | undefined): void {
    const job = id === undefined ? undefined : this.c.view.jobs.list().find((j) => j.id === id);
    if (job?.status === "running") {
      this.c.flash(`job ${id} is already running (r restarts it)`);
      return;
    }
    this.act(id, "Starting", (jobId) => this.registry()!.restart(jobId, "user"));
  }

  attach(id: string | undefined): void {
    this.c.flash(id === undefined ? "no job selected" : `attaching to job ${id} is not available yet: it comes with the job terminal view`);
  }
}
