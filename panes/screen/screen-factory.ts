// Creates the blessed screen the way pitwall needs it: a fixed terminal type blessed can read
// (its terminfo parser fails on current ncurses files and would drop to 8 colours inside tmux),
// full Unicode, no mouse unless asked, and pitwall's frame writer (without colours when NO_COLOR
// is set, as no-color.org asks: present and not empty; with a job's 24-bit colours and underline
// styles where the environment says the terminal draws them, outer-terminal.ts). blessed never
// reads the keyboard: pitwall decodes stdin itself (key-decoder.ts), so blessed gets an idle stream.
import type { Widgets } from "blessed";
import { PassThrough } from "node:stream";
import { blessedScreen } from "./blessed-parts.js";
import { installDiffDraw } from "./blessed-patches/diff-draw.js";
import { extraCapabilities } from "./outer-terminal.js";
import type { Theme } from "./palette.js";

export interface ScreenOptions {
  output: NodeJS.WriteStream | NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
  /** The theme of the first frame (frameWriter(screen).setTheme changes it later). */
  theme?: Theme;
}

/** The terminfo name to give blessed: the Linux console keeps its own, everything else is xterm-256color. */
export function terminalType(env: NodeJS.ProcessEnv = process.env): string {
  const term = (env.TERM ?? "").toLowerCase();
  if (term === "linux") return "linux";
  return "xterm-256color";
}

export function createScreen(options: ScreenOptions): Widgets.Screen {
  const screen = blessedScreen({
    input: new PassThrough(),
    output: options.output as NodeJS.WritableStream & { columns: number; rows: number },
    terminal: terminalType(options.env),
    fullUnicode: true,
    forceUnicode: true,
    smartCSR: true,
    // Border joints are drawn by border-joints.ts, which leaves overlays alone.
    dockBorders: false,
    autoPadding: false,
    warnings: false,
    title: "pitwall",
  } as unknown as Widgets.IScreenOptions);
  const noColor = options.env?.NO_COLOR;
  installDiffDraw(screen, { monochrome: noColor !== undefined && noColor !== "", theme: options.theme ?? "dark", ...extraCapabilities(options.env ?? {}) });
  return screen;
}
