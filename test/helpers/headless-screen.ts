// A blessed screen of a fixed size on in-memory streams, whose output is fed into a headless
// xterm, so pane tests check what a terminal would really show (through pitwall's frame writer).
import { PassThrough } from "node:stream";
import xtermHeadless from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";
import type { Widgets } from "blessed";
import { createScreen } from "../../panes/screen/screen-factory.js";

export interface HeadlessScreen {
  screen: Widgets.Screen;
  output: PassThrough & { columns: number; rows: number };
  terminal: InstanceType<typeof xtermHeadless.Terminal>;
  /** Resolves once everything written so far has been parsed. */
  settle(): Promise<void>;
  /** The emulator's screen, one string per row (trailing spaces trimmed). */
  text(): string[];
  resize(cols: number, rows: number): void;
  destroy(): void;
}

/** `env` is the environment the screen reads (TERM, NO_COLOR, COLORTERM). */
export function headlessScreen(cols = 100, rows = 30, env: NodeJS.ProcessEnv = { TERM: "xterm-256color" }): HeadlessScreen {
  const output = Object.assign(new PassThrough(), { columns: cols, rows, isTTY: true }) as PassThrough & { columns: number; rows: number };
  const terminal = new xtermHeadless.Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
  terminal.loadAddon(new unicode11.Unicode11Addon());
  terminal.unicode.activeVersion = "11";
  let pending: Promise<void> = Promise.resolve();
  output.on("data", (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    pending = pending.then(() => new Promise<void>((resolve) => terminal.write(text, resolve)));
  });
  const screen = createScreen({ output, env });
  return {
    screen,
    output,
    terminal,
    settle: async () => {
      await new Promise((r) => setImmediate(r));
      await pending;
    },
    text: () => {
      const lines: string[] = [];
      const buffer = terminal.buffer.active;
      for (let y = 0; y < terminal.rows; y++) lines.push(buffer.getLine(buffer.viewportY + y)?.translateToString(true) ?? "");
      return lines;
    },
    resize: (c, r) => {
      output.columns = c;
      output.rows = r;
      terminal.resize(c, r);
      output.emit("resize");
    },
    destroy: () => {
      screen.destroy();
      terminal.dispose();
    },
  };
}
