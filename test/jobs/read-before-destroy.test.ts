// node-pty tears a pty's socket down 200 ms after the process exits, read or not; readBeforeDestroy
// makes that wait until the socket is quiet or closed. Checked on a stand-in socket with vitest's
// fake clock, so the timing is the test's to drive.
import { EventEmitter } from "node:events";
import type { IPty } from "node-pty";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { readBeforeDestroy } from "../../tools/jobs/process/pty-process.js";

class FakeSocket extends EventEmitter {
  destroyed = false;
  destroyCalls = 0;
  paused = false;
  isPaused(): boolean {
    return this.paused;
  }
  destroyError: Error | undefined;
  destroy(error?: Error): this {
    this.destroyCalls++;
    this.destroyed = true;
    this.destroyError = error;
    this.emit("close");
    return this;
  }
}

function guarded(quietMs: number): FakeSocket {
  const socket = new FakeSocket();
  readBeforeDestroy({ _socket: socket } as unknown as IPty, quietMs);
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("readBeforeDestroy", () => {
  it("keeps the socket while data still arrives, and lets it go once quiet", () => {
    const socket = guarded(120);
    socket.destroy();
    expect(socket.destroyed).toBe(false);
    for (let i = 0; i < 15; i++) {
      vi.advanceTimersByTime(20);
      socket.emit("data", "more");
    }
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(100);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(100);
    expect(socket.destroyed).toBe(true);
    expect(socket.destroyCalls).toBe(1);
  });

  it("reads what arrived during a long block before letting go", () => {
    const socket = guarded(120);
    socket.destroy();
    // The loop was blocked: the quiet check is due, and so is a read (it lands before setImmediate).
    vi.setSystemTime(Date.now() + 500);
    vi.advanceTimersToNextTimer();
    socket.emit("data", "late lines");
    vi.advanceTimersByTime(0);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(200);
    expect(socket.destroyed).toBe(true);
  });

  it("keeps a paused socket however long it stays paused: what it holds is unread, not done", () => {
    const socket = guarded(120);
    // Paused for a while (the emulator is behind) when the process exits.
    socket.paused = true;
    vi.advanceTimersByTime(500);
    socket.destroy();
    vi.advanceTimersByTime(1_000);
    expect(socket.destroyed).toBe(false);
    // Resumed once the process is gone: the rest is read, then the quiet lets it go.
    socket.paused = false;
    socket.emit("data", "the last lines");
    vi.advanceTimersByTime(100);
    expect(socket.destroyed).toBe(false);
    vi.advanceTimersByTime(200);
    expect(socket.destroyed).toBe(true);
  });

  it("lets a read error (EIO: the slave side closed, all read) through at once, even while waiting", () => {
    const socket = guarded(250);
    const eio = Object.assign(new Error("read EIO"), { code: "EIO" });
    socket.destroy(eio);
    expect(socket.destroyed).toBe(true);
    expect(socket.destroyError).toBe(eio);

    const waiting = guarded(250);
    waiting.destroy();
    vi.advanceTimersByTime(50);
    expect(waiting.destroyed).toBe(false);
    waiting.destroy(eio);
    expect(waiting.destroyed).toBe(true);
    vi.advanceTimersByTime(1_000);
    expect(waiting.destroyCalls).toBe(1);
  });

  it("never destroys a socket that closed by itself (read to its end)", () => {
    const socket = guarded(60);
    socket.destroy();
    socket.destroyed = true;
    socket.emit("close");
    vi.advanceTimersByTime(1_000);
    expect(socket.destroyCalls).toBe(0);
  });
});
