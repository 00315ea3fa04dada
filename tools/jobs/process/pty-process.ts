// Small facts about the processes behind a job: signal names, whether a pid is gone, holding a
// pty's slave side open (see holdSlave for why), and hearing of the exit while it is held.
import { constants as fsConstants, openSync } from "node:fs";
import { constants as osConstants } from "node:os";
import type { EventEmitter } from "node:events";
import type { IPty } from "node-pty";

/** "SIGTERM" for 15; undefined for no signal. */
export function signalName(signal: number | NodeJS.Signals | null | undefined): string | undefined {
  if (signal === null || signal === undefined || signal === 0) return undefined;
  if (typeof signal === "string") return signal;
  const entry = Object.entries(osConstants.signals).find(([, value]) => value === signal);
  return entry ? entry[0] : `signal ${signal}`;
}

/** True once no process has this pid (reaped); a zombie still counts as present. */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

/**
 * Keeps our own descriptor on the pty's slave side for the job's life. node-pty closes the master
 * as soon as a read fails with EIO, which happens the moment the job's processes have closed their
 * descriptors, and closing the master hangs the terminal up: a program that closes stdin, stdout and
 * stderr before it exits (cat after end of input does) is then killed by SIGHUP and reported as
 * such. With the slave held open, the master stays up until node-pty sees the process exit.
 * The slave's path is node-pty's internal `_pty`; without it we go on as node-pty does.
 */
export function holdSlave(ptyProcess: IPty): number | undefined {
  const path = (ptyProcess as unknown as { _pty?: unknown })._pty;
  if (typeof path !== "string") return undefined;
  try {
    return openSync(path, fsConstants.O_RDWR | fsConstants.O_NOCTTY);
  } catch {
    return undefined;
  }
}

/**
 * Calls `listener` once node-pty learns that the job's process exited. node-pty hears of it at once
 * (a thread of its own waits for the process), but reports it (onExit) only once the pty has closed
 * as well, which a held slave (holdSlave) puts off until we let go; hearing of it, node-pty starts
 * listening for its socket's close, and that is the one sign it gives. node-pty 1.1's UnixTerminal
 * passes `on` and `removeListener` on to that socket (pty-exit.test.ts fails if an upgrade changes
 * this). Returns false where the pty has neither: the exit is then left to the caller's own watch.
 */
export function onProcessExit(ptyProcess: IPty, listener: () => void): boolean {
  const emitter = ptyProcess as unknown as Partial<Pick<EventEmitter, "on" | "removeListener">>;
  if (typeof emitter.on !== "function" || typeof emitter.removeListener !== "function") return false;
  const heard = (event: string | symbol): void => {
    // A listener someone else adds while the process runs is not the sign.
    if (event !== "close" || !processGone(ptyProcess.pid)) return;
    emitter.removeListener!("newListener", heard);
    listener();
  };
  emitter.on("newListener", heard);
  return true;
}

interface PtySocket {
  destroyed: boolean;
  isPaused?(): boolean;
  destroy(error?: Error): unknown;
  on(event: "data", listener: () => void): unknown;
  once(event: "close", listener: () => void): unknown;
}

/**
 * node-pty destroys a pty's socket 200 ms after its process exits, whether or not the output still
 * in the kernel's buffer has been read. When the event loop was busy for longer (a flood being
 * parsed, a loaded machine), that timer runs before the read and the last lines are lost. Here a
 * destroy waits until the socket has closed by itself (everything read, the slave side closed) or
 * has been quiet for `quietMs` with a read phase in between: a terminal that a grandchild keeps open
 * never closes by itself. A paused socket is not quiet, only unread: its owner pauses it while the
 * emulator catches up, and resumes it once the process is gone (EmulatorFeed.release).
 * A destroy with an error is the stream's own, after a read failed: EIO means the slave side is
 * closed and everything was read, so it goes through at once (held, it delayed every job's exit
 * by the quiet time).
 */
export function readBeforeDestroy(ptyProcess: IPty, quietMs: number): void {
  const socket = (ptyProcess as unknown as { _socket?: PtySocket })._socket;
  if (!socket || typeof socket.destroy !== "function") return;
  const destroyNow = socket.destroy.bind(socket);
  let lastData = Date.now();
  socket.on("data", () => (lastData = Date.now()));
  let waiting: NodeJS.Timeout | undefined;
  socket.destroy = (error?: Error) => {
    if (error && !socket.destroyed) {
      clearInterval(waiting);
      return destroyNow(error);
    }
    if (socket.destroyed || waiting) return socket;
    const stop = (): void => {
      clearInterval(waiting);
    };
    socket.once("close", stop);
    waiting = setInterval(() => {
      if (socket.destroyed) return stop();
      if (socket.isPaused?.()) {
        lastData = Date.now();
        return;
      }
      if (Date.now() - lastData < quietMs) return;
      // After a long block, the read that is due has not run yet: let one poll phase pass first.
      const seen = lastData;
      setImmediate(() => {
        if (socket.destroyed || lastData !== seen) return;
        stop();
        destroyNow(error);
      });
    }, Math.min(quietMs, 50));
    return socket;
  };
}
