// The mouse in a job's terminal, as tmux gives it to a pane: while the job's terminal is in front
// (attached, the jobs pane zoomed, or the jobs tab of a small terminal) and the job asked for mouse
// reports (mc, htop, vim with mouse=a), pitwall asks its own terminal for mouse events and passes
// clicks, drags and the wheel over the job's terminal to the job, in the job's encoding and
// coordinates (keys/pty-mouse.ts). A drag that leaves the pane still ends at its edge. Otherwise
// (no job in front, a job that asked for nothing, a view scrolled back into the history) the
// wheel scrolls the pane as always.
import type { DashboardView } from "../panes/dashboard-view.js";
import type { JobService, MouseTracking, ScreenState } from "../tools/jobs/index.js";
import type { MouseEvent } from "./keys/key-decoder.js";
import { encodeMouse } from "./keys/pty-mouse.js";
import { forThePerson } from "./person-errors.js";
import type { MouseLevel } from "./terminal-modes.js";

export interface JobMouseHost {
  readonly view: Pick<DashboardView, "jobTerminal" | "zoomed" | "tabbed" | "tab">;
  jobs(): JobService | undefined;
  /** The job keys go to, if any. */
  attachedId(): string | undefined;
  flash(text: string): void;
}

/** What pitwall's terminal must report for a job's tracking. */
const LEVEL: Record<MouseTracking, MouseLevel> = { none: "off", x10: "buttons", vt200: "buttons", drag: "drag", any: "any" };

export class JobMouse {
  /** A press went to the job: its drag and release follow it, even out of the pane. */
  private pressed = false;
  /** The last motion sent, so a pointer moving within one cell sends it once. */
  private lastMotion = "";

  constructor(private readonly host: JobMouseHost) {}

  /** The shown job, when its terminal is in front and it can take mouse reports now. */
  private target(): { id: string; modes: ScreenState } | undefined {
    const { view } = this.host;
    const inFront = this.host.attachedId() !== undefined || (view.tabbed ? view.tab === "jobs" : view.zoomed === "jobs");
    if (!inFront || !view.jobTerminal.visible) return undefined;
    const screen = view.jobTerminal.current();
    const state = screen?.state;
    // SGR pixels would need the cell size in pixels, which pitwall does not know.
    if (!screen || !state || state.mouseTracking === "none" || state.mouseEncoding === "sgr-pixels") return undefined;
    const job = this.host.jobs()?.get(screen.id);
    if (job?.status !== "running" || job.stdinMode !== "pty") return undefined;
    return { id: screen.id, modes: state };
  }

  /** The mouse reports pitwall's terminal must send for the job in front ("off" when none wants them). */
  wanted(): MouseLevel {
    const target = this.target();
    return target ? LEVEL[target.modes.mouseTracking] : "off";
  }

  /** Passes `event` to the job in front when it is the job's; true when it was (nothing else is to be done with it). */
  forward(event: MouseEvent): boolean {
    const target = this.target();
    if (!target) {
      this.pressed = false;
      return false;
    }
    const { modes } = target;
    // Scrolled back, the pane shows history, not what the job drew: the wheel scrolls it back.
    if (modes.viewportY !== modes.baseY) return false;
    const inner = this.host.view.jobTerminal.inner;
    const cols = Math.min(inner.width, modes.cols);
    const rows = Math.min(inner.height, modes.rows);
    const col = event.x - inner.left;
    const row = event.y - inner.top;
    const inside = col >= 0 && row >= 0 && col < cols && row < rows;
    const held = this.pressed && (event.action === "motion" || event.action === "release");
    if (!inside && !held) return false;
    if (event.action === "press") this.pressed = true;
    else if (event.action === "release") this.pressed = false;
    const at = { col: Math.min(Math.max(col, 0), cols - 1) + 1, row: Math.min(Math.max(row, 0), rows - 1) + 1 };
    const data = encodeMouse(event, at.col, at.row, modes);
    // Not reported in the job's mode: the wheel then scrolls the pane; a click or motion does nothing.
    if (data === undefined) return !event.action.startsWith("wheel");
    if (event.action === "motion") {
      if (data === this.lastMotion) return true;
      this.lastMotion = data;
    } else this.lastMotion = "";
    this.host
      .jobs()
      ?.write(target.id, data)
      .catch((error: unknown) => this.host.flash(`not sent: ${forThePerson(error)}`));
    return true;
  }
}
