// bubblewrap, called directly: where the system's `bwrap` is, whether it can make a sandbox here
// (probed once per program and process: user namespaces may be off, or it may run as root in a
// container), and the arguments that build a FencePlan. pitwall calls bwrap itself rather than
// through @anthropic-ai/sandbox-runtime: that library's engines field excludes Node 20, it needs
// ripgrep and socat besides bwrap, routes the network through its own proxies (pitwall keeps the
// network, or takes it away), creates and removes mount-point files in the working directory, and
// would hide the mounts pitwall needs to check paths in-process and to attribute a failure exactly.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import type { FencePlan } from "./fence-plan.js";
import { RELAYED_SIGNALS } from "../process/child-launch.js";
import type { SandboxProfile } from "./profiles.js";

/**
 * Whether commands can be fenced here. `resetSignals` goes between bwrap's `--` and the command:
 * bwrap is started with the job's signals ignored (so it outlives them, process/child-launch.ts),
 * and this sets them back to their defaults for the command.
 */
export type Availability = { ok: true; program: string; resetSignals: string[] } | { ok: false; reason: string; fix: string };

const PROBE_TIMEOUT_MS = 5_000;
const INSTALL = "install bubblewrap (Debian and Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap)";

const probes = new Map<string, Promise<Availability>>();

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The bwrap program: the one given, else the first on the PATH, else the usual places. */
export function findBwrap(given: string | undefined, path: string = process.env.PATH ?? ""): string | undefined {
  if (given !== undefined && given !== "") return executable(given) ? given : undefined;
  const places = [...path.split(delimiter).filter(Boolean).map((dir) => join(dir, "bwrap")), "/usr/bin/bwrap", "/bin/bwrap"];
  return places.find(executable);
}

/** Whether root runs it: root keeps its capabilities in bubblewrap unless they are dropped. */
function asRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Whether bwrap can make the sandbox pitwall asks for (a read-only root, /dev, /proc, a network of
 * its own, capabilities dropped), found by trying once per program and process.
 */
export function bwrapAvailability(given?: string): Promise<Availability> {
  if (process.platform !== "linux") {
    return Promise.resolve({ ok: false, reason: "the sandbox is Linux-only for now", fix: "run untrusted work in a container or a VM" });
  }
  const program = findBwrap(given);
  if (program === undefined) {
    const reason = given ? `the bubblewrap program ${given} is not there or cannot be run` : "bubblewrap (bwrap) is not installed";
    return Promise.resolve({ ok: false, reason, fix: INSTALL });
  }
  let probe = probes.get(program);
  if (probe === undefined) {
    probe = runProbe(program);
    probes.set(program, probe);
  }
  return probe;
}

/** coreutils' env (8.31 or later) resets the signals bwrap was started with ignored. */
function resetSignalsCommand(): string[] | undefined {
  const env = ["/usr/bin/env", "/bin/env"].find(executable);
  return env === undefined ? undefined : [env, `--default-signal=${RELAYED_SIGNALS.join(",")}`];
}

function runProbe(program: string): Promise<Availability> {
  const reset = resetSignalsCommand();
  if (reset === undefined) return Promise.resolve({ ok: false, reason: "env (coreutils) is not in /usr/bin or /bin", fix: "install coreutils" });
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--unshare-net", ...(asRoot() ? ["--cap-drop", "ALL"] : []), "--", ...reset, "/bin/sh", "-c", "exit 0"];
  return new Promise((resolve) => {
    let stderr = "";
    let settled = false;
    const done = (result: Availability): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      done({ ok: false, reason: `${program} did not make a sandbox within ${PROBE_TIMEOUT_MS / 1000} s`, fix: "check that bwrap works: bwrap --ro-bind / / true" });
    }, PROBE_TIMEOUT_MS);
    child.stderr.setEncoding("utf8").on("data", (text: string) => {
      if (stderr.length < 2_000) stderr += text;
    });
    child.once("error", (error) => done({ ok: false, reason: `${program} could not be run (${error.message})`, fix: INSTALL }));
    child.once("close", (code) => {
      if (code === 0) return done({ ok: true, program, resetSignals: reset });
      const said = stderr.trim().split("\n")[0] ?? "";
      if (/default-signal/.test(said)) {
        return done({ ok: false, reason: `env cannot reset signals (${said}): coreutils 8.31 or later is needed`, fix: "update coreutils" });
      }
      const namespaces = /namespace|uid map|Operation not permitted|Permission denied/i.test(said);
      done({
        ok: false,
        reason: `${program} cannot make a sandbox${said ? ` (${said.replace(/^bwrap: /, "")})` : ` (exit ${code})`}`,
        fix: namespaces
          ? "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later, an AppArmor profile that allows bwrap), or run pitwall in a container or VM"
          : "check that bwrap works: bwrap --ro-bind / / true",
      });
    });
  });
}

/**
 * bwrap's arguments for a plan, up to the `--` before the command. No new pid namespace: pitwall
 * ends a command by its process group and finds its escapes in /proc, from outside. No
 * --die-with-parent either: bwrap does not pass signals on, so a TERM to the group would end bwrap
 * first and its parent-death signal would KILL the command before it could clean up; the launching
 * process's watchdog ends every group if that process dies.
 */
export function bwrapArguments(plan: FencePlan, profile: SandboxProfile, commandCwd: string = plan.cwd): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--perms", "1777", "--tmpfs", "/dev/shm"];
  for (const mount of plan.mounts.slice(1)) {
    switch (mount.kind) {
      case "read-only":
        args.push("--ro-bind", mount.path, mount.path);
        break;
      case "writable":
        args.push("--bind", mount.path, mount.path);
        break;
      case "private-tmp":
        args.push("--bind", mount.source ?? mount.path, mount.path);
        break;
      case "empty-folder":
        args.push("--tmpfs", mount.path, "--remount-ro", mount.path);
        break;
      case "empty-file":
        args.push("--ro-bind", mount.source ?? "/dev/null", mount.path);
        break;
    }
  }
  // Explicitly: bwrap would fall back to $HOME, silently, were the folder not visible inside.
  args.push("--chdir", commandCwd);
  // Set by bwrap, so the job's own environment (what a restart under another profile starts from)
  // stays as it was: /tmp is the private folder whatever TMPDIR said, and commands can tell they are fenced.
  if (plan.mounts.some((mount) => mount.kind === "private-tmp")) args.push("--setenv", "TMPDIR", "/tmp");
  args.push("--setenv", "PITWALL_SANDBOX", profile);
  if (profile === "strict") args.push("--unshare-net");
  // Root keeps every capability inside (CAP_SYS_ADMIN remounts / writable): drop them all.
  if (asRoot()) args.push("--cap-drop", "ALL");
  args.push("--");
  return args;
}
