// Every process pitwall starts goes through this launcher, so it inherits no descriptor of ours but
// stdin, stdout and stderr. node-pty opens each pty master without close-on-exec (forkpty, see
// node-pty's src/unix/pty.cc) and libuv closes nothing on spawn, so without it every later child
// holds the masters of earlier jobs: the kernel never hangs those jobs up when pitwall dies, and any
// command can type into another job (`printf x >&20`). Node has no fcntl, so a few lines of bash close
// every descriptor above 2 and then exec the real program, which keeps its pid.
import { existsSync } from "node:fs";
import { childRestore } from "./core-dumps.js";

/** Closes every inherited descriptor above 2, then runs "$@". */
const CLOSE_INHERITED_FDS = 'for f in /dev/fd/*; do n=${f##*/}; case $n in 0|1|2|*[!0-9]*) ;; *) eval "exec $n>&-";; esac; done; exec "$@"';

/** bash is needed: dash and POSIX sh cannot name descriptors above 9 in a redirection. */
const LAUNCHER = ["/bin/bash", "/usr/bin/bash"].find((path) => existsSync(path));

export interface Launch {
  file: string;
  args: string[];
}

/**
 * How to run `file args…` so that it inherits only descriptors 0–2. Without bash on the machine the
 * program is run as is (and may inherit pty masters; the README says so). `wrapper` goes before the
 * program (the sandbox: bwrap and its arguments); the descriptors are closed before it runs.
 */
export function launch(file: string, args: readonly string[], wrapper: readonly string[] = []): Launch {
  const [program, ...rest] = [...wrapper, file, ...args] as [string, ...string[]];
  if (LAUNCHER === undefined) return { file: program, args: rest };
  // pitwall's own core dumps are off (core-dumps.ts); its children get the person's settings back.
  return { file: LAUNCHER, args: ["-c", `${childRestore()}${CLOSE_INHERITED_FDS}`, "pitwall-launch", program, ...rest] };
}

/** `shell -c command` through the launcher, inside `wrapper` when given. */
export function launchShell(shell: string, command: string, wrapper: readonly string[] = []): Launch {
  return launch(shell, ["-c", command], wrapper);
}
