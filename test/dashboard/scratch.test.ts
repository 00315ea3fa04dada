import { expect, test } from "vitest";
import { DashboardView } from "../../panes/dashboard-view.js";
import { RenderScheduler } from "../../panes/render-scheduler.js";
import { headlessScreen } from "../helpers/headless-screen.js";

test("scratch", async () => {
  const h = headlessScreen(100, 30);
  const view = new DashboardView(h.screen, "/tmp");
  const scheduler = new RenderScheduler(h.screen, { beforeFrame: () => view.relayout(), cursor: () => view.input.cursorPlacement() });
  view.chat.handle({ type: "message_start", message: { role: "user", content: "make the tests pass 🚀 now", timestamp: 0 } });
  view.chat.handle({ type: "message_start", message: { role: "assistant", content: [], provider: "x", model: "y", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: null }, stopReason: "stop", timestamp: 0 } });
  view.chat.handle({ type: "message_update", delta: { kind: "text_delta", contentIndex: 0, delta: "# Plan\n\nI'll **run** the `suite` first ✅.\n\n- one\n- two\n\n```ts\nconst a = 1;\n```\n" } });
  view.chat.handle({ type: "message_update", delta: { kind: "toolcall_end", contentIndex: 1, toolCall: { type: "toolCall", id: "t1", name: "bash", arguments: { command: "npm test" } } } });
  view.tools.handle({ type: "tool_execution_start", toolCallId: "t1", toolName: "bash", args: { command: "npm test" } });
  view.tools.handle({ type: "tool_execution_update", toolCallId: "t1", toolName: "bash", chunk: "\x1b[31mFAIL\x1b[0m test/app.test.ts\nexpected 2\r\n" });
  view.input.buffer.insert("hello");
  scheduler.frameNow();
  await h.settle();
  console.log(h.text().join("\n"));
  expect(h.text().join("\n")).toContain("make the tests pass");
  h.destroy();
});
