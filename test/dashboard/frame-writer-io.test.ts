// The render scheduler never starves I/O: a frame that falls due while a connection has just
// opened lets the connection's callback run first. This one needs a real socket, so it runs in the
// full tier; the frame writer's drawing is in frame-writer.test.ts.
import { createServer, connect, type AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { RenderScheduler } from "../../panes/screen/render-scheduler.js";
import { headlessScreen, type HeadlessScreen } from "../helpers/headless-screen.js";
import { waitFor } from "../helpers/conditions.js";

let h: HeadlessScreen | undefined;
afterEach(() => {
  h?.destroy();
  h = undefined;
});

describe("frame writer", () => {
  test("a due frame lets the I/O that is ready go first: a connection that just opened sends before the frame", async () => {
    h = headlessScreen(40, 5);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const order: string[] = [];
    const scheduler = new RenderScheduler(h.screen, { minIntervalMs: 0 });
    scheduler.onFrame(() => order.push("frame"));
    const socket = connect((server.address() as AddressInfo).port, "127.0.0.1", () => order.push("connected"));
    try {
      // The connect call goes out on the next tick; then a key asks for a frame while the code
      // that handles it keeps the thread busy past the frame's time.
      await new Promise((resolve) => process.nextTick(resolve));
      scheduler.requestForInput();
      const busyUntil = performance.now() + 30;
      while (performance.now() < busyUntil);
      await waitFor(() => order.length === 2, "the connection and the frame");
      expect(order).toEqual(["connected", "frame"]);
    } finally {
      scheduler.stop();
      socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
