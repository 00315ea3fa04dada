// The status line's short messages: a flash that clears itself after a moment, and a message that
// stays while something is under way ("stopping job 4…") and then says how it went.
import type { StatusState } from "../panes/status-bar.js";

export class StatusFlash {
  private transientTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly status: { readonly state: StatusState },
    private readonly requestFrame: () => void,
  ) {}

  /** A short message in the status line. */
  flash(text: string, ms = 2500): void {
    const status = this.status.state;
    status.transient = text;
    if (this.transientTimer) clearTimeout(this.transientTimer);
    this.transientTimer = setTimeout(() => {
      status.transient = undefined;
      this.requestFrame();
    }, ms);
    this.transientTimer.unref();
  }

  /**
   * A message in the status line for as long as something is under way ("stopping job 4…"), then
   * what became of it (a short flash), or nothing. A newer message replaces it meanwhile.
   */
  flashWhile(text: string, outcome: Promise<string | undefined>): void {
    const status = this.status.state;
    if (this.transientTimer) clearTimeout(this.transientTimer);
    this.transientTimer = undefined;
    status.transient = text;
    void outcome.then((after) => {
      if (status.transient !== text) return;
      if (after) this.flash(after);
      else status.transient = undefined;
      this.requestFrame();
    });
  }

  dispose(): void {
    if (this.transientTimer) clearTimeout(this.transientTimer);
  }
}
