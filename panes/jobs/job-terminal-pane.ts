// The selected job's terminal, painted from the screen its emulator has already parsed (in the job
// host, or in this process: tools/jobs/terminal/screen-feed.ts): colours, progress bars, full-screen
// programs and wide characters as a terminal shows them, with the emulator's own scrollback: it
// follows the bottom until scrolled up, and pauses there. The job's pty and emulator are resized to
// the pane (debounced, so a drag of the window is one resize). Each screen update asks for a frame;
// updates come at most 30 a second and the render scheduler coalesces them, so a flood costs 30
// frames a second, not one per chunk.
import type { Widgets } from "blessed";
import type { Canvas } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import type { CursorPlacement } from "../screen/render-scheduler.js";
import { attr, Color } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { textWidth } from "../text/text-width.js";
import { paintScreen } from "./screen-painter.js";
import { type JobScreen, type JobScreens, screenText } from "../../tools/jobs/index.js";

export type { JobScreen, JobScreens } from "../../tools/jobs/index.js";

const DIM = attr({ fg: Color.grey });
/** A resize waits this long for the size to settle. */
export const RESIZE_DEBOUNCE_MS = 100;

export class JobTerminalPane extends PaneBox {
  /** The job to show (the jobs list's selection). */
  jobId: string | undefined;
  /** Set while the person's keys go to the job: how to leave ("Ctrl+] to detach"). */
  attachedHint: string | undefined;
  /** The hint shown when there is no job to show. */
  emptyHint = "The selected job's terminal shows here.";
  private job: JobScreen | undefined;
  private unsubscribe: (() => void) | undefined;
  private resizeTimer: NodeJS.Timeout | undefined;
  private pendingSize: { cols: number; rows: number } | undefined;

  /** `screens` opens a job's screen by id (none until the agent and its jobs have loaded). */
  constructor(
    screen: Widgets.Screen,
    private readonly requestFrame: () => void,
    private readonly screens: () => JobScreens | undefined,
  ) {
    super(screen, { title: "terminal" });
  }

  /** The job shown now; opens its screen when the selection changed (and lets the old one go). */
  current(): JobScreen | undefined {
    if (this.job?.id !== this.jobId) this.close();
    if (!this.job && this.jobId !== undefined) {
      const job = this.screens()?.open(this.jobId);
      if (job) {
        this.job = job;
        this.unsubscribe = job.onChange(() => this.requestFrame());
      }
    }
    return this.job;
  }

  /** Lets the shown job's screen go (another job selected, the job removed, the pane disposed). */
  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.job?.release();
    this.job = undefined;
    this.pendingSize = undefined;
  }

  get attached(): boolean {
    return this.attachedHint !== undefined;
  }

  /** True when the view is at the bottom of the output (new output scrolls it). */
  get following(): boolean {
    const state = this.current()?.state;
    return !state || state.viewportY >= state.baseY;
  }

  scrollBy(rows: number): void {
    this.current()?.scroll({ by: rows });
  }

  page(direction: 1 | -1): void {
    this.scrollBy(direction * Math.max(1, this.inner.height - 1));
  }

  toTop(): void {
    this.current()?.scroll({ to: "top" });
  }

  toBottom(): void {
    this.current()?.scroll({ to: "bottom" });
  }

  /** The rows on screen as plain text (trailing blank rows dropped). */
  visibleText(): string[] {
    const state = this.current()?.state;
    if (!state) return [];
    return screenText(state, Math.min(state.rows, Math.max(1, this.inner.height)));
  }

  /** How many rows of the job's terminal the pane shows. */
  get visibleRows(): number {
    const state = this.current()?.state;
    return Math.min(state?.rows ?? this.inner.height, Math.max(1, this.inner.height));
  }

  /**
   * Where the terminal cursor goes while attached, and its shape: the job's own cursor, when it is
   * in view and the job has not hidden it.
   */
  cursorPlacement(): CursorPlacement | null {
    if (!this.attached || !this.visible) return null;
    const state = this.current()?.state;
    if (!state?.cursorVisible) return null;
    if (state.viewportY !== state.baseY) return null;
    const inner = this.inner;
    if (state.cursorX >= inner.width || state.cursorY >= inner.height) return null;
    return { x: inner.left + state.cursorX, y: inner.top + state.cursorY, ...(state.cursorShape ? { shape: state.cursorShape } : {}) };
  }

  dispose(): void {
    this.close();
    clearTimeout(this.resizeTimer);
  }

  /** Asks for the job's pty and emulator to take the pane's size, once the size has settled. */
  private fit(job: JobScreen, cols: number, rows: number): void {
    const state = job.state;
    if (cols < 2 || rows < 1 || !state) return;
    if (state.cols === cols && state.rows === rows) {
      this.pendingSize = undefined;
      clearTimeout(this.resizeTimer);
      return;
    }
    if (this.pendingSize?.cols === cols && this.pendingSize.rows === rows) return;
    this.pendingSize = { cols, rows };
    clearTimeout(this.resizeTimer);
    this.resizeTimer = setTimeout(() => {
      this.resizeTimer = undefined;
      const size = this.pendingSize;
      this.pendingSize = undefined;
      if (!size || this.job !== job) return;
      job.resize(size.cols, size.rows);
      this.requestFrame();
    }, RESIZE_DEBOUNCE_MS);
    this.resizeTimer.unref();
  }

  protected paintContent(canvas: Canvas): void {
    const job = this.current();
    if (!job) {
      this.title = "terminal";
      this.titleRight = "";
      canvas.paintMessage(this.emptyHint, DIM);
      return;
    }
    this.fit(job, canvas.width, canvas.height);
    const state = job.state;
    if (state) paintScreen(canvas, state);
    else canvas.fill();
    const command = sanitizeText(job.command).replace(/\s+/g, " ");
    if (this.attachedHint !== undefined) {
      // The border must say "attached" and how to leave, however narrow the pane.
      // The border's room: the pane's width less its corners, the padding and a margin.
      const room = canvas.width - 2;
      const key = this.attachedHint.split(" ")[0];
      const titles = [`job ${job.id} attached — ${this.attachedHint}`, `attached — ${this.attachedHint}`, `attached: ${key} detaches`, `attached · ${key}`];
      this.title = titles.find((t) => textWidth(t) <= room) ?? titles[titles.length - 1]!;
      this.titleRight = "";
      return;
    }
    this.title = `job ${job.id}: ${command}`;
    const above = state ? state.baseY - state.viewportY : 0;
    this.titleRight = above > 0 ? `paused ↑${above} · End` : "";
  }
}
