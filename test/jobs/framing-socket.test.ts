// The job host's framing over a real Unix socket: an answer too large for one frame goes to the
// client as a failure that says so, and the connection carries on. (The framing itself, without a
// socket, is in framing.test.ts.)
import { connect, createServer, type Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HostClient } from "../../tools/jobs/host/host-client.js";
import { LineSplitter, MAX_FRAME_CHARS } from "../../tools/jobs/wire/framing.js";
import { tempDir } from "./helpers.js";
import { waitFor } from "../helpers/conditions.js";

describe("the job host's framing", () => {
  it("a host's answer too large for one frame goes as a failure that says so, and the connection stays", async () => {
    const path = join(tempDir(), "host.sock");
    let accepted: Socket | undefined;
    const server = createServer((socket) => (accepted = socket));
    await new Promise<void>((resolve) => server.listen(path, resolve));
    const peer = connect(path);
    try {
      peer.setEncoding("utf8");
      const received: unknown[] = [];
      const lines = new LineSplitter((line) => received.push(JSON.parse(line)));
      peer.on("data", (chunk: string) => lines.push(chunk));
      const socket = await waitFor(() => accepted, "the connection");
      const client = new HostClient("c1", socket, { greet: () => undefined, call: () => undefined, closed: () => undefined });
      client.reply(1, ["x".repeat(MAX_FRAME_CHARS)]);
      client.reply(2, ["fits"]);
      await waitFor(() => received.length === 2, "both answers");
      expect(received[0]).toMatchObject({ type: "failure", id: 1 });
      expect((received[0] as { message: string }).message).toMatch(new RegExp(`^The job host's answer is \\d+ characters, over the ${MAX_FRAME_CHARS} a message may have\\. Ask for less at a time\\.$`));
      expect(received[1]).toEqual({ type: "result", id: 2, value: ["fits"] });
    } finally {
      peer.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
