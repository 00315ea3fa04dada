// How a command is run under a profile, in the process that starts it (the job host for the model's
// commands and the jobs; the dashboard for the person's `!command`): the plan of the fence, bwrap's
// arguments before the command, and what its environment gains. One per process: it owns the
// sandbox's private /tmp (a folder in the process's temp folder, removed with it) and the empty file
// hidden files are replaced by. When bwrap cannot make a sandbox here the command runs unfenced and
// says why, or, when the policy requires the sandbox, is refused.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bwrapArguments, bwrapAvailability, type Availability } from "./bwrap.js";
import { FencePlan } from "./fence-plan.js";
import type { LaunchWrapper } from "../process/child-launch.js";
import type { SandboxPolicy, SandboxProfile } from "./profiles.js";

export interface FenceRequest {
  policy: SandboxPolicy;
  /** The project folder: the main writable root. */
  root: string;
  /** The command's working directory (`root` when not given). */
  cwd?: string;
  /** This command's profile; the policy's when not given. */
  profile?: SandboxProfile;
  /** Seen read-only through the private /tmp: the client's folder of bash's full-output files. */
  visible?: readonly string[];
}

/** How one command runs: fenced by bwrap, off (the person's choice), or unfenced (no sandbox could be made). */
export interface CommandFence {
  profile: SandboxProfile;
  state: "fenced" | "off" | "unfenced";
  /** Why the fence asked for could not be made, and how to fix it (state "unfenced"). */
  unfencedBecause?: string;
  /** What the command runs inside: bwrap, its arguments (its variables too), where it names its child. Absent when not fenced. */
  wrapper?: LaunchWrapper;
  /** The mounts (state "fenced"): what the fence allows, to attribute failures to it. */
  plan?: FencePlan;
  /** What it was made from: a restart makes it again. */
  request: FenceRequest;
}

/**
 * The policy requires the sandbox and it cannot be made where the command runs: it is not run.
 * `machine` names that machine as the person knows it (a remote's `box`); "here" when not given.
 */
export class SandboxUnavailableError extends Error {
  constructor(
    readonly availability: Extract<Availability, { ok: false }>,
    readonly machine?: string,
  ) {
    const where = machine === undefined ? "here" : `on ${machine}`;
    const fixWhere = machine === undefined ? "" : `on ${machine}: `;
    super(
      `Not run: the sandbox is required (--sandbox required) and cannot be made ${where}: ${availability.reason}. ` +
        `To fix it, ${fixWhere}${availability.fix}; or start pitwall with --sandbox workspace, which runs commands unfenced where the sandbox cannot be made.`,
    );
  }
}

/** The effective profile of a request. */
export function requestedProfile(request: FenceRequest): SandboxProfile {
  return request.profile ?? request.policy.profile;
}

export class CommandSandbox {
  private places: { tmp: string; empty: string } | undefined;

  /** `folder`: a private folder of the process (made if need be), removed when it exits. */
  constructor(private readonly folder: () => string) {}

  /** Whether bwrap can make a sandbox here (probed once). */
  availability(policy: SandboxPolicy): Promise<Availability> {
    return bwrapAvailability(policy.bwrap);
  }

  /** How to run a command for `request`. Throws SandboxUnavailableError when it must be fenced and cannot be. */
  async fence(request: FenceRequest): Promise<CommandFence> {
    const profile = requestedProfile(request);
    if (profile === "off") return { profile, state: "off", request };
    const available = await this.availability(request.policy);
    if (!available.ok) {
      if (request.policy.required) throw new SandboxUnavailableError(available, request.policy.machine);
      return { profile, state: "unfenced", unfencedBecause: `${available.reason}; to fence commands, ${available.fix}`, request };
    }
    const places = this.ownPlaces();
    const plan = new FencePlan({
      cwd: request.root,
      policy: request.policy,
      privateTmp: places.tmp,
      emptyFile: places.empty,
      visible: [request.policy.home, ...(request.visible ?? [])],
    });
    const cwd = request.cwd ?? request.root;
    return {
      profile,
      state: "fenced",
      wrapper: { prefix: [available.program, ...bwrapArguments(plan, profile, cwd), ...available.resetSignals] },
      plan,
      request,
    };
  }

  /** The private /tmp and the empty file, made on first use in the process's temp folder. */
  private ownPlaces(): { tmp: string; empty: string } {
    if (this.places) return this.places;
    const base = this.folder();
    mkdirSync(base, { recursive: true, mode: 0o700 });
    const tmp = join(base, "sandbox-tmp");
    mkdirSync(tmp, { recursive: true, mode: 0o700 });
    const empty = join(base, "sandbox-empty");
    if (!existsSync(empty)) {
      writeFileSync(empty, "");
      chmodSync(empty, 0o444);
    }
    this.places = { tmp, empty };
    return this.places;
  }
}
