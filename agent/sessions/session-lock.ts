// One writer per session file. A pitwall writing a session holds `<session>.lock`, a small file with
// its pid and the process's start time. The lock dies with its process: a lock whose pid is gone, or
// whose pid now belongs to a process started at another time (the pid was reused), is stale and is
// taken over. Another pitwall that finds a live lock does not write to the session (it offers a copy).
import { closeSync, openSync, readFileSync, unlinkSync, writeSync, constants } from "node:fs";
import { hostname } from "node:os";

export interface LockHolder {
  pid: number;
  /** When the holder took the lock (ISO time). */
  since: string;
  host: string;
}

interface LockFile extends LockHolder {
  /** The holder's start time in clock ticks since boot (/proc/<pid>/stat field 22), when known. */
  startTime: string | null;
}

export function lockPathOf(sessionPath: string): string {
  return `${sessionPath}.lock`;
}

/** A process's start time from /proc, or null where there is no /proc (then only the pid is checked). */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: LockFile): boolean {
  if (holder.host !== hostname()) return true; // Another machine's process cannot be checked: assume it lives.
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
  }
  if (holder.startTime === null) return true;
  const now = processStartTime(holder.pid);
  return now === null || now === holder.startTime;
}

function readLock(lockPath: string): LockFile | undefined {
  try {
    const value = JSON.parse(readFileSync(lockPath, "utf8")) as Partial<LockFile>;
    if (typeof value.pid !== "number") return undefined;
    return { pid: value.pid, since: String(value.since ?? ""), host: String(value.host ?? ""), startTime: value.startTime ?? null };
  } catch {
    return undefined;
  }
}

/** The live pitwall writing `sessionPath`, if any (a stale lock counts as none). */
export function sessionLockHolder(sessionPath: string): LockHolder | undefined {
  const holder = readLock(lockPathOf(sessionPath));
  if (holder === undefined || !isAlive(holder)) return undefined;
  return { pid: holder.pid, since: holder.since, host: holder.host };
}

const held = new Set<string>();
let exitHookInstalled = false;

function releaseAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const lockPath of held) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone.
      }
    }
  });
}

export class SessionLock {
  private constructor(readonly lockPath: string) {}

  /**
   * Takes the lock of `sessionPath`. Returns the live holder instead when another process has it.
   * Throws when the lock file cannot be written at all (a read-only folder): the caller decides.
   */
  static acquire(sessionPath: string): SessionLock | LockHolder {
    const lockPath = lockPathOf(sessionPath);
    for (let attempt = 0; attempt < 2; attempt++) {
      let fd: number;
      try {
        fd = openSync(lockPath, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        const holder = readLock(lockPath);
        // Unreadable: another pitwall is between creating and filling it. Treat as held.
        if (holder === undefined) return { pid: 0, since: "", host: "" };
        if (isAlive(holder)) return { pid: holder.pid, since: holder.since, host: holder.host };
        try {
          unlinkSync(lockPath);
        } catch {
          // Someone else cleared it first; try again all the same.
        }
        continue;
      }
      const mine: LockFile = { pid: process.pid, since: new Date().toISOString(), host: hostname(), startTime: processStartTime(process.pid) };
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
      held.add(lockPath);
      releaseAllOnExit();
      return new SessionLock(lockPath);
    }
    const holder = readLock(lockPath);
    return { pid: holder?.pid ?? 0, since: holder?.since ?? "", host: holder?.host ?? "" };
  }

  release(): void {
    if (!held.delete(this.lockPath)) return;
    try {
      unlinkSync(this.lockPath);
    } catch {
      // Already gone.
    }
  }
}

function shortTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number): string => String(n).padStart(2, "0");
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.toDateString() === new Date().toDateString() ? time : `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** "another pitwall (pid 1234, since 10:41)" or what is known of the holder, for messages. */
export function describeHolder(holder: LockHolder): string {
  if (holder.pid === 0) return "another pitwall";
  const since = holder.since ? `, since ${shortTime(holder.since)}` : "";
  const host = holder.host && holder.host !== hostname() ? ` on ${holder.host}` : "";
  return `another pitwall (pid ${holder.pid}${host}${since})`;
}
