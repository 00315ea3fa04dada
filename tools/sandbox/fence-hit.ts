// What the fence stopped, as plain data (it crosses the job host's socket in job events and tool
// results), and how it reads: to the model (it was the sandbox, not a bug in its command, and the
// person can allow it) and to the person (what was stopped, and what they can do about it).
import type { SandboxProfile } from "./profiles.js";

export type FenceHitKind =
  /** A write to a path the fence keeps read-only. */
  | "read-only"
  /** A path the fence hides (a secret, the real /tmp) was not there. */
  | "hidden"
  /** A hard link across the fence. */
  | "link"
  /** A connection under `strict`, which has no network. */
  | "network";

export interface FenceHit {
  kind: FenceHitKind;
  /** The path, or host (and port), as the command named it. */
  target: string;
  /** Why the fence stands there, in words ("outside the writable roots"). */
  why: string;
  profile: SandboxProfile;
  /** The line of output that showed it (at most 300 characters). */
  line: string;
}

const ACTION: Record<FenceHitKind, string> = {
  "read-only": "writing",
  hidden: "reaching",
  link: "hard-linking",
  network: "connecting to",
};

/** "writing /home/me/.gitconfig (outside the writable roots)". */
export function describeHit(hit: FenceHit): string {
  return `${ACTION[hit.kind]} ${hit.target} (${hit.why})`;
}

/**
 * What the person can do about it. `rerun(profile)` words running the command again under another
 * profile ("restart job 3 under profile off (p in the jobs pane)"; by default, starting pitwall with --sandbox).
 */
export function remedy(hit: FenceHit, rerun: (profile: SandboxProfile) => string = (profile) => `start pitwall with --sandbox ${profile}`): string {
  if (hit.kind === "network") return `${rerun("workspace")}, which keeps the network, if the command needs it`;
  if (hit.kind === "hidden" && hit.why.startsWith("hidden")) return `it is hidden on purpose; if the command must reach it, run it yourself, or ${rerun("off")}`;
  if (hit.kind === "hidden") return `the command can use a folder in the working directory instead, or ${rerun("off")}`;
  if (hit.why.startsWith("outside")) return `add the folder to sandboxWritable in ~/.pitwall/config.json, or ${rerun("off")}`;
  return `only profile off lifts this: ${rerun("off")} if you trust the command`;
}

/**
 * What the model reads after a command the fence stopped: what it was, that it was the sandbox, and
 * that only the person can loosen it.
 */
export function fenceNoteForModel(hits: readonly FenceHit[]): string {
  if (hits.length === 0) return "";
  const profile = hits[0]!.profile;
  const listed = hits.slice(0, 5).map(describeHit);
  const more = hits.length > 5 ? ` and ${hits.length - 5} more` : "";
  return (
    `[sandbox] The sandbox (profile ${profile}) stopped ${listed.join("; ")}${more}. ` +
    "That is the fence, not a bug in the command: do not try to get around it. If the work needs it, ask the person: " +
    "they can make a folder writable (sandboxWritable in ~/.pitwall/config.json), or run the command under another profile " +
    "(restart its job under another profile from the jobs pane, or start pitwall with --sandbox)."
  );
}

/** One line in the chat: which command, what was stopped, and what the person can do (`rerun`: see remedy). */
export function fenceNoticeForPerson(hit: FenceHit, subject: string, rerun?: (profile: SandboxProfile) => string): string {
  return `The sandbox (${hit.profile}) stopped ${subject}: ${describeHit(hit)}. To allow it: ${remedy(hit, rerun)}.`;
}

/** Hits carried in a tool result's details (`fence`), whatever the tool. */
export function fenceHitsOf(details: unknown): FenceHit[] {
  if (typeof details !== "object" || details === null) return [];
  const fence = (details as { fence?: unknown }).fence;
  if (!Array.isArray(fence)) return [];
  return fence.filter((hit): hit is FenceHit => typeof hit === "object" && hit !== null && typeof (hit as FenceHit).target === "string" && typeof (hit as FenceHit).kind === "string");
}
