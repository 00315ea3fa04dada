// What a job's emulator records beyond its public typings, as the screen data carries it: whether
// the program hid its cursor and which shape it asked for, the mouse reports it asked for and their
// encoding, and an underline's style. (These are xterm internals: an upgrade that moves them fails
// here first.)
import xtermHeadless from "@xterm/headless";
import type { Terminal } from "@xterm/headless";
import { afterEach, describe, expect, test } from "vitest";
import { emulatorModes } from "../../tools/jobs/terminal/emulator-modes.js";
import { CellFlag, screenMeta, encodeRows, underlineStyleOf } from "../../tools/jobs/index.js";

const terminals: Terminal[] = [];
afterEach(() => {
  for (const t of terminals.splice(0)) t.dispose();
});

async function emulator(text = ""): Promise<Terminal> {
  const t = new xtermHeadless.Terminal({ cols: 20, rows: 3, allowProposedApi: true, logLevel: "off" });
  terminals.push(t);
  await write(t, text);
  return t;
}

function write(t: Terminal, text: string): Promise<void> {
  return new Promise<void>((resolve) => t.write(text, resolve));
}

describe("the modes a job's emulator records", () => {
  test("a fresh terminal: cursor shown in the terminal's own shape, no mouse reports", async () => {
    const t = await emulator();
    expect(emulatorModes(t)).toEqual({ cursorVisible: true, cursorShape: 0, mouseTracking: "none", mouseEncoding: "default" });
  });

  test("a hidden cursor and its shape (DECSCUSR: odd blinks, even is steady; 0 gives the terminal's own back)", async () => {
    const t = await emulator("\x1b[?25l\x1b[6 q");
    expect(emulatorModes(t)).toMatchObject({ cursorVisible: false, cursorShape: 6 });
    for (const shape of [1, 2, 3, 4, 5, 0]) {
      await write(t, `\x1b[${shape} q`);
      expect(emulatorModes(t).cursorShape).toBe(shape);
    }
    await write(t, "\x1b[?25h");
    expect(screenMeta(t)).toMatchObject({ cursorVisible: true, cursorShape: 0 });
  });

  test("mouse tracking (9, 1000, 1002, 1003) and its encoding (1006 SGR, 1016 SGR pixels)", async () => {
    const t = await emulator("\x1b[?1000h");
    expect(emulatorModes(t)).toMatchObject({ mouseTracking: "vt200", mouseEncoding: "default" });
    await write(t, "\x1b[?1006h\x1b[?1002h");
    expect(emulatorModes(t)).toMatchObject({ mouseTracking: "drag", mouseEncoding: "sgr" });
    await write(t, "\x1b[?1003h\x1b[?1016h");
    expect(screenMeta(t)).toMatchObject({ mouseTracking: "any", mouseEncoding: "sgr-pixels" });
    await write(t, "\x1b[?9h\x1b[?1016l");
    expect(emulatorModes(t)).toMatchObject({ mouseTracking: "x10", mouseEncoding: "default" });
    await write(t, "\x1b[?9l");
    expect(emulatorModes(t).mouseTracking).toBe("none");
  });

  test("blink, overline and an underline's style are in a run's flags", async () => {
    const t = await emulator("\x1b[5mB\x1b[0m\x1b[53mO\x1b[0m\x1b[4:3mC\x1b[4:5mD\x1b[0m\x1b[4mU");
    const runs = encodeRows(t)[0]!;
    const flags = runs.map((run) => run[2]);
    expect(runs.map((run) => run[3])).toEqual(["B", "O", "C", "D", "U"]);
    expect(flags[0]! & CellFlag.blink).toBe(CellFlag.blink);
    expect(flags[1]! & CellFlag.overline).toBe(CellFlag.overline);
    expect(flags.slice(2).map(underlineStyleOf)).toEqual([3, 5, 1]);
  });
});
