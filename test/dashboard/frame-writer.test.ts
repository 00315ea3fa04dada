// pitwall's frame writer and render scheduler on a headless screen: wide characters repaint
// without shifting their row, frames are synchronized and coalesced, and italic reaches the terminal.
// (How a frame waits for I/O that is ready, a socket's, is in frame-writer-io.test.ts.)
import { afterEach, describe, expect, test, vi } from "vitest";
import { screenInternals } from "../../panes/screen/blessed-internals.js";
import { sgrFor } from "../../panes/screen/blessed-patches/diff-draw.js";
import { Canvas } from "../../panes/screen/canvas.js";
import { RenderScheduler, SYNC_END, SYNC_START } from "../../panes/screen/render-scheduler.js";
import { attr, Flag, PLAIN } from "../../panes/text/styled-text.js";
import { extrasKey } from "../../panes/screen/cell-extras.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";
import { waitFor } from "../helpers/conditions.js";

let h: HeadlessScreen | undefined;
afterEach(() => {
  h?.destroy();
  h = undefined;
});

function paintRow(screen: HeadlessScreen, y: number, text: string): void {
  const lines = screenInternals(screen.screen).lines;
  new Canvas(lines, { left: 0, top: 0, width: screen.output.columns, height: screen.output.rows }).paintLine(y, [
    { text: "|", attr: PLAIN },
    { text, attr: PLAIN },
  ]);
  lines[y]![screen.output.columns - 1]![1] = "|";
}

describe("frame writer", () => {
  test("changing emoji, CJK and combined emoji in place never moves the rest of the row", async () => {
    h = headlessScreen(40, 5);
    const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 0 });
    const variants = ["plain ascii text", "🚀 rocket ✅ done", "中文 and more", "👨‍👩‍👧 family 🇫🇷", "❤️ heart e\u0301", "x🚀y中z", "plain again"];
    for (const v of variants) {
      paintRow(h, 1, v);
      scheduler.frameNow();
      await h.settle();
      const row = h.terminal.buffer.active.getLine(1)!;
      expect(row.getCell(39)!.getChars(), `after "${v}"`).toBe("|");
      expect(row.getCell(0)!.getChars()).toBe("|");
      expect(h.text()[1]).toContain(v.replace("👨‍👩‍👧", "👨").replace("❤️", "❤"));
    }
  });

  test("each frame is one write wrapped in synchronized output; requests coalesce", async () => {
    h = headlessScreen(40, 5);
    const writes: string[] = [];
    h.output.on("data", (chunk: Buffer) => writes.push(chunk.toString()));
    const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 30 });
    scheduler.frameNow();
    writes.length = 0;
    for (let i = 0; i < 200; i++) {
      paintRow(h, 2, `update ${i}`);
      scheduler.request();
    }
    await waitFor(() => scheduler.stats.frames >= 1 && writes.length > 0, "the coalesced frame");
    expect(scheduler.stats.frames).toBeLessThanOrEqual(3);
    for (const w of writes) {
      expect(w.startsWith(SYNC_START)).toBe(true);
      expect(w.endsWith(SYNC_END)).toBe(true);
    }
    await h.settle();
    expect(h.text()[2]).toContain("update 199");
    scheduler.stop();
  });

  test("a key's frame comes ahead of the streaming cadence; a burst of keys shares one", async () => {
    h = headlessScreen(40, 5);
    // The clock is fake; a due frame runs from a real setImmediate, queued ahead of advance()'s own.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
    try {
      const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 33, inputIntervalMs: 4, now: () => performance.now() });
      const advance = async (ms: number): Promise<void> => {
        vi.advanceTimersByTime(ms);
        await new Promise((resolve) => setImmediate(resolve));
      };
      scheduler.frameNow();
      // Streaming output asks for a frame: due a whole interval after the last one.
      scheduler.request();
      await advance(2);
      // A key, then three more at once: one frame, 4 ms after the last frame, not 33.
      for (let i = 0; i < 4; i++) scheduler.requestForInput();
      await advance(2);
      expect(scheduler.stats.frames).toBe(2);
      // The stream's next frame keeps its cadence from there.
      scheduler.request();
      await advance(32);
      expect(scheduler.stats.frames).toBe(2);
      await advance(1);
      expect(scheduler.stats.frames).toBe(3);
      scheduler.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  test("italic, dim and strikethrough reach the terminal; colours reduce for 16-colour terminals", () => {
    expect(sgrFor(attr({ italic: true, fg: 2 }))).toBe("\x1b[0;3;32m");
    expect(sgrFor(attr({ dim: true, strike: true }))).toBe("\x1b[0;2;9m");
    expect(sgrFor(attr({ fg: 196 }), 16)).toMatch(/^\x1b\[0;(3[0-7]|9[0-7])m$/);
  });
  /** Draws one frame of a cell with 24-bit colour and the rarer styles on a screen made for `env`; returns what was written. */
  async function drawExtras(env: NodeJS.ProcessEnv): Promise<{ written: string; screen: HeadlessScreen }> {
    h = headlessScreen(20, 3, { TERM: "xterm-256color", ...env });
    const writes: string[] = [];
    h.output.on("data", (chunk: Buffer) => writes.push(chunk.toString()));
    const lines = screenInternals(h.screen).lines;
    const canvas = new Canvas(lines, { left: 0, top: 0, width: 20, height: 3 });
    // As the job terminal paints it: the 256-colour form in the attribute, the rest as extras.
    canvas.cell(1, 1, attr({ fg: 208, underline: true }) | (Flag.extras << 18), "X", extrasKey({ fg: 0xff8000, underlineStyle: 3, blink: true, overline: true }));
    const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 0 });
    scheduler.frameNow();
    await h.settle();
    scheduler.stop();
    return { written: writes.join(""), screen: h };
  }

  test("a job's 24-bit colour reaches a terminal that has it (COLORTERM=truecolor) as is, and one without it as the nearest of the 256", async () => {
    const truecolor = await drawExtras({ COLORTERM: "truecolor" });
    expect(truecolor.written).toContain("38;2;255;128;0");
    expect(truecolor.written).not.toContain("38;5;208");
    const cell = truecolor.screen.terminal.buffer.active.getLine(1)!.getCell(1)!;
    expect(cell.getChars()).toBe("X");
    expect(cell.isFgRGB()).toBe(true);
    expect(cell.getFgColor()).toBe(0xff8000);
    h!.destroy();
    const rounded = await drawExtras({});
    expect(rounded.written).toContain("38;5;208");
    expect(rounded.written).not.toContain("38;2;");
    expect(rounded.screen.terminal.buffer.active.getLine(1)!.getCell(1)!.getFgColor()).toBe(208);
  });

  test("blink and overline always reach the terminal; an underline's style where the terminal draws them, else a plain underline", async () => {
    const kitty = await drawExtras({ TERM: "xterm-kitty" });
    expect(kitty.written).toMatch(/\x1b\[0;38;2;255;128;0;4:3;5;53mX/);
    const cell = kitty.screen.terminal.buffer.active.getLine(1)!.getCell(1)!;
    expect([cell.isBlink(), cell.isOverline(), cell.isUnderline()].map(Boolean)).toEqual([true, true, true]);
    h!.destroy();
    const plain = await drawExtras({});
    expect(plain.written).toMatch(/\x1b\[0;4;38;5;208;5;53mX/);
  });

  test("a ZWJ sequence and an emoji with VS16 are written whole, each part in the columns the job's emulator gave it", async () => {
    h = headlessScreen(20, 3);
    const writes: string[] = [];
    h.output.on("data", (chunk: Buffer) => writes.push(chunk.toString()));
    const lines = screenInternals(h.screen).lines;
    const canvas = new Canvas(lines, { left: 0, top: 0, width: 20, height: 3 });
    // What the job terminal paints for "|👨‍👩‍👧❤️|": each emoji of the family two columns, the heart one.
    const cells = ["|", "\u{1F468}\u200d", "", "\u{1F469}\u200d", "", "\u{1F467}", "", "\u2764\ufe0f", "|"];
    cells.forEach((ch, x) => canvas.cell(x, 1, PLAIN, ch));
    const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 0 });
    scheduler.frameNow();
    await h.settle();
    scheduler.stop();
    const written = writes.join("");
    expect(written).toContain("\u{1F468}\u200d");
    expect(written).toContain("\u{1F469}\u200d");
    expect(written).toContain("\u2764\ufe0f");
    const row = h.terminal.buffer.active.getLine(1)!;
    expect([0, 1, 3, 5, 7, 8].map((x) => row.getCell(x)!.getChars())).toEqual(["|", "\u{1F468}\u200d", "\u{1F469}\u200d", "\u{1F467}", "\u2764\ufe0f", "|"]);
  });
});
