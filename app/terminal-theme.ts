// Whether the dashboard draws for a dark or a light terminal. The terminal is asked for its
// background (OSC 11) just after the first frame, which is never held back for it: COLORFGBG, or
// dark, is the guess until the answer comes, and an answer that had not come within
// BACKGROUND_QUERY_TIMEOUT_MS is ignored, so the colours settle at the start and never change later.
// The window closes only after input already waiting has been read: a terminal answers within
// milliseconds, but pitwall's start (loading the settings) can keep the answer unread for longer.
// A theme in the settings (config.json's `theme`, PITWALL_THEME: app/settings.ts), known a moment
// after the first frame, wins over the answer. Without colours (NO_COLOR) or on the Linux console
// there is nothing to choose, and nothing is asked.
import type { ReportEvent } from "./keys/key-decoder.js";
import type { FrameWriter } from "../panes/screen/blessed-patches/diff-draw.js";
import { BACKGROUND_QUERY, BACKGROUND_QUERY_TIMEOUT_MS, themeForBackground, themeFromEnvironment, type Theme } from "../panes/screen/palette.js";

export interface TerminalThemeOptions {
  writer: Pick<FrameWriter, "setTheme">;
  /** Writes to the terminal, between frames. */
  write: (data: string) => void;
  requestFrame: () => void;
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** The theme of the first frame: COLORFGBG's guess, else dark. */
export function initialTheme(env: NodeJS.ProcessEnv): Theme {
  return themeFromEnvironment(env) ?? "dark";
}

export class TerminalTheme {
  /** Set once the person's setting is known: the terminal's answer no longer counts. */
  private configured = false;
  /** Whether an answer to the background query still counts (asked, not answered, not timed out). */
  private listening = false;
  private asked = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: TerminalThemeOptions) {}

  /** Whether colours can differ by theme here at all. */
  private get themable(): boolean {
    const { env } = this.options;
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
    return !noColor && (env.TERM ?? "").toLowerCase() !== "linux";
  }

  /** Asks the terminal for its background (after the first frame). */
  ask(): void {
    if (this.configured || !this.themable || this.asked) return;
    this.asked = true;
    this.listening = true;
    this.options.write(BACKGROUND_QUERY);
    // Timers run before input is read in a turn of the event loop, so after a busy stretch the
    // timer would fire before an answer that came in time is read: the window closes on the
    // check phase that follows that read (setImmediate).
    this.timer = setTimeout(() => {
      this.timer = undefined;
      setImmediate(() => (this.listening = false));
    }, this.options.timeoutMs ?? BACKGROUND_QUERY_TIMEOUT_MS);
    this.timer.unref();
  }

  /** Stops listening (the dashboard is closing). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.listening = false;
  }

  /** The settings have loaded: a theme there wins over whatever the terminal says. */
  configure(theme: Theme | undefined): void {
    if (theme === undefined) return;
    this.configured = true;
    this.apply(theme);
  }

  /** A report from the terminal; true when it was the answer to the background query. */
  report(event: ReportEvent): boolean {
    if (event.code !== 11) return false;
    const inTime = this.listening;
    this.listening = false;
    const theme = themeForBackground(event.value);
    if (inTime && !this.configured && theme !== undefined) this.apply(theme);
    return true;
  }

  private apply(theme: Theme): void {
    this.options.writer.setTheme(theme);
    this.options.requestFrame();
  }
}
