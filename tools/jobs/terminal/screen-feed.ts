// A job's screen as the jobs pane sees it: the latest state (the rows in view, the cursor, where
// the view is in the scrollback) kept from the updates a ScreenWatch sends, and the person's
// requests going the other way (scroll, resize to the pane). The same feed serves a job of this
// process and a job of the job host; only its control differs.
import { applyScreenUpdate, type ScreenState, type ScreenUpdate, type ScrollRequest } from "./screen-state.js";

/** What a pane may ask of the job behind a screen. */
export interface ScreenControl {
  /** Resizes the job's pty and emulator. */
  resize(cols: number, rows: number): void;
  scroll(request: ScrollRequest): void;
  /** Stops the updates. */
  release(): void;
}

/** A job's screen, for the pane that paints it. */
export interface JobScreen {
  readonly id: string;
  readonly command: string;
  /** Undefined until the first update arrived. */
  readonly state: ScreenState | undefined;
  resize(cols: number, rows: number): void;
  scroll(request: ScrollRequest): void;
  /** Fires after each update. */
  onChange(listener: () => void): () => void;
  /** The pane no longer shows it. */
  release(): void;
}

/** Opens a job's screen by id; undefined when there is no such job (yet). */
export interface JobScreens {
  open(id: string): JobScreen | undefined;
}

export class ScreenFeed implements JobScreen {
  private current: ScreenState | undefined;
  private readonly listeners = new Set<() => void>();
  private released = false;

  constructor(
    readonly id: string,
    readonly command: string,
    private readonly control: ScreenControl,
  ) {}

  get state(): ScreenState | undefined {
    return this.current;
  }

  apply(update: ScreenUpdate): void {
    if (this.released) return;
    this.current = applyScreenUpdate(this.current, update);
    for (const listener of this.listeners) listener();
  }

  resize(cols: number, rows: number): void {
    if (!this.released) this.control.resize(cols, rows);
  }

  scroll(request: ScrollRequest): void {
    if (!this.released) this.control.scroll(request);
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.listeners.clear();
    this.control.release();
  }
}
