// The fence for the tools that touch files in pitwall's own process (write, edit, read, and the
// searches): they follow the same profile as the commands. write and edit refuse a path the plan
// does not make writable, read refuses a hidden one, each with an error that names the profile and
// what the person can do. Paths are judged as the kernel would: symlinks and `..` resolved first,
// so a link in the working directory that points out is outside. (Only bubblewrap sees the private
// /tmp: to these tools the real /tmp is outside the writable roots.)
import { FencePlan } from "./fence-plan.js";
import type { FenceHit } from "./fence-hit.js";
import type { SandboxPolicy } from "./profiles.js";

/** A refusal by the fence; `hit` says what and why, for the UI. */
export class FenceError extends Error {
  constructor(
    message: string,
    readonly hit: FenceHit,
  ) {
    super(message);
  }
}

export class FileFence {
  constructor(
    private readonly policy: SandboxPolicy,
    private readonly cwd: string,
  ) {}

  get profile(): SandboxPolicy["profile"] {
    return this.policy.profile;
  }

  /** The plan as the disk is now (a cache folder made since counts). */
  private plan(): FencePlan | undefined {
    return this.policy.profile === "off" ? undefined : new FencePlan({ cwd: this.cwd, policy: this.policy });
  }

  /** Throws a FenceError unless the profile lets the tools change `path` (absolute). */
  checkWrite(path: string, shownPath: string, verb: "write" | "edit"): void {
    const plan = this.plan();
    if (!plan) return;
    const place = plan.placement(path);
    if (place.access === "writable") return;
    const profile = this.policy.profile;
    const hit: FenceHit = { kind: "read-only", target: path, why: place.why, profile, line: `${verb} ${shownPath}` };
    const allow = place.why.startsWith("outside")
      ? `If it must change, ask the person: they can add its folder to sandboxWritable in ~/.pitwall/config.json, or run pitwall with --sandbox off.`
      : `Only the person can lift this, by running pitwall with --sandbox off.`;
    throw new FenceError(
      `Cannot ${verb} ${shownPath}: the sandbox (profile ${profile}) keeps it read-only (${place.why}). Nothing was changed. ` +
        `The writable roots are ${plan.writableRoots().join(", ")}. ${allow}`,
      hit,
    );
  }

  /** Throws a FenceError when the profile hides `path` (absolute). */
  checkRead(path: string, shownPath: string): void {
    const plan = this.plan();
    if (!plan) return;
    const place = plan.placement(path);
    if (place.access !== "hidden") return;
    const profile = this.policy.profile;
    throw new FenceError(
      `Cannot read ${shownPath}: the sandbox (profile ${profile}) hides it (${place.why}). It is kept from the agent on purpose; ` +
        `if the work needs it, ask the person: they can run pitwall with --sandbox off, or read it to you themselves.`,
      { kind: "hidden", target: path, why: place.why, profile, line: `read ${shownPath}` },
    );
  }

  /** Whether a search may go into `path` (grep, find, ls skip hidden folders). */
  hides(path: string): boolean {
    const plan = this.plan();
    return plan !== undefined && plan.placement(path).access === "hidden";
  }
}
