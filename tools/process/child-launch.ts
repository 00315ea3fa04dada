// Every process pitwall starts goes through this launcher, so it inherits no descriptor of ours but
// stdin, stdout and stderr. node-pty opens each pty master without close-on-exec (forkpty, see
// node-pty's src/unix/pty.cc) and libuv closes nothing on spawn, so without it every later child
// holds the masters of earlier jobs: the kernel never hangs those jobs up when pitwall dies, and any
// command can type into another job (`printf x >&20`). Node has no fcntl, so a few lines of bash close
// every descriptor above 2 and then exec the real program, which keeps its pid.
//
// A command in the sandbox runs under bwrap, which stays as its parent and passes no signal on: a
// TERM to the job's group would end bwrap at once (and, under a pty, hang up the command, bwrap being
// the session's leader) while the command may take its time to clean up. So the launcher does not
// exec bwrap: it stays as the group's (and session's) leader and runs bwrap with the group's signals
// ignored; the wrapper's command line sets them back to their defaults for the command (env
// --default-signal), so the command gets every signal as before, and bwrap lives until it exits.
// The launcher catches the signals itself and exits with bwrap's status, which is the command's; a
// status of 128+n after the job got signal n is that signal, as an unfenced job would report it.
import { existsSync } from "node:fs";
import { childRestore } from "./core-dumps.js";

/** Closes every inherited descriptor above `last` (2, or 3 for a shell that waits on it). */
const closeInheritedFds = (last: 2 | 3): string =>
  `for f in /dev/fd/*; do n=\${f##*/}; case $n in ${last === 3 ? "0|1|2|3" : "0|1|2"}|*[!0-9]*) ;; *) eval "exec $n>&-";; esac; done; `;

/**
 * The shell a job's command runs in is not a top-level one: bash treats a top-level shell (SHLVL
 * below 2 once it has counted itself) whose stdin is a socket, as a pipe job's is, as started by
 * sshd and reads ~/.bashrc, so that job's environment would depend on whether pitwall itself was
 * started from a shell. With SHLVL at 2 here, `exec` hands on 1 and the shell counts itself to 2.
 */
const NOT_TOP_LEVEL = "(( SHLVL >= 2 )) || export SHLVL=2; ";

/** Then runs "$@" in its place (same pid). */
const EXEC = 'exec "$@"';

/** The signals a job's group gets from pitwall, the person's keys or its terminal. */
export const RELAYED_SIGNALS = ["TERM", "INT", "HUP", "QUIT", "USR1", "USR2"] as const;

/**
 * Then, for a wrapper: runs "$@" (the wrapper and the command) with those signals ignored (its
 * command line resets them for the command), catching them here, and ends as the top of this file says.
 */
const RELAY = [
  "sig=",
  `for s in ${RELAYED_SIGNALS.join(" ")}; do trap "sig=$s" $s; done`,
  `(trap '' ${RELAYED_SIGNALS.join(" ")}; exec "$@")`,
  "status=$?",
  'if [[ -n $sig ]] && (( status == 128 + $(kill -l "$sig") )); then trap - "$sig"; kill -s "$sig" $$; fi',
  "exit $status",
].join("; ");

/**
 * Inside a wrapper, the command comes in PITWALL_COMMAND rather than on the command line, so that it
 * shows once in `ps` (as the command's own), not also on the launcher's and bwrap's lines; this
 * takes it out of the environment and runs `$1 -c command`.
 */
const FROM_ENVIRONMENT = 'c=$PITWALL_COMMAND; unset PITWALL_COMMAND; exec "$1" -c "$c"';
const COMMAND_VARIABLE = "PITWALL_COMMAND";

/**
 * A waiting shell's (prestarted-shells.ts) takes its orders from descriptor 3, NUL-separated: the
 * variables to set (`NAME=value`) or unset (`-NAME`), an empty record, then the command. End of
 * input first (the descriptor closed by its owner, or its owner gone) ends it with 125, running
 * nothing. bash reads a pipe a byte at a time, which is why only short commands come this way.
 */
const FROM_DESCRIPTOR = [
  'while IFS= read -r -d "" v <&3; do [[ -z $v ]] && break; if [[ $v == -* ]]; then unset "${v#-}"; else export "$v"; fi; done',
  '[[ -z $v ]] && IFS= read -r -d "" c <&3 || exit 125',
  "exec 3<&-",
  'exec "$1" -c "$c"',
].join("; ");

/** bash is needed: dash and POSIX sh cannot name descriptors above 9 in a redirection. */
const LAUNCHER = ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path));

/**
 * How the launcher's bash runs a script. `--norc`: a bash whose stdin is a socket (what Node's
 * "pipe" stdio is) and whose environment has no SHLVL believes sshd started it and reads the
 * person's ~/.bashrc, which is no part of a launch: it cost ~140 ms of CPU per watchdog here (a
 * pyenv set-up), and ran their start-up code with an environment of PATH alone.
 */
const script = (text: string, name: string, ...rest: readonly string[]): string[] => ["--norc", "-c", text, name, ...rest];

export interface Launch {
  file: string;
  args: string[];
  /** Added to the environment it is started with. */
  env?: Record<string, string>;
}

/**
 * A program that runs the command as its child (the sandbox: bwrap and its arguments). It is started
 * with RELAYED_SIGNALS ignored, so its arguments must set them back to their defaults for the
 * command (bwrap's end with `env --default-signal=…`).
 */
export interface LaunchWrapper {
  prefix: readonly string[];
}

/**
 * How to run `file args…` so that it inherits only descriptors 0–2. Without bash on the machine the
 * program is run as is (and may inherit pty masters; the README says so). Within a `wrapper`, the
 * launcher stays as the group's leader until the command has ended (see the top of this file).
 */
export function launch(file: string, args: readonly string[], wrapper?: LaunchWrapper): Launch {
  // pitwall's own core dumps are off (core-dumps.ts); its children get the person's settings back.
  const prelude = `${childRestore()}${NOT_TOP_LEVEL}${closeInheritedFds(2)}`;
  if (wrapper === undefined || wrapper.prefix.length === 0) {
    if (LAUNCHER === undefined) return { file, args: [...args] };
    return { file: LAUNCHER, args: script(`${prelude}${EXEC}`, "pitwall-launch", file, ...args) };
  }
  const [program, ...wrapperArgs] = wrapper.prefix as [string, ...string[]];
  if (LAUNCHER === undefined) return { file: program, args: [...wrapperArgs, file, ...args] };
  return { file: LAUNCHER, args: script(`${prelude}${RELAY}`, "pitwall-launch", program, ...wrapperArgs, file, ...args) };
}

/** `shell -c command` through the launcher, inside `wrapper` when given. */
export function launchShell(shell: string, command: string, wrapper?: LaunchWrapper): Launch {
  if (wrapper === undefined || wrapper.prefix.length === 0 || LAUNCHER === undefined) return launch(shell, ["-c", command], wrapper);
  return { ...launch(LAUNCHER, script(FROM_ENVIRONMENT, "pitwall-command", shell), wrapper), env: { [COMMAND_VARIABLE]: command } };
}

/**
 * A shell inside `wrapper` that waits on descriptor 3 for its command (see FROM_DESCRIPTOR and
 * waitingShellOrders): started ahead of a call, so the call does not wait for the wrapper's set-up.
 * Undefined without bash on the machine.
 */
export function launchWaitingShell(shell: string, wrapper: LaunchWrapper): Launch | undefined {
  if (LAUNCHER === undefined || wrapper.prefix.length === 0) return undefined;
  const prelude = `${childRestore()}${NOT_TOP_LEVEL}${closeInheritedFds(3)}`;
  return { file: LAUNCHER, args: script(`${prelude}${RELAY}`, "pitwall-launch", ...wrapper.prefix, LAUNCHER, ...script(FROM_DESCRIPTOR, "pitwall-command", shell)) };
}

/** What a waiting shell is sent: the changes to its environment, then the command. */
export function waitingShellOrders(command: string, set: Readonly<Record<string, string>>, unset: readonly string[]): string {
  return [...Object.entries(set).map(([name, value]) => `${name}=${value}`), ...unset.map((name) => `-${name}`), "", command].join("\0") + "\0";
}
