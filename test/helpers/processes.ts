// What is still running, from `ps`: tests that check nothing survived ask here. Zombies do not
// count (PID 1 in this sandbox never reaps them).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { sep } from "node:path";

export interface PsRow {
  pid: number;
  pgid: number;
  stat: string;
  args: string;
}

/** Live (non-zombie) processes from `ps -eo pid,pgid,stat,args`. */
export function liveProcesses(): PsRow[] {
  const out = execFileSync("ps", ["-eo", "pid,pgid,stat,args"], { encoding: "utf8" });
  return out
    .split("\n")
    .slice(1)
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((match): match is RegExpMatchArray => match !== null)
    .map((match) => ({ pid: Number(match[1]), pgid: Number(match[2]), stat: match[3] ?? "", args: match[4] ?? "" }))
    .filter((row) => !row.stat.startsWith("Z"));
}

/** Live processes of the group led by `pgid`. */
export function liveGroupMembers(pgid: number): PsRow[] {
  return liveProcesses().filter((row) => row.pgid === pgid);
}

/** Live processes in any of the given process groups. */
export function survivors(pgids: number[]): PsRow[] {
  const groups = new Set(pgids);
  return liveProcesses().filter((row) => groups.has(row.pgid));
}

/**
 * How many live processes of this test file have `text` in their command line: those working in
 * one of its temporary folders (every folder it makes is under its own TMPDIR, helpers/setup.ts).
 * Another test file, or another checkout's test run, may run the same command at the same time.
 */
export function countLive(text: string): number {
  const ours = `${process.env.TMPDIR ?? ""}${sep}`;
  return liveProcesses().filter((row) => row.args.includes(text) && workingDir(row.pid)?.startsWith(ours) === true).length;
}

/** The folder `pid` works in, or undefined once it is gone. */
function workingDir(pid: number): string | undefined {
  try {
    return `${readlinkSync(`/proc/${pid}/cwd`)}${sep}`;
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a live process (a zombie is not: nobody reaps orphans here). */
export function pidAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

/** The pids among `pids` still alive. */
export function alivePids(pids: readonly number[]): number[] {
  return pids.filter(pidAlive);
}

/** Children of `pid` (from /proc/<child>/stat's ppid field). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[1]) === pid) out.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/** SIGKILL to each pid of ours still alive (test cleanup; never by name; never init, whatever a bad read gave). */
export function killPids(pids: readonly number[]): void {
  for (const pid of alivePids(pids.filter((pid) => Number.isInteger(pid) && pid > 1))) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}
