// The chat pane on a headless screen: streaming events, follow-at-bottom that pauses when scrolled
// up and resumes with End, tool lines, thinking collapsed, and a 10 000-message conversation that
// scrolls as fast as a short one.
import { afterEach, describe, expect, test } from "vitest";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { DashboardView } from "../../panes/dashboard-view.js";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { cpuTimeOf } from "../helpers/cpu-time.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";

let h: HeadlessScreen | undefined;
afterEach(() => {
  h?.destroy();
  h = undefined;
});

function assistant(text: string): AssistantMessage {
  return { role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "m", usage: emptyUsage(), stopReason: "stop", timestamp: 0 };
}

function setup(cols = 100, rows = 30): { view: DashboardView; scheduler: RenderScheduler; emit: (e: PitwallEvent) => void; show: () => Promise<string> } {
  h = headlessScreen(cols, rows);
  const view = new DashboardView(h.screen, { cwd: "/work", requestFrame: () => undefined, jobScreens: () => undefined });
  const scheduler = new RenderScheduler(h.screen, { beforeFrame: () => view.relayout() });
  const screen = h;
  return {
    view,
    scheduler,
    emit: (e) => {
      view.tools.handle(e);
      view.chat.handle(e);
    },
    show: async () => {
      scheduler.frameNow();
      await screen.settle();
      return screen.text().join("\n");
    },
  };
}

describe("chat pane", () => {
  test("streams text delta by delta, then shows a tool line with spinner, then ✓ and duration", async () => {
    const { emit, show } = setup();
    emit({ type: "message_start", message: { role: "user", content: "fix it", timestamp: 0 } });
    emit({ type: "message_start", message: assistant("") });
    emit({ type: "message_update", delta: { kind: "text_delta", contentIndex: 0, delta: "Looking " } });
    expect(await show()).toContain("Looking");
    emit({ type: "message_update", delta: { kind: "text_delta", contentIndex: 0, delta: "at it." } });
    emit({ type: "message_update", delta: { kind: "toolcall_start", contentIndex: 1, id: "c1", name: "read" } });
    emit({ type: "message_update", delta: { kind: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "c1", name: "read", arguments: { file_path: "src/app.ts" } } } });
    emit({ type: "tool_execution_start", toolCallId: "c1", toolName: "read", args: { file_path: "src/app.ts" } });
    let screen = await show();
    expect(screen).toContain("Looking at it.");
    expect(screen).toMatch(/▸ read src\/app\.ts\s+[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] \d\.\ds/);
    emit({ type: "tool_execution_end", toolCallId: "c1", toolName: "read", content: "1\tx", isError: false, durationMs: 1234 });
    screen = await show();
    expect(screen).toMatch(/▸ read src\/app\.ts\s+✓ 1\.2s/);
  });

  test("a retry removes the partial reply; thinking is collapsed to one line until toggled", async () => {
    const { view, emit, show } = setup(160, 30);
    emit({ type: "message_start", message: assistant("") });
    emit({ type: "message_update", delta: { kind: "thinking_delta", contentIndex: 0, delta: "first thought\nsecond thought" } });
    emit({ type: "message_update", delta: { kind: "text_delta", contentIndex: 1, delta: "partial that fails" } });
    let screen = await show();
    expect(screen).toContain("∴ thinking: first thought");
    expect(screen).not.toContain("second thought");
    emit({ type: "retry", attempt: 2, maxAttempts: 3, delayMs: 4000, reason: "overloaded" });
    screen = await show();
    expect(screen).not.toContain("partial that fails");
    expect(screen).toContain("Retrying in 4 s, attempt 2/3: overloaded");
    emit({ type: "message_start", message: assistant("") });
    emit({ type: "message_update", delta: { kind: "thinking_delta", contentIndex: 0, delta: "again\nmore" } });
    view.chat.toggleThinking();
    screen = await show();
    expect(screen).toContain("more");
  });

  test("follows the bottom, pauses when scrolled up, resumes at End", async () => {
    const { view, emit, show } = setup();
    for (let i = 0; i < 60; i++) emit({ type: "message_start", message: { role: "user", content: `message ${i}`, timestamp: 0 } });
    expect(await show()).toContain("message 59");
    view.chat.scrollBy(-20);
    let screen = await show();
    expect(screen).not.toContain("message 59");
    expect(screen).toContain("End");
    emit({ type: "message_start", message: { role: "user", content: "message 60", timestamp: 0 } });
    screen = await show();
    expect(screen).not.toContain("message 60");
    view.chat.toBottom();
    screen = await show();
    expect(screen).toContain("message 60");
  });

  test("a message's images show as lines under it, live and in a resumed conversation", async () => {
    const { view, emit, show } = setup();
    const shot = { type: "image" as const, mimeType: "image/png" as const, data: "", name: "shot.png", width: 1280, height: 800 };
    const wide = { ...shot, name: "wide.jpg", width: 1568, height: 980, original: { width: 3136, height: 1960 } };
    view.chat.loadMessages([{ role: "user", content: "earlier [image: shot.png]", images: [shot], timestamp: 0 }]);
    emit({ type: "message_start", message: { role: "user", content: "now [image: wide.jpg]", images: [wide], timestamp: 0 } });
    const screen = await show();
    expect(screen).toMatch(/› earlier \[image: shot.png\][^\n]*\n│\s+image: shot.png 1280×800/);
    expect(screen).toMatch(/› now \[image: wide.jpg\][^\n]*\n│\s+image: wide.jpg 3136×1960 \(sent at 1568×980\)/);
  });

  test("a tool call loaded from a session shows its mark without a made-up duration", async () => {
    const { view, show } = setup();
    const call = { role: "assistant" as const, content: [{ type: "toolCall" as const, id: "c1", name: "read", arguments: { file_path: "src/app.ts" } }], provider: "anthropic", model: "m", usage: emptyUsage(), stopReason: "toolUse" as const, timestamp: 0 };
    view.chat.loadMessages([
      { role: "user", content: "read it", timestamp: 0 },
      call,
      { role: "toolResult", toolCallId: "c1", toolName: "read", content: "1\tx", isError: false, timestamp: 0 },
    ]);
    const screen = await show();
    expect(screen).toMatch(/▸ read src\/app\.ts\s+✓ [│├]/);
    expect(screen).not.toContain("0.0s");
  });

  test("a 10 000-message conversation scrolls as fast as a short one", async () => {
    const measure = async (pairs: number): Promise<number> => {
      const { view, scheduler, show } = setup(120, 40);
      const messages: Message[] = [];
      for (let i = 0; i < pairs; i++) {
        messages.push({ role: "user", content: `question ${i}`, timestamp: 2 * i });
        messages.push({ ...assistant(`Answer **${i}** with some \`code\` and a longer sentence that wraps around the pane at least once or twice.`), timestamp: 2 * i + 1 });
      }
      // What the chat lets go of comes back from the session file; here, from the same messages.
      view.chat.readOlderFrom(
        async (isStart, max) => {
          const at = messages.findIndex(isStart);
          const before = messages.slice(0, at);
          return { messages: max === undefined ? before : before.slice(-max), more: max !== undefined && before.length > max };
        },
        () => undefined,
      );
      view.chat.loadMessages(messages);
      await show();
      // Warm up, then time frames that each scroll a few rows (short conversations scroll within themselves).
      const frames = (steps: number): number =>
        cpuTimeOf(() => {
          for (let i = 0; i < steps; i++) {
            view.chat.scrollBy(i % 20 < 10 ? -3 : 3);
            scheduler.frameNow();
          }
        }) / steps;
      frames(50);
      const perFrame = frames(300);
      view.chat.toTop();
      // Home in a conversation whose start the chat let go of reads it back first.
      while (view.chat.log.hasOlder) await new Promise((resolve) => setImmediate(resolve));
      expect(await show()).toContain("question 0");
      h!.destroy();
      h = undefined;
      return perFrame;
    };
    const short = await measure(10);
    const long = await measure(5000);
    // Relative, not absolute, and in CPU time, which a busy machine does not stretch. Drawing every
    // message would be ~500x.
    expect(long).toBeLessThan(short * 5 + 2);
  }, 60_000);
});
