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
