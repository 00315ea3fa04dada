// The watchdog: a small shell process that outlives pitwall to clean up after it however it ended,
// SIGKILL and the OOM killer included. It runs in its own session (terminal signals do not reach it)
// and reads a pipe only pitwall holds (every other descriptor of pitwall is close-on-exec, and
// children start through the launcher, which closes the rest). Lines on the pipe tell it the
// process groups and temp folders to take care of. When the pipe closes, pitwall is gone: it sends
// KILL to every group still listed, sweeps /proc for processes carrying the run's marker (round after
// round, so a fork in flight is caught too), removes the folders and exits.
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { launch } from "./child-launch.js";
import { RUN_MARKER_VARIABLE } from "./marked-processes.js";

/** POSIX sh (dash, busybox, bash). $1 is the run's token. */
const SCRIPT = `
trap '' INT HUP QUIT PIPE
cd / || exit 1
token=$1
groups=' '
paths=''
while IFS= read -r line; do
  arg=\${line#? }
  case $line in
    "+ "*) groups="$groups$arg " ;;
    "- "*) case $groups in *" $arg "*) groups="\${groups%% $arg *} \${groups#* $arg }" ;; esac ;;
    "d "*) paths="$paths$arg
" ;;
  esac
done
for g in $groups; do kill -9 "-$g" 2>/dev/null; done
quiet=0
round=0
while [ $quiet -lt 3 ] && [ $round -lt 100 ]; do
  round=$((round + 1))
  found=$(grep -lsxzF "${RUN_MARKER_VARIABLE}=$token" /proc/[0-9]*/environ 2>/dev/null)
  if [ -z "$found" ]; then
    quiet=$((quiet + 1))
  else
    quiet=0
    for f in $found; do p=\${f#/proc/}; kill -9 "\${p%/environ}" 2>/dev/null; done
  fi
  sleep 0.02 2>/dev/null || sleep 1
done
printf '%s' "$paths" | while IFS= read -r p; do
  [ -n "$p" ] && rm -rf -- "$p"
done
`;

export interface Watchdog {
  readonly pid: number | undefined;
  /** Sends one line of the protocol; never throws (a dead watchdog is noticed by nobody). */
  send(op: "+" | "-" | "d", arg: string): void;
  /** Closes the pipe: the watchdog does its last sweep, removes the folders and exits. */
  close(): void;
}

/** Starts the watchdog for the run marked with `token`. It never carries the marker itself. */
export function startWatchdog(token: string): Watchdog {
  const { file, args } = launch("/bin/sh", ["-c", SCRIPT, "pitwall-watchdog", token]);
  let child: ChildProcess | undefined;
  try {
    child = spawn(file, args, {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
  } catch {
    child = undefined;
  }
  const stdin = child?.stdin as Socket | null | undefined;
  // A watchdog that could not start or died: pitwall goes on, only without the after-crash cleanup.
  child?.on("error", () => undefined);
  stdin?.on("error", () => undefined);
  // Neither the process nor the pipe keeps pitwall's event loop alive.
  child?.unref();
  stdin?.unref();
  let open = stdin !== undefined && stdin !== null;
  return {
    pid: child?.pid,
    send(op, arg) {
      if (!open || /[\r\n]/.test(arg)) return;
      stdin!.write(`${op} ${arg}\n`);
    },
    close() {
      if (!open) return;
      open = false;
      stdin!.end();
    },
  };
}
