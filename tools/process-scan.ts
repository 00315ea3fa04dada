// Which processes of a group are still alive, zombies excluded. `kill(-pgid, 0)` also succeeds for
// zombies, and here (as in many containers) PID 1 never reaps orphans, so a killed job's grandchild
// can linger as a zombie forever; waiting for the group to "go" would then always hit the timeout.
// On Linux /proc says exactly who is left; elsewhere we fall back to the signal probe.
import { readdirSync, readFileSync } from "node:fs";
import { groupAlive } from "./process-group.js";

/** Pids of the group's members that are not zombies; undefined when /proc cannot be read. */
export function liveGroupMembers(pgid: number): number[] | undefined {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return undefined;
  }
  const members: number[] = [];
  for (const entry of entries) {
    const c = entry.charCodeAt(0);
    if (c < 0x30 || c > 0x39) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // exited while we looked
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so parse after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    const pgrp = Number(fields[2]);
    if (pgrp === pgid && state !== "Z" && state !== "X") members.push(Number(entry));
  }
  return members;
}

/** True while any non-zombie process of the group is alive. */
export function groupHasLiveMembers(pgid: number): boolean {
  const members = liveGroupMembers(pgid);
  return members === undefined ? groupAlive(pgid) : members.length > 0;
}
