// A headless xterm as a job's terminal is, for tests of what is read from one: Unicode 11 widths,
// fed `text` before it is returned, and disposed after each test.
import xtermHeadless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import unicode11 from "@xterm/addon-unicode11";
import { afterEach } from "vitest";

const terminals: Terminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.dispose();
});

export async function emulator(cols: number, rows: number, text: string, scrollback = 100): Promise<Terminal> {
  const t = new xtermHeadless.Terminal({ cols, rows, scrollback, allowProposedApi: true });
  t.loadAddon(new unicode11.Unicode11Addon());
  t.unicode.activeVersion = "11";
  terminals.push(t);
  await new Promise<void>((resolve) => t.write(text, resolve));
  return t;
}
