// pitwall holds the provider keys in memory, so a crash must never leave a core file (68 MB once,
// with the key 39 times, in the project folder where it could be committed). Node has no setrlimit
// or prctl, so on Linux two things stand in: the process's coredump_filter is set to 0 at once (a
// dump, piped or not, then holds no memory of the process), and `prlimit` lowers the soft
// RLIMIT_CORE to 0 a moment later (no dump at all). The processes pitwall starts get the person's
// own settings back (childRestore), so their crashes dump as they did before. Elsewhere: nothing.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

/** What core dumps looked like before pitwall turned them off: the soft limit and the filter. */
export interface CoreDumpSettings {
  /** As /proc/self/limits shows it: "0", "unlimited" or a number of bytes. */
  softLimit: string;
  /** The coredump_filter bits, hexadecimal as /proc shows them. */
  filter: string;
}

/**
 * Kept on the global object, not in this module: the launcher (cli.cjs) turns dumps off before it
 * loads the app, which is another bundle with its own copy of this module.
 */
const ORIGINAL = Symbol.for("pitwall.coreDumpsBefore");
const store = globalThis as { [ORIGINAL]?: CoreDumpSettings };

function read(): CoreDumpSettings | undefined {
  try {
    const limits = readFileSync("/proc/self/limits", "utf8");
    const softLimit = /^Max core file size\s+(\S+)/m.exec(limits)?.[1];
    const filter = readFileSync("/proc/self/coredump_filter", "utf8").trim();
    return softLimit === undefined ? undefined : { softLimit, filter };
  } catch {
    return undefined;
  }
}

/** Turns core dumps off for this process (the first call remembers what they were, for its children). */
export function turnOffCoreDumps(): void {
  if (process.platform !== "linux") return;
  const now = read();
  if (!now) return;
  store[ORIGINAL] ??= now;
  try {
    writeFileSync("/proc/self/coredump_filter", "0");
  } catch {
    // A kernel without the file: the limit below still holds.
  }
  if (now.softLimit !== "0") {
    const child = spawn("prlimit", ["--pid", String(process.pid), "--core=0:"], { stdio: "ignore" });
    child.on("error", () => undefined);
    child.unref();
  }
}

/** Shell lines that give a child the person's own core dump settings back (empty when unchanged). */
export function childRestore(): string {
  const original = store[ORIGINAL];
  if (!original) return "";
  const lines: string[] = [];
  if (original.softLimit !== "0" && /^(unlimited|\d+)$/.test(original.softLimit)) {
    // /proc/self/limits counts bytes; ulimit -c counts 1024-byte blocks.
    const blocks = original.softLimit === "unlimited" ? "unlimited" : String(Math.floor(Number(original.softLimit) / 1024));
    lines.push(`ulimit -S -c ${blocks} 2>/dev/null;`);
  }
  if (/^[0-9a-fA-F]+$/.test(original.filter) && original.filter !== "0" && original.filter !== "00000000") lines.push(`echo 0x${original.filter} > /proc/self/coredump_filter 2>/dev/null;`);
  return lines.join(" ");
}
