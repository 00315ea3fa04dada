// The tool-output pane follows the live tool call unless the person is reading another: a
// selection holds it for READING_HOLD_MS after the last pick or scroll, or while the pane has focus
// and is scrolled up; a held pane says which newer call started and that End goes to it.
import { afterEach, describe, expect, test, vi } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { READING_HOLD_MS } from "../../panes/tool-output/tool-output-pane.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";

let h: HeadlessScreen | undefined;
afterEach(() => {
  h?.destroy();
  h = undefined;
});

function setup() {
  h = headlessScreen(120, 40);
  const screen = h;
  const view = new DashboardView(h.screen, { cwd: "/work", requestFrame: () => undefined, jobScreens: () => undefined });
  const scheduler = new RenderScheduler(h.screen, { beforeFrame: () => view.relayout() });
  const emit = (e: PitwallEvent): void => {
    view.tools.handle(e);
    view.chat.handle(e);
  };
  /** A finished bash call, as the chat and the tool store see it. */
  const call = (id: string, command: string, output: string): void => {
    emit({ type: "message_update", delta: { kind: "toolcall_start", contentIndex: 0, id, name: "bash" } });
    emit({ type: "tool_execution_start", toolCallId: id, toolName: "bash", args: { command } });
    emit({ type: "tool_execution_update", toolCallId: id, toolName: "bash", chunk: `${output}\n` });
    emit({ type: "tool_execution_end", toolCallId: id, toolName: "bash", content: output, details: { exitCode: 0 }, isError: false, durationMs: 5 });
  };
  /** A call starting now (at `now`, for the hold). */
  const start = (id: string, command: string, now: number): void => {
    emit({ type: "message_update", delta: { kind: "toolcall_start", contentIndex: 0, id, name: "bash" } });
    emit({ type: "tool_execution_start", toolCallId: id, toolName: "bash", args: { command } });
    view.toolCallStarted(now);
  };
  const show = async (): Promise<string> => {
    scheduler.frameNow();
    await screen.settle();
    return screen.text().join("\n");
  };
  return { view, call, start, show };
}

describe("the tool-output pane follows the live call", () => {
  test("a call picked a while ago does not hold the pane: the next call shows", async () => {
    const { view, call, start, show } = setup();
    call("a", "echo older", "older-output");
    call("b", "echo newer", "newer-output");
    view.chat.selectTool(-1);
    expect(await show()).toContain("tool output: bash echo older");
    start("c", "echo live", Date.now() + READING_HOLD_MS + 1);
    expect(view.toolOutput.held).toBe(false);
    expect(view.chat.selectedToolId).toBeUndefined();
    expect(await show()).toContain("tool output: bash echo live");
  });

  test("a call picked just now holds the pane and the title names the new call and End; End goes live", async () => {
    const { view, call, start, show } = setup();
    call("a", "echo older", "older-output");
    call("b", "echo newer", "newer-output");
    view.chat.selectTool(-1);
    start("c", "seq 1 100000", Date.now());
    expect(view.toolOutput.held).toBe(true);
    const screen = await show();
    expect(screen).toContain("tool output: bash echo older");
    expect(screen).toMatch(/new: bash seq 1 100000 · End/);
    view.followLiveTool();
    expect(await show()).toContain("tool output: bash seq 1 100000");
  });

  test("the person's readingHoldMs sets how long a pick holds the pane, and the pane goes live when it ends, not up to a second later", async () => {
    const { view, call, start, show } = setup();
    view.toolOutput.holdMs = 300;
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      call("a", "echo older", "older-output");
      call("b", "echo newer", "newer-output");
      view.chat.selectTool(-1);
      start("c", "echo live", Date.now());
      expect(view.toolOutput.held).toBe(true);
      vi.advanceTimersByTime(299);
      expect(view.toolOutput.held).toBe(true);
      // The view looks again when the hold ends, not only at its once-a-second check.
      vi.advanceTimersByTime(1);
      expect(view.toolOutput.held).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    expect(await show()).toContain("tool output: bash echo live");
  });

  test("focused and scrolled up, the pane holds however long ago the person scrolled", async () => {
    const { view, call, start, show } = setup();
    call("a", "seq 1 200", Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join("\n"));
    call("b", "echo newer", "newer-output");
    view.chat.selectTool(-1);
    view.setFocus("toolOutput");
    await show();
    view.toolOutput.scrollBy(5);
    await show();
    start("c", "echo live", Date.now() + 10 * READING_HOLD_MS);
    expect(view.toolOutput.held).toBe(true);
    // The same without focus: released.
    view.setFocus("input");
    start("d", "echo later", Date.now() + 10 * READING_HOLD_MS);
    expect(view.toolOutput.held).toBe(false);
  });

  test("Alt+Down past the last call follows the live one again", async () => {
    const { view, call, show } = setup();
    call("a", "echo one", "one");
    call("b", "echo two", "two");
    view.chat.selectTool(-1);
    view.chat.selectTool(1);
    expect(view.chat.selectedToolId).toBe("b");
    view.chat.selectTool(1);
    expect(view.chat.selectedToolId).toBeUndefined();
    expect(view.toolOutput.held).toBe(false);
    expect(await show()).not.toMatch(/✓ done · selected/);
  });
});
