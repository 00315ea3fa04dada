// Small facts about the processes behind a job: signal names, whether a pid is gone, and holding a
// pty's slave side open (see holdSlave for why).
import { constants as fsConstants, openSync } from "node:fs";
import { constants as osConstants } from "node:os";
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
