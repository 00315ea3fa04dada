// pitwall's frame writer and render scheduler on a headless screen: wide characters repaint
// without shifting their row, frames are synchronized and coalesced, and italic reaches the terminal.
// (How a frame waits for I/O that is ready, a socket's, is in frame-writer-io.test.ts.)
import { afterEach, describe, expect, test, vi } from "vitest";
import { screenInternals } from "../../panes/screen/blessed-internals.js";
import { sgrFor } from "../../panes/screen/blessed-patches/diff-draw.js";
import { Canvas } from "../../panes/screen/canvas.js";
import { RenderScheduler, SYNC_END, SYNC_START } from "../../panes/screen/render-scheduler.js";
import { attr, PLAIN } from "../../panes/text/styled-text.js";
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
});
