// A dashboard starting in a folder whose job host already runs: it attaches at once, so the jobs an
// earlier pitwall left running (quit with "keep", a closed terminal, kill -9, a crash) are back in
// the jobs pane with their screens and scrollback, and the agent hears which still run (the host's
// notice). A host of another pitwall version is never spoken to beyond its refusal: the person is
// shown its jobs and offered to stop it.
import type { StyledLine } from "../panes/text/styled-text.js";
import { attr } from "../panes/text/styled-text.js";
import { HostJobService, type JobService, type Mismatch, shortCommand } from "../tools/jobs/index.js";

export interface AttachUi {
  notice(level: "info" | "warning" | "error", text: string): void;
  /** Shows a list picker; resolves with the index picked, undefined for Esc. */
  choose(title: string, rows: StyledLine[], footer: string, intro: string[]): Promise<number | undefined>;
}

const STOP_OLD = 0;

/** Attaches a dashboard's job service to the folder's host, if one runs; says what it found. */
export async function attachJobHost(jobs: JobService, ui: AttachUi): Promise<void> {
  if (!(jobs instanceof HostJobService)) return;
  jobs.onProblem((text) => ui.notice("error", text));
  let outcome;
  try {
    outcome = await jobs.attach();
  } catch (error) {
    ui.notice("error", `Could not reach this folder's job host: ${error instanceof Error ? error.message : String(error)}`);
    return;
  }
  if (outcome.kind === "attached") {
    const running = outcome.adopted.filter((info) => info.status === "running");
    if (running.length > 0) {
      const list = running.map((info) => `${info.id} ${shortCommand(info.command, 40)}`).join(" · ");
      ui.notice("info", `${running.length} job${running.length === 1 ? "" : "s"} kept running from an earlier pitwall, attached again: ${list}`);
    }
    return;
  }
  if (outcome.kind === "mismatch") await offerToStop(jobs, outcome.mismatch, ui);
}

async function offerToStop(jobs: HostJobService, mismatch: Mismatch, ui: AttachUi): Promise<void> {
  const count = mismatch.jobs.length;
  const intro = [
    `A job host of pitwall ${mismatch.version} (pid ${mismatch.pid}) serves this folder, with ${count} job${count === 1 ? "" : "s"}:`,
    ...mismatch.jobs.slice(0, 8).map((job) => `  ${job.id}  ${job.status}  ${shortCommand(job.command, 60)}`),
    ...(count > 8 ? [`  … and ${count - 8} more`] : []),
    "This pitwall cannot use it: it runs no command or job until that host is stopped.",
  ];
  const rows: StyledLine[] = [
    [{ text: `Stop the old host${count ? ` and its job${count === 1 ? "" : "s"}` : ""}`, attr: attr() }],
    [{ text: "Leave it running (stop it later with `pitwall jobs stop all`)", attr: attr() }],
  ];
  const answer = await ui.choose("a job host of another pitwall version runs here", rows, "Enter choose · Esc leave it running", intro);
  if (answer !== STOP_OLD) {
    ui.notice("warning", `The job host of pitwall ${mismatch.version} (pid ${mismatch.pid}) still runs: commands and jobs fail until it is stopped (\`pitwall jobs stop all\`).`);
    return;
  }
  if (await jobs.stopOtherHost(mismatch)) {
    ui.notice("info", `Stopped the job host of pitwall ${mismatch.version} (pid ${mismatch.pid})${count ? " and its jobs" : ""}; this pitwall starts its own with the first job.`);
  } else {
    ui.notice("error", `Could not stop the job host (pid ${mismatch.pid}): its folder names another process. Stop it yourself, then start pitwall again.`);
  }
}
