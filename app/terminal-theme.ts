// Whether the dashboard draws for a dark or a light terminal. The terminal is asked for its
// background (OSC 11) just after the first frame, which is never held back for it: COLORFGBG, or
// dark, is the guess until the answer comes, and an answer later than BACKGROUND_QUERY_TIMEOUT_MS is
// ignored, so the colours settle within half a second of the start and never change mid-session.
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
  /** Until when an answer to the background query counts (undefined: not asked, or answered). */
  private deadline: number | undefined;
  private asked = false;

  constructor(private readonly options: TerminalThemeOptions) {}

  /** Whether colours can differ by theme here at all. */
  private get themable(): boolean {
    const { env } = this.options;
    const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
    return !noColor && (env.TERM ?? "").toLowerCase() !== "linux";
  }

  /** Asks the terminal for its background (after the first frame). */
  ask(now = Date.now()): void {
    if (this.configured || !this.themable || this.asked) return;
    this.asked = true;
    this.deadline = now + (this.options.timeoutMs ?? BACKGROUND_QUERY_TIMEOUT_MS);
    this.options.write(BACKGROUND_QUERY);
  }

  /** The settings have loaded: a theme there wins over whatever the terminal says. */
  configure(theme: Theme | undefined): void {
    if (theme === undefined) return;
    this.configured = true;
    this.apply(theme);
  }

  /** A report from the terminal; true when it was the answer to the background query. */
  report(event: ReportEvent, now = Date.now()): boolean {
    if (event.code !== 11) return false;
    const inTime = this.deadline !== undefined && now <= this.deadline;
    this.deadline = undefined;
    const theme = themeForBackground(event.value);
    if (inTime && !this.configured && theme !== undefined) this.apply(theme);
    return true;
  }

  private apply(theme: Theme): void {
    this.options.writer.setTheme(theme);
    this.options.requestFrame();
  }
}
