// The sandbox's profiles and the person's policy, as plain data (it crosses the job host's socket
// with every command). `off` runs commands as the person; `workspace` (the default) lets them write
// only in the working directory, a private /tmp and the build caches, hides secrets and keeps
// .git/hooks, .git/config and pitwall's own files read-only; `strict` is `workspace` without a
// network (a loopback of its own inside). Only the person sets the policy: the model may ask for a
// stricter profile for one command, never a looser one (isLooser). A policy for another machine (a
// remote session's job host) is sent home-relative (homeRelativePolicy) and made absolute there,
// against that machine's home and pitwall folder (policyHere).
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";

/** Loosest first: a profile's index is its strictness. */
export const SANDBOX_PROFILES = ["off", "workspace", "strict"] as const;
export type SandboxProfile = (typeof SANDBOX_PROFILES)[number];

export function isSandboxProfile(value: unknown): value is SandboxProfile {
  return typeof value === "string" && (SANDBOX_PROFILES as readonly string[]).includes(value);
}

/** True when `asked` lets a command do more than `floor` (the person's profile) does. */
export function isLooser(asked: SandboxProfile, floor: SandboxProfile): boolean {
  return SANDBOX_PROFILES.indexOf(asked) < SANDBOX_PROFILES.indexOf(floor);
}

/** What the person set: the profile and the paths each part of the fence names. */
export interface SandboxPolicy {
  /** The profile commands run under unless a stricter one is asked for. */
  profile: SandboxProfile;
  /** Refuse to run a command the fence cannot be put around (no bubblewrap), rather than run it unfenced. */
  required: boolean;
  /** The person's home folder: seen read-only (even under /tmp), and what `~` means in messages. */
  home: string;
  /** Writable besides the working directory and the private /tmp: the build caches. Absolute. */
  writable: string[];
  /** Empty inside the sandbox: secrets, and sockets through which a command could act outside it. Absolute. */
  hidden: string[];
  /** Read-only even inside a writable root: pitwall's own files. Absolute. */
  protected: string[];
  /** The bubblewrap program; `bwrap` on the PATH when not given. */
  bwrap?: string;
  /**
   * The machine the commands run on, as the person knows it (a remote's `box`, as the status bar
   * shows it; `this machine` for a `!command` in a remote session), for what is said of it; "here" when not given.
   */
  machine?: string;
}

/** Build caches writable by default (`sandboxWritable` in config.json replaces the list). */
export const DEFAULT_WRITABLE = ["~/.npm", "~/.cache", "~/.yarn", "~/.local/share/pnpm", "~/.cargo/registry", "~/.cargo/git", "~/go/pkg/mod", "~/.gradle/caches", "~/.m2/repository"];

/** Secrets always hidden (`sandboxHidden` in config.json adds to them). */
export const DEFAULT_HIDDEN = ["~/.ssh", "~/.aws", "~/.gnupg", "~/.config/gh", "~/.netrc", "~/.docker/config.json", "~/.kube"];

/** `~` and `~/…` against `home`; other relative paths against it too (config paths have no other base). */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(home, path);
}

export interface PolicyOptions {
  profile: SandboxProfile;
  required?: boolean;
  /** The person's home folder (HOME). */
  home: string;
  /** pitwall's folder (PITWALL_HOME): read-only; its job hosts' sockets hidden. */
  pitwallHome: string;
  /** Where sessions are written, when not under pitwallHome (--session-dir). */
  sessionRoot?: string;
  /** The build caches (`~` allowed); DEFAULT_WRITABLE when not given. */
  writable?: readonly string[];
  /** Hidden besides DEFAULT_HIDDEN (`~` allowed). */
  hidden?: readonly string[];
  /**
   * The session's runtime folder (XDG_RUNTIME_DIR) and the ssh agent's socket (SSH_AUTH_SOCK): hidden,
   * since the agents and the session bus there act outside any sandbox (sign with your keys, start programs).
   */
  runtimeDir?: string;
  sshAuthSock?: string;
  bwrap?: string;
}

export function sandboxPolicy(options: PolicyOptions): SandboxPolicy {
  const expand = (path: string): string => expandHome(path, options.home);
  const hidden = [...DEFAULT_HIDDEN, ...(options.hidden ?? [])].map(expand);
  // The job host's socket: a command that reached it could start a job outside the sandbox.
  hidden.push(join(options.pitwallHome, "hosts"));
  for (const socketPlace of [options.runtimeDir, options.sshAuthSock]) if (socketPlace && isAbsolute(socketPlace)) hidden.push(resolve(socketPlace));
  const protectedPaths = [options.pitwallHome, ...(options.sessionRoot ? [options.sessionRoot] : [])].map((path) => resolve(path));
  return {
    profile: options.profile,
    required: options.required ?? false,
    home: resolve(options.home),
    writable: [...new Set((options.writable ?? DEFAULT_WRITABLE).map(expand))],
    hidden: [...new Set(hidden)],
    protected: [...new Set(protectedPaths)],
    ...(options.bwrap ? { bwrap: options.bwrap } : {}),
  };
}

/** The same policy under another profile (the person's own commands, a job restarted under another). */
export function withProfile(policy: SandboxPolicy, profile: SandboxProfile): SandboxPolicy {
  return { ...policy, profile };
}

/** The `home` of a policy whose paths are home-relative: the machine that runs the commands expands them (policyHere). */
export const HOME_RELATIVE = "~";

export interface HomeRelativeOptions {
  profile: SandboxProfile;
  required?: boolean;
  /** The build caches as the person wrote them (`~/…` or absolute); DEFAULT_WRITABLE when not given. */
  writable?: readonly string[];
  /** Hidden besides DEFAULT_HIDDEN, as the person wrote them. */
  hidden?: readonly string[];
  /** That machine's name as the person knows it (`box`): what its refusals call it. */
  machine?: string;
}

/** `~/x` for `~/x` and a relative `x` (config paths are home-relative); an absolute path as it is. */
function keepHomeRelative(path: string): string {
  if (path === "~" || path.startsWith("~/")) return path;
  return isAbsolute(path) ? resolve(path) : `~/${path}`;
}

/**
 * The person's policy for commands on another machine (a remote session): the same rules, the
 * paths under the home left as `~/…` for that machine to expand against its own home, absolute
 * ones as the person wrote them. This machine's pitwall folder, runtime folder and ssh agent mean
 * nothing there: the other machine adds its own (policyHere). No bwrap is named: that machine's
 * PITWALL_BWRAP or PATH decides.
 */
export function homeRelativePolicy(options: HomeRelativeOptions): SandboxPolicy {
  return {
    profile: options.profile,
    required: options.required ?? false,
    home: HOME_RELATIVE,
    writable: [...new Set((options.writable ?? DEFAULT_WRITABLE).map(keepHomeRelative))],
    hidden: [...new Set([...DEFAULT_HIDDEN, ...(options.hidden ?? [])].map(keepHomeRelative))],
    protected: [],
    ...(options.machine !== undefined ? { machine: options.machine } : {}),
  };
}

/** The machine a policy is made absolute on. */
export interface PolicyPlace {
  home: string;
  pitwallHome: string;
  /** Its session runtime folder (XDG_RUNTIME_DIR) and ssh agent socket (SSH_AUTH_SOCK) there. */
  runtimeDir?: string;
  sshAuthSock?: string;
  /** Its bubblewrap program (PITWALL_BWRAP there); the PATH's when not given. */
  bwrap?: string;
}

/**
 * A policy as this machine runs it. One sent home-relative (by a remote client) gets this machine's
 * home for `~`, its pitwall folder read-only with its job hosts' sockets hidden, its session runtime
 * folder and ssh agent socket hidden (a forwarded agent signs with the person's keys), and its
 * bubblewrap program; an absolute one (a client on this machine made it) is returned as it is.
 */
export function policyHere(policy: SandboxPolicy, place: PolicyPlace): SandboxPolicy {
  if (policy.home !== HOME_RELATIVE) return policy;
  const expand = (path: string): string => expandHome(path, place.home);
  const hidden = policy.hidden.map(expand);
  hidden.push(join(place.pitwallHome, "hosts"));
  for (const socketPlace of [place.runtimeDir, place.sshAuthSock]) if (socketPlace && isAbsolute(socketPlace)) hidden.push(resolve(socketPlace));
  const bwrap = place.bwrap;
  return {
    profile: policy.profile,
    required: policy.required,
    home: resolve(place.home),
    writable: [...new Set(policy.writable.map(expand))],
    hidden: [...new Set(hidden)],
    protected: [...new Set([...policy.protected.map(expand), resolve(place.pitwallHome)])],
    ...(bwrap ? { bwrap } : {}),
    ...(policy.machine !== undefined ? { machine: policy.machine } : {}),
  };
}
