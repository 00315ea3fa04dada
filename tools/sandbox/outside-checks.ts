// Facts about the world outside the sandbox, read from the process that started the command (it is
// outside): whether a path's own mount is read-only anyway, whether a loopback port has a listener,
// whether there is a route out, whether a host name resolves. A failure is put down to the fence only
// when the same operation would have worked outside; these say whether it would have.
import { lookup } from "node:dns";
import { lstatSync, readFileSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { isWithin } from "./fence-plan.js";

/** mountinfo escapes spaces, tabs, newlines and backslashes as octal. */
function unescapeMountPath(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Whether the mount `path` lies on is read-only outside (then a write fails there with or without a fence). */
export function mountReadOnlyOutside(path: string): boolean {
  let text: string;
  try {
    text = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return false;
  }
  let best: { point: string; readOnly: boolean } | undefined;
  for (const line of text.split("\n")) {
    const fields = line.split(" ");
    if (fields.length < 6) continue;
    const point = unescapeMountPath(fields[4]!);
    if (!isWithin(path, point)) continue;
    if (best === undefined || point.length >= best.point.length) best = { point, readOnly: fields[5]!.split(",").includes("ro") };
  }
  return best?.readOnly ?? false;
}

export function existsOutside(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The device of a path, or of its folder when it does not exist yet. */
function deviceOf(path: string): number | undefined {
  for (const candidate of [path, dirname(path)]) {
    try {
      return statSync(candidate).dev;
    } catch {
      // Try the folder.
    }
  }
  return undefined;
}

/** Whether a hard link between the two would work outside: both on one file system. */
export function sameFileSystem(a: string, b: string): boolean {
  const first = deviceOf(a);
  return first !== undefined && first === deviceOf(b);
}

const LISTEN = "0A";

/** Whether a TCP listener on `port` outside would take a loopback connection. */
export function listensOutside(port: number): boolean {
  const hex = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const local = fields[1];
      if (fields[3] !== LISTEN || local === undefined) continue;
      if (local.slice(local.lastIndexOf(":") + 1) === hex) return true;
    }
  }
  return false;
}

/** Whether this machine has a default route (IPv4 or IPv6): a network to be kept out of. */
export function hasRouteOut(): boolean {
  try {
    if (readFileSync("/proc/net/route", "utf8").split("\n").slice(1).some((line) => line.split("\t")[1] === "00000000")) return true;
  } catch {
    // No IPv4 table: try IPv6.
  }
  try {
    return readFileSync("/proc/net/ipv6_route", "utf8").split("\n").some((line) => line.startsWith("00000000000000000000000000000000 00 ") && !line.includes(" lo"));
  } catch {
    return false;
  }
}

/** Whether `host` resolves outside within `timeoutMs`. */
export function resolvesOutside(host: string, timeoutMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    lookup(host, (error) => {
      clearTimeout(timer);
      resolve(!error);
    });
  });
}
