// The jobs pane: every background job, whoever started it, with its status coloured, its runtime,
// a mark for output the person has not seen yet, a ⚑ for a job with watch triggers (with their
// count when more than one), a ⊘ for a job the sandbox stopped doing something (with the count of
// things), its sandbox profile when it is not the usual one for who started it (the agent's run under
// workspace, the person's off) or "unfenced" when no sandbox could be made, and a selection the job
// keys act on. Built from job events only, so it
// knows nothing of the registry. The selected job's terminal is painted below the list by
// JobTerminalPane.
import type { Widgets } from "blessed";
import type { PitwallEvent } from "../../agent/events.js";
import type { JobInfo } from "../../tools/jobs/index.js";
import type { Canvas } from "../screen/canvas.js";
import { formatDuration } from "../text/format.js";
import { PaneBox } from "../screen/pane-box.js";
import { attr, Color, type StyledLine } from "../text/styled-text.js";
import { selectedRow } from "../text/selection.js";
import { sanitizeText } from "../text/terminal-text.js";
import { fitText, textWidth, truncateText } from "../text/text-width.js";

const DIM = attr({ fg: Color.grey });
const RUNNING = attr({ fg: Color.green });
// Bright: the plain red of most dark themes is dim on black.
const FAILED = attr({ fg: Color.brightRed });
const KILLED = attr({ fg: Color.yellow });

const UNSEEN = attr({ fg: Color.yellow, bold: true });
const PERSON = attr({ fg: Color.magenta });
const WATCHED = attr({ fg: Color.cyan, bold: true });
const HOST_SILENT = attr({ fg: Color.red, bold: true });
const FENCED = attr({ fg: Color.red, bold: true });

/** The profile word a row shows: only when it is not the usual one for who started the job. */
function profileTag(job: JobInfo): string {
  if (job.unfenced) return "unfenced ";
  if (job.sandbox === undefined) return "";
  const usual = job.startedBy === "person" ? "off" : "workspace";
  return job.sandbox === usual ? "" : `${job.sandbox} `;
}

export function jobStatusText(job: JobInfo, now: number): { text: string; attr: number } {
  if (job.status === "running") return { text: `up ${formatDuration(now - job.startedAt)}`, attr: RUNNING };
  const ran = formatDuration((job.endedAt ?? now) - job.startedAt);
  if (job.status === "killed") return { text: `${job.signal ? `killed ${job.signal.replace(/^SIG/, "")}` : "killed"} ${ran}`, attr: KILLED };
  return { text: `exit ${job.exitCode ?? "?"} ${ran}`, attr: job.exitCode === 0 ? DIM : FAILED };
}

export class JobsPane extends PaneBox {
  private readonly jobs = new Map<string, JobInfo>();
  selectedId: string | undefined;
  /** The job whose terminal is on screen now (its output is seen as it comes). */
  viewedId: string | undefined;
  /** Jobs that printed since the person last had their terminal on screen. */
  private readonly unseen = new Set<string>();
  /** How many watch triggers each job has (jobs without any are absent). */
  private readonly triggers = new Map<string, number>();
  /** The empty list's hint: the first wording that fits the pane. */
  emptyHint: string | string[] = ["No jobs. Background shells the agent starts (bash_stream) show here.", "No jobs yet."];
  /** Set while the job host does not answer: what the person reads about it. */
  private hostSilent: string | undefined;
  /** Where the jobs run when not on this machine (`dev@box:~/app`): the title says so, every row is there. */
  private remote: string | undefined;
  private scrollTop = 0;
  /** Who started a job, shown before its command ("you", an agent's name) while the dashboard has several agents. */
  starterLabel: ((job: JobInfo) => string | undefined) | undefined;

  constructor(screen: Widgets.Screen) {
    super(screen, { title: "jobs" });
  }

  /** Applies a job event; true when the list changed (job output changes it only the first time). */
  handle(event: PitwallEvent): boolean {
    switch (event.type) {
      case "job_started":
        this.unseen.delete(event.job.id);
        this.jobs.set(event.job.id, event.job);
        if (this.selectedId === undefined) this.selectedId = event.job.id;
        return true;
      case "job_exited":
        this.jobs.set(event.job.id, event.job);
        if (this.selectedId === undefined) this.selectedId = event.job.id;
        return true;
      case "job_removed":
        this.jobs.delete(event.jobId);
        this.unseen.delete(event.jobId);
        this.triggers.delete(event.jobId);
        if (this.selectedId === event.jobId) this.selectedId = this.list()[0]?.id;
        return true;
      case "job_output":
        if (event.jobId === this.viewedId || this.unseen.has(event.jobId) || !this.jobs.has(event.jobId)) return false;
        this.unseen.add(event.jobId);
        return true;
      case "job_triggers_changed":
        if (event.triggers.length > 0) this.triggers.set(event.jobId, event.triggers.length);
        else this.triggers.delete(event.jobId);
        return true;
      case "job_host_state":
        this.hostSilent = event.answering ? undefined : event.detail;
        return true;
      case "job_fenced": {
        // The count on the row; a job_started or job_exited later brings the host's own count.
        const job = this.jobs.get(event.jobId);
        if (job) this.jobs.set(job.id, { ...job, fenceHits: (job.fenceHits ?? 0) + 1 });
        return job !== undefined;
      }
      default:
        return false;
    }
  }

  /** Whether any job printed something the person has not had on screen. */
  get anyUnseen(): boolean {
    return this.unseen.size > 0;
  }

  /** Whether the job printed something the person has not had on screen. */
  hasUnseen(id: string): boolean {
    return this.unseen.has(id);
  }

  /** The job's terminal is on screen: its output counts as seen. */
  markViewed(id: string | undefined): void {
    this.viewedId = id;
    if (id !== undefined) this.unseen.delete(id);
  }

  select(id: string): void {
    if (this.jobs.has(id)) this.selectedId = id;
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
    // Ids padded to the widest, so job 10 does not push its command out of the column.
    const idWidth = Math.max(0, ...this.list().map((job) => textWidth(job.id)));
    return this.list().map((job) => {
      const selected = job.id === this.selectedId;
      const status = jobStatusText(job, now);
      const restarts = job.restarts > 0 ? `↻${job.restarts} ` : "";
      const triggers = this.triggers.get(job.id) ?? 0;
      const watched = triggers > 0 ? `⚑${triggers > 1 ? triggers : ""} ` : "";
      const fenced = job.fenceHits ? `⊘${job.fenceHits > 1 ? job.fenceHits : ""} ` : "";
      const profile = profileTag(job);
      const head = `${selected ? "▶" : " "}`;
      const id = `${job.id.padStart(idWidth)} `;
      const label = this.starterLabel?.(job);
      const starter = label === undefined ? "" : `@${label} `;
      const room = Math.max(
        1,
        width - textWidth(head) - 1 - textWidth(id) - textWidth(starter) - textWidth(watched) - textWidth(fenced) - textWidth(profile) - textWidth(restarts) - textWidth(status.text) - 1,
      );
      const command = fitText(truncateText(sanitizeText(job.command).replace(/\s+/g, " "), room), room);
      const unseen = this.unseen.has(job.id);
      const row: StyledLine = [
        { text: head, attr: selected ? attr({ fg: Color.cyan, bold: true }) : DIM },
        { text: unseen ? "•" : " ", attr: UNSEEN },
        { text: id, attr: selected ? attr({ fg: Color.cyan, bold: true }) : job.startedBy === "person" ? PERSON : DIM },
        ...(starter ? [{ text: starter, attr: job.startedBy === "person" ? PERSON : DIM }] : []),
        { text: `${command} `, attr: attr() },
        { text: watched, attr: WATCHED },
        { text: fenced, attr: FENCED },
        { text: profile, attr: job.unfenced ? KILLED : DIM },
        { text: restarts, attr: DIM },
        status,
      ];
      return selected && this.focused ? selectedRow(row, width) : row;
    });
  }

  /** The jobs run on another machine: the pane's title names it. */
  setRemote(label: string | undefined): void {
    this.remote = label;
    this.title = label ? `jobs on ${label}` : "jobs";
  }

  /** Whether the job host stopped answering (the list then shows what was last known). */
  get hostAnswering(): boolean {
    return this.hostSilent === undefined;
  }

  protected paintContent(canvas: Canvas): void {
    const rows = this.rows(canvas.width, Date.now());
    if (this.hostSilent !== undefined) {
      // The list shows what was last heard: the host may have changed it since.
      this.titleRight = this.remote && /reconnecting/i.test(this.hostSilent) ? "reconnecting…" : "host not answering";
      this.titleRightAttr = HOST_SILENT;
    } else {
      this.titleRight = rows.length ? `${this.runningCount} up` : "";
      this.titleRightAttr = undefined;
    }
    if (rows.length === 0) {
      canvas.paintMessage(this.emptyHint, DIM);
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
