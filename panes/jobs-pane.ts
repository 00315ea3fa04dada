// The jobs pane: every background job, whoever started it, with its status coloured and its
// runtime, and a selection the job keys act on. Built from job events only, so it knows nothing
// of the registry. The job's own terminal (painted from its emulator) belongs below the list.
import type { Widgets } from "blessed";
import type { PitwallEvent } from "../agent/events.js";
import type { JobInfo } from "../tools/job-events.js";
import type { Canvas } from "./canvas.js";
import { formatDuration } from "./format.js";
import { PaneBox } from "./pane-box.js";
import { attr, Color, withStyle, type StyledLine } from "./styled-text.js";
import { sanitizeText } from "./terminal-text.js";
import { fitText, textWidth, truncateText } from "./text-width.js";

const DIM = attr({ fg: Color.grey });
const RUNNING = attr({ fg: Color.green });
const FAILED = attr({ fg: Color.red });
const KILLED = attr({ fg: Color.yellow });

export function jobStatusText(job: JobInfo, now: number): { text: string; attr: number } {
  if (job.status === "running") return { text: `up ${formatDuration(now - job.startedAt)}`, attr: RUNNING };
  if (job.status === "killed") return { text: job.signal ? `killed ${job.signal.replace(/^SIG/, "")}` : "killed", attr: KILLED };
  return { text: `exit ${job.exitCode ?? "?"}`, attr: job.exitCode === 0 ? DIM : FAILED };
}

export class JobsPane extends PaneBox {
  private readonly jobs = new Map<string, JobInfo>();
  selectedId: string | undefined;
  private scrollTop = 0;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "jobs" });
  }

  handle(event: PitwallEvent): boolean {
    switch (event.type) {
      case "job_started":
      case "job_exited":
        this.jobs.set(event.job.id, event.job);
        if (this.selectedId === undefined) this.selectedId = event.job.id;
        return true;
      case "job_removed":
        this.jobs.delete(event.jobId);
        if (this.selectedId === event.jobId) this.selectedId = this.list()[0]?.id;
        return true;
      default:
        return false;
    }
  }

  list(): JobInfo[] {
    return [...this.jobs.values()];
  }

  get runningCount(): number {
    let n = 0;
    for (const job of this.jobs.values()) if (job.status === "running") n++;
    return n;
  }

  get selected(): JobInfo | undefined {
    return this.selectedId === undefined ? undefined : this.jobs.get(this.selectedId);
  }

  /** Moves the selection (-1 up, 1 down). */
  move(direction: number): void {
    const ids = this.list().map((j) => j.id);
    if (ids.length === 0) return;
    const at = this.selectedId === undefined ? -1 : ids.indexOf(this.selectedId);
    this.selectedId = ids[Math.min(ids.length - 1, Math.max(0, at + direction))];
  }

  /** Rows of the job list at a width (the selected job marked). */
  rows(width: number, now: number): StyledLine[] {
    return this.list().map((job) => {
      const selected = job.id === this.selectedId;
      const status = jobStatusText(job, now);
      const head = `${selected ? "▶" : " "} ${job.id} `;
      const room = Math.max(1, width - textWidth(head) - textWidth(status.text) - 1);
      const command = fitText(truncateText(sanitizeText(job.command).replace(/\s+/g, " "), room), room);
      const row: StyledLine = [
        { text: head, attr: selected ? attr({ fg: Color.cyan, bold: true }) : DIM },
        { text: `${command} `, attr: attr() },
        status,
      ];
      return selected && this.focused ? row.map((s) => ({ text: s.text, attr: withStyle(s.attr, { inverse: true }) })) : row;
    });
  }

  protected paintContent(canvas: Canvas): void {
    const rows = this.rows(canvas.width, Date.now());
    this.titleRight = rows.length ? `${this.runningCount} up` : "";
    if (rows.length === 0) {
      canvas.paintMessage("No jobs. Background shells the agent starts (bash_stream) show here.", DIM);
      return;
    }
    const selectedIndex = this.list().findIndex((j) => j.id === this.selectedId);
    if (selectedIndex >= 0) {
      if (selectedIndex < this.scrollTop) this.scrollTop = selectedIndex;
      if (selectedIndex >= this.scrollTop + canvas.height) this.scrollTop = selectedIndex - canvas.height + 1;
    }
    this.scrollTop = Math.max(0, Math.min(this.scrollTop, rows.length - canvas.height));
    canvas.paintRows(rows.slice(this.scrollTop, this.scrollTop + canvas.height));
  }
}
