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

/** Closes every inherited descriptor above 2. */
const CLOSE_INHERITED_FDS = 'for f in /dev/fd/*; do n=${f##*/}; case $n in 0|1|2|*[!0-9]*) ;; *) eval "exec $n>&-";; esac; done; ';

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

/** bash is needed: dash and POSIX sh cannot name descriptors above 9 in a redirection. */
const LAUNCHER = ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path));

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
  const prelude = `${childRestore()}${CLOSE_INHERITED_FDS}`;
  if (wrapper === undefined || wrapper.prefix.length === 0) {
    if (LAUNCHER === undefined) return { file, args: [...args] };
    return { file: LAUNCHER, args: ["-c", `${prelude}${EXEC}`, "pitwall-launch", file, ...args] };
  }
  const [program, ...wrapperArgs] = wrapper.prefix as [string, ...string[]];
  if (LAUNCHER === undefined) return { file: program, args: [...wrapperArgs, file, ...args] };
  return { file: LAUNCHER, args: ["-c", `${prelude}${RELAY}`, "pitwall-launch", program, ...wrapperArgs, file, ...args] };
}

/** `shell -c command` through the launcher, inside `wrapper` when given. */
export function launchShell(shell: string, command: string, wrapper?: LaunchWrapper): Launch {
  if (wrapper === undefined || wrapper.prefix.length === 0 || LAUNCHER === undefined) return launch(shell, ["-c", command], wrapper);
  return { ...launch(LAUNCHER, ["-c", FROM_ENVIRONMENT, "pitwall-command", shell], wrapper), env: { [COMMAND_VARIABLE]: command } };
}
