// The ssh command lines pitwall runs: the person's ssh command (`ssh` unless `sshCommand` or
// PITWALL_SSH_COMMAND says otherwise, as git's core.sshCommand does) split into words, then the
// target, then one remote command. pitwall adds only BatchMode (ssh must fail with a message
// rather than prompt on a terminal the dashboard owns); host keys are checked as the person's ssh
// checks them. The remote commands are POSIX sh scripts, run through `sh -c` whatever the login
// shell is; each first line they print starts with STATUS_PREFIX, so the client knows what happened
// before any protocol is spoken.
import type { RemoteTarget } from "./remote-target.js";

export const STATUS_PREFIX = "pitwall-remote:";

/** Splits a command line into words as a POSIX shell would (quotes and backslashes; no expansion). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? "";
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1] ?? "")) word += command[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`The ssh command has an unclosed ${quote} quote: ${command}`);
  if (inWord) words.push(word);
  if (words.length === 0) throw new Error("The ssh command is empty: set sshCommand (or PITWALL_SSH_COMMAND) to something like `ssh`.");
  return words;
}

/** A word quoted for sh. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The program and arguments that run `script` on the target with sh. */
export function sshArgv(sshCommand: string, target: RemoteTarget, script: string): { file: string; args: string[] } {
  const [file = "ssh", ...rest] = splitCommand(sshCommand);
  const args = [...rest, "-o", "BatchMode=yes", ...(target.port !== undefined ? ["-p", String(target.port)] : []), "--", target.destination, `/bin/sh -c ${shellQuote(script)}`];
  return { file, args };
}

/** The remote's pitwall home (PITWALL_HOME there, else ~/.pitwall) and this build's folder in it, as sh sets them. */
function homeLines(bundleDir: string): string[] {
  return ['H="${PITWALL_HOME:-$HOME/.pitwall}"', `D="$H/remote/${bundleDir}"`];
}

/**
 * Checks the remote (node there and new enough, this build installed) and, when all is there, runs
 * the bridge with `config` (JSON) and the remote's bubblewrap program (PITWALL_BWRAP there, as sh
 * sees it; empty: the PATH's). Otherwise it prints one status line: `no-node`, `old-node <v>` or
 * `missing <uname -s> <uname -m>`.
 */
export function bridgeScript(bundleDir: string, mode: "bridge", config: string): string {
  return [
    ...homeLines(bundleDir),
    `command -v node >/dev/null 2>&1 || { echo "${STATUS_PREFIX} no-node"; exit 0; }`,
    `node -e 'process.exit(Number(process.versions.node.split(".")[0])>=20?0:3)' 2>/dev/null || { echo "${STATUS_PREFIX} old-node $(node -v 2>&1)"; exit 0; }`,
    `[ -f "$D/remote.cjs" ] || { echo "${STATUS_PREFIX} missing $(uname -s) $(uname -m)"; exit 0; }`,
    `exec node "$D/remote.cjs" ${mode} "$H" ${shellQuote(config)} "\${PITWALL_BWRAP:-}"`,
  ].join("\n");
}

/**
 * Unpacks the tar.gz on stdin into a temp folder beside the build's folder and renames it into
 * place (a half-copied build is never used; a build another pitwall installed meanwhile wins).
 */
export function installScript(bundleDir: string): string {
  return [
    "set -e",
    ...homeLines(bundleDir),
    'mkdir -p "$H/remote"',
    'T=$(mktemp -d "$H/remote/.install-XXXXXX")',
    `trap 'if [ -n "$T" ]; then rm -rf "$T"; fi' EXIT`,
    'tar xzf - -C "$T"',
    'if mv -T "$T" "$D" 2>/dev/null; then T=""; fi',
    `[ -f "$D/remote.cjs" ]`,
    `echo "${STATUS_PREFIX} installed $D"`,
  ].join("\n");
}
