// The selected job's terminal, painted cell by cell from its headless emulator (colours, progress
// bars, full-screen programs and wide characters as a terminal shows them), with the emulator's own
// scrollback: it follows the bottom until scrolled up, and pauses there. The job's pty and emulator
// are resized to the pane (debounced, so a drag of the window is one resize). New output asks for a
// frame; the render scheduler coalesces those to its frame budget, so a flood costs 30 frames a
// second, not one per chunk.
import type { Widgets } from "blessed";
import type { Terminal } from "@xterm/headless";
import type { Canvas } from "../screen/canvas.js";
import { PaneBox } from "../screen/pane-box.js";
import type { CursorPlacement } from "../screen/render-scheduler.js";
import { attr, Color } from "../text/styled-text.js";
import { sanitizeText } from "../text/terminal-text.js";
import { textWidth } from "../text/text-width.js";
import { paintTerminal, terminalText } from "./xterm-cell-painter.js";

/** What the pane needs of a job (tools/jobs/job.ts's Job provides it). */
export interface JobScreen {
  readonly id: string;
  readonly command: string;
  readonly terminal: Terminal;
  readonly running: boolean;
  resize(cols: number, rows: number): void;
  onTerminalWrite(listener: () => void): () => void;
}

export type JobLookup = (id: string) => JobScreen | undefined;

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

  /** `lookup` finds a job by id (none until the agent and its registry have loaded). */
  constructor(
    screen: Widgets.Screen,
    private readonly requestFrame: () => void,
    private readonly lookup: JobLookup,
  ) {
    super(screen, { title: "terminal" });
  }

  /** The job shown now; (re)subscribes to its output when it changed (another job, a restart). */
  current(): JobScreen | undefined {
    const job = this.jobId === undefined ? undefined : this.lookup(this.jobId);
    if (job !== this.job) {
      this.unsubscribe?.();
      this.unsubscribe = undefined;
      this.job = job;
      this.pendingSize = undefined;
      if (job) this.unsubscribe = job.onTerminalWrite(() => this.requestFrame());
    }
    return job;
  }

  get attached(): boolean {
    return this.attachedHint !== undefined;
  }

  /** True when the view is at the bottom of the output (new output scrolls it). */
  get following(): boolean {
    const job = this.current();
    if (!job) return true;
    const buffer = job.terminal.buffer.active;
    return buffer.viewportY >= buffer.baseY;
  }

  scrollBy(rows: number): void {
    this.current()?.terminal.scrollLines(rows);
  }

  page(direction: 1 | -1): void {
    this.scrollBy(direction * Math.max(1, this.inner.height - 1));
  }

  toTop(): void {
    this.current()?.terminal.scrollToTop();
  }

  toBottom(): void {
    this.current()?.terminal.scrollToBottom();
  }

  /** The rows on screen as plain text (trailing blank rows dropped): what "copy visible" takes. */
  visibleText(): string[] {
    const job = this.current();
    if (!job) return [];
    const rows = Math.min(job.terminal.rows, Math.max(1, this.inner.height));
    return terminalText(job.terminal, job.terminal.buffer.active.viewportY, rows);
  }

  /** Where the terminal cursor goes while attached: the job's own cursor, when it is in view. */
  cursorPlacement(): CursorPlacement | null {
    if (!this.attached || !this.visible) return null;
    const job = this.current();
    if (!job) return null;
    const buffer = job.terminal.buffer.active;
    if (buffer.viewportY !== buffer.baseY) return null;
    const inner = this.inner;
    if (buffer.cursorX >= inner.width || buffer.cursorY >= inner.height) return null;
    return { x: inner.left + buffer.cursorX, y: inner.top + buffer.cursorY };
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.resizeTimer);
  }

  /** Asks for the job's pty and emulator to take the pane's size, once the size has settled. */
  private fit(job: JobScreen, cols: number, rows: number): void {
    if (cols < 2 || rows < 1) return;
    if (job.terminal.cols === cols && job.terminal.rows === rows) {
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
    const terminal = job.terminal;
    const buffer = terminal.buffer.active;
    paintTerminal(canvas, terminal, buffer.viewportY);
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
    const above = buffer.baseY - buffer.viewportY;
    this.titleRight = above > 0 ? `paused ↑${above} · End` : "";
  }
}
