// Finds in a fenced command's output the failures the fence caused, and only those. A line must name
// the error (read-only file system, no such file, cross-device link, and under `strict` a refused or
// unreachable connection or a name that did not resolve) and a path or address in it must be one the
// fence stands in front of (the plan's mounts), where the same operation would have worked outside:
// the path's own mount is writable, the hidden file exists, the loopback port has a listener, the
// name resolves. Anything else is the command's own failure and is left alone: no guessing.
//
// The output is read raw, as it comes, up to a budget of bytes a second: a command that floods
// megabytes is scanned in part rather than slowed down (a job's plain-text log does not even split
// a flood into lines unless someone asks for them).
import { dirname, isAbsolute, join, resolve } from "node:path";
import type { CommandFence } from "./command-sandbox.js";
import type { FenceHit, FenceHitKind } from "./fence-hit.js";
import { realPath, WHY, type FencePlan } from "./fence-plan.js";
import { existsOutside, hasRouteOut, listensOutside, mountReadOnlyOutside, resolvesOutside, sameFileSystem } from "./outside-checks.js";

const FILE_SIGNS = /Read-only file system|EROFS|No such file or directory|ENOENT|cross-device|EXDEV/;
const NETWORK_SIGNS = /Connection refused|ECONNREFUSED|connect to server|Network is unreachable|ENETUNREACH|resolve host|name resolution|EAI_AGAIN|ENOTFOUND|Failed to resolve|unable to resolve/;
const ANY_SIGNS = new RegExp(`${FILE_SIGNS.source}|${NETWORK_SIGNS.source}`);
/**
 * Substrings one of which every sign above contains (Node's "EROFS: read-only file system", the C
 * library's "Read-only file system", "No such file", "no such file", "cross-device link"): a few
 * indexOf passes reject a chunk about twice as fast as the regular expression would.
 */
const FILE_NEEDLES = ["file system", "such file", "ENOENT", "cross-device", "EXDEV"];
const NETWORK_NEEDLES = ["onnect", "ECONNREFUSED", "nreachable", "ENETUNREACH", "resolve", "EAI_AGAIN", "ENOTFOUND"];
/** CSI, OSC and two-character escapes: what a terminal would not show. */
const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;

const QUOTED = /['"‘’“”`]([^'"‘’“”`\n]{1,4096})['"‘’“”`]/g;
/** The word before ": Read-only file system" (bash: `f: Read-only file system`). */
const BEFORE_ERROR = /([^\s:'"‘’“”`]+): (?:Read-only file system|No such file or directory)/g;
const BARE_PATH = /(?:^|[\s:=(,])((?:~|\.{1,2})?\/[^\s'"‘’“”`,;:()]+|[\w.-]+\/[^\s'"‘’“”`,;:()]+)/g;
const LOOPBACK_PORT = /(?:\/dev\/tcp\/)?\[?(127(?:\.\d{1,3}){3}|localhost|::1|0\.0\.0\.0)\]?(?::|\/| port )(\d{1,5})\b/;
const HOST_NAMES = [/resolve host(?: address)?:? ['‘"]?([\w.-]+\.[\w-]+)/i, /(?:EAI_AGAIN|ENOTFOUND) ([\w.-]+\.[\w-]+)/, /Failed to resolve '([\w.-]+\.[\w-]+)'/, /host='([\w.-]+\.[\w-]+)'/];

const LINE_CHARS = 300;
/** The most of a partial line carried to the next chunk. */
const MAX_CARRY = 4_096;
/** The scanning budget: 1 MiB a second, 512 KiB at once. */
const BYTES_PER_SECOND = 1024 * 1024;
const BURST_BYTES = 512 * 1024;

/** The deepest of `path` and its folders, below `mount`, that exists outside; undefined when none does. */
/** Where the first line of a chunk ends (its \n or \r), or -1. */
function firstLineEnd(chunk: string): number {
  const newline = chunk.indexOf("\n");
  const carriage = chunk.indexOf("\r");
  return newline < 0 ? carriage : carriage < 0 ? newline : Math.min(newline, carriage);
}

function deepestExisting(path: string, mount: string): string | undefined {
  for (let at = path; at !== mount && at.startsWith(mount); at = dirname(at)) {
    if (existsOutside(at)) return at;
    if (dirname(at) === at) break;
  }
  return undefined;
}

export interface FenceScannerOptions {
  bytesPerSecond?: number;
  burstBytes?: number;
  now?: () => number;
}

export class FenceScanner {
  /** What the fence stopped, each target once, in the order found. */
  readonly hits: FenceHit[] = [];
  private readonly seen = new Set<string>();
  private readonly plan: FencePlan;
  private readonly cwd: string;
  private readonly signs: RegExp;
  private readonly needles: readonly string[];
  private carry = "";
  private tokens: number;
  private refilledAt: number;
  private readonly pending = new Set<Promise<void>>();

  /** `fence` must be fenced (it has a plan). `onHit`: each new hit, as found. Contract: must not throw. */
  constructor(
    private readonly fence: CommandFence & { plan: FencePlan },
    private readonly onHit: (hit: FenceHit) => void = () => undefined,
    private readonly options: FenceScannerOptions = {},
  ) {
    this.plan = fence.plan;
    this.cwd = fence.request.cwd ?? fence.request.root;
    this.signs = fence.profile === "strict" ? ANY_SIGNS : FILE_SIGNS;
    this.needles = fence.profile === "strict" ? [...FILE_NEEDLES, ...NETWORK_NEEDLES] : FILE_NEEDLES;
    this.tokens = options.burstBytes ?? BURST_BYTES;
    this.refilledAt = this.now();
  }

  /** Raw output (escape codes and all), in the order written. */
  write(chunk: string): void {
    const now = this.now();
    const rate = this.options.bytesPerSecond ?? BYTES_PER_SECOND;
    this.tokens = Math.min(this.options.burstBytes ?? BURST_BYTES, this.tokens + ((now - this.refilledAt) / 1000) * rate);
    this.refilledAt = now;
    if (chunk.length > this.tokens) {
      // Over the budget: this part goes unread, and a line cut by it is not pieced together.
      this.carry = "";
      return;
    }
    this.tokens -= chunk.length;
    // The line cut at the last chunk's end, completed by this one's start (short: tested apart).
    const firstEnd = firstLineEnd(chunk);
    if (firstEnd < 0) {
      this.carry = (this.carry + chunk).slice(-MAX_CARRY);
      return;
    }
    const hadCarry = this.carry.length > 0;
    if (hadCarry) {
      const joined = this.carry + chunk.slice(0, firstEnd);
      if (this.signs.test(joined)) this.examine(joined);
    }
    const lastEnd = Math.max(chunk.lastIndexOf("\n"), chunk.lastIndexOf("\r"));
    this.carry = chunk.slice(lastEnd + 1).slice(-MAX_CARRY);
    if (!this.needles.some((needle) => chunk.includes(needle))) return;
    const lines = chunk.slice(0, lastEnd).split(/\r\n|\n|\r/);
    for (const [index, line] of lines.entries()) {
      // A first line that continued the carry was examined whole, above.
      if (!(index === 0 && hadCarry) && this.signs.test(line)) this.examine(line);
    }
  }

  /** The output ended: its last line, if it had no newline. */
  end(): void {
    const rest = this.carry;
    this.carry = "";
    if (rest && this.signs.test(rest)) this.examine(rest);
  }

  /** Resolves once the checks still running (a name being resolved outside) are done. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private examine(raw: string): void {
    const line = raw.replace(ESCAPES, "").trim().slice(0, 4_096);
    if (/Read-only file system|EROFS/.test(line)) this.readOnly(line);
    if (/No such file or directory|ENOENT/.test(line)) this.notThere(line);
    if (/cross-device|EXDEV/.test(line) && /link/i.test(line)) this.link(line);
    if (this.fence.profile === "strict" && NETWORK_SIGNS.test(line)) this.network(line);
  }

  private record(kind: FenceHitKind, target: string, why: string, line: string): void {
    const key = `${kind}\0${target}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const hit: FenceHit = { kind, target, why, profile: this.fence.profile, line: line.slice(0, LINE_CHARS) };
    this.hits.push(hit);
    this.onHit(hit);
  }

  /** The paths a line names, resolved against the command's folder. */
  private paths(line: string): string[] {
    const found = new Set<string>();
    for (const pattern of [QUOTED, BEFORE_ERROR, BARE_PATH]) {
      for (const match of line.matchAll(pattern)) {
        const named = match[1]!;
        if (named.startsWith("//") || named.includes("://") || named.length > 4_096) continue;
        found.add(this.absolute(named));
      }
    }
    return [...found];
  }

  private absolute(named: string): string {
    const home = this.fence.request.policy.home;
    if (named === "~") return home;
    if (named.startsWith("~/")) return join(home, named.slice(2));
    return isAbsolute(named) ? resolve(named) : resolve(this.cwd, named);
  }

  /** A write refused as on a read-only file system, where the path's own mount is writable. */
  private readOnly(line: string): void {
    for (const path of this.paths(line)) {
      const real = realPath(path);
      const place = this.plan.placeReal(real);
      if (place.access !== "read-only" && place.access !== "hidden") continue;
      if (mountReadOnlyOutside(real)) continue;
      this.record("read-only", path, place.why, line);
      return;
    }
  }

  /**
   * A hidden path that exists outside (a hidden folder is seen empty, so only the path itself
   * counts); or, under the private /tmp, the deepest folder on the way that exists outside: the
   * real /tmp's folders are not there inside, whatever the command meant to do in them.
   */
  private notThere(line: string): void {
    for (const path of this.paths(line)) {
      const real = realPath(path);
      const place = this.plan.placeReal(real);
      if (place.access === "hidden" && existsOutside(real)) {
        this.record("hidden", path, place.why, line);
        return;
      }
      if (place.access === "private") {
        const folder = deepestExisting(real, place.mount);
        if (folder !== undefined) {
          this.record("hidden", folder, place.why, line);
          return;
        }
      }
    }
  }

  /** A hard link refused across mounts, between places on one file system outside. */
  private link(line: string): void {
    const paths = this.paths(line);
    for (const path of paths) {
      const real = realPath(path);
      const place = this.plan.placeReal(real);
      if (place.access === "writable" || place.access === "private") continue;
      const other = paths.find((candidate) => candidate !== path && this.plan.placement(candidate).access === "writable");
      if (other === undefined || !sameFileSystem(real, realPath(other))) continue;
      this.record("link", path, place.why === WHY.outside ? "a hard link cannot reach outside the writable roots" : place.why, line);
      return;
    }
  }

  /** Under strict: a refused loopback port that listens outside, no route where there is one outside, a name that resolves outside. */
  private network(line: string): void {
    const loopback = LOOPBACK_PORT.exec(line);
    if (loopback && /Connection refused|ECONNREFUSED|connect to server|failed/i.test(line)) {
      const port = Number(loopback[2]);
      if (port > 0 && port < 65_536 && listensOutside(port)) {
        this.record("network", `${loopback[1]}:${port}`, "strict: the sandbox has a loopback of its own, so servers outside it cannot be reached", line);
        return;
      }
    }
    if (/Network is unreachable|ENETUNREACH/.test(line) && hasRouteOut()) {
      this.record("network", loopback ? `${loopback[1]}:${loopback[2]}` : "the network", "strict: the sandbox has no network", line);
      return;
    }
    for (const pattern of HOST_NAMES) {
      const host = pattern.exec(line)?.[1];
      if (host === undefined || host === "localhost") continue;
      const check = resolvesOutside(host).then((resolves) => {
        if (resolves) this.record("network", host, "strict: the sandbox has no network, so names do not resolve (this one does outside it)", line);
      });
      this.pending.add(check);
      void check.finally(() => this.pending.delete(check));
      return;
    }
  }
}
