// node-pty tears a pty's socket down 200 ms after the process exits, read or not; readBeforeDestroy
// makes that wait until the socket is quiet or closed. Checked on a stand-in socket, where the
// timing is ours to drive.
import { EventEmitter } from "node:events";
import type { IPty } from "node-pty";
import { describe, expect, it } from "vitest";
import { readBeforeDestroy } from "../../tools/jobs/pty-process.js";
import { waitFor } from "../helpers/conditions.js";

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroyCalls = 0;
  destroy(): this {
    this.destroyCalls++;
    this.destroyed = true;
    this.emit("close");
    return this;
  }
}

function guarded(quietMs: number): FakeSocket {
  const socket = new FakeSocket();
  readBeforeDestroy({ _socket: socket } as unknown as IPty, quietMs);
  return socket;
}

describe("readBeforeDestroy", () => {
  it("keeps the socket while data still arrives, and lets it go once quiet", async () => {
    const socket = guarded(120);
    socket.destroy();
    expect(socket.destroyed).toBe(false);
    const feeding = setInterval(() => socket.emit("data", "more"), 20);
    const started = Date.now();
    await waitFor(() => Date.now() - started > 300, "a while of data");
    expect(socket.destroyed).toBe(false);
    clearInterval(feeding);
    await waitFor(() => socket.destroyed, "the quiet socket to be destroyed");
    expect(socket.destroyCalls).toBe(1);
  });

  it("never destroys a socket that closed by itself (read to its end)", async () => {
    const socket = guarded(60);
    socket.destroy();
    socket.emit("close");
    (socket as { destroyed: boolean }).destroyed = true;
    const started = Date.now();
    await waitFor(() => Date.now() - started > 200, "longer than the quiet time");
    expect(socket.destroyCalls).toBe(0);
  });
});
