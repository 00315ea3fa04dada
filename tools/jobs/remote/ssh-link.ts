// One ssh process to a remote, seen as a stream: the system's ssh (the person's command and config)
// runs one of ssh-command.ts's scripts; its first line says what happened there (the bridge is
// ready, node is missing, this build is not installed); after `ready`, its stdin and stdout are the
// job-host protocol. What ssh itself says when it fails (unreachable, refused key, unknown host key)
// becomes a sentence a person can act on. Closing the stream ends the ssh process.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { Duplex, type Readable } from "node:stream";
import { launch } from "../../process/child-launch.js";
import type { RemoteTarget } from "./remote-target.js";
import { sshArgv, STATUS_PREFIX } from "./ssh-command.js";

/** Something went wrong reaching or preparing the remote: the message says what and what to do. */
export class RemoteError extends Error {}

/** The remote's first word: `ready <folder>`, `missing <system> <machine>`, `no-node`, … */
export interface RemoteStatus {
  word: string;
  rest: string;
}

export type LinkOutcome = { kind: "ready"; stream: Duplex; folder: string } | { kind: "status"; status: RemoteStatus };

const STDERR_KEEP = 4_000;

/** ssh's own failure (exit 255) as a sentence, with the next step. */
export function sshFailure(target: RemoteTarget, stderr: string, code: number | null): RemoteError {
  const said = stderr.trim().split(/\r?\n/).map((line) => line.trim()).filter(Boolean).slice(-3).join(" ");
  const where = target.destination;
  if (/Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|No .* host key is known/i.test(said)) {
    return new RemoteError(`ssh could not verify ${where}'s host key (${said}). Check the key and add it to your known_hosts (for example by running \`ssh ${where}\` once); pitwall never turns host key checking off.`);
  }
  if (/Permission denied|Too many authentication failures|no more authentication methods/i.test(said)) {
    return new RemoteError(`ssh could not log in to ${where} (${said}). pitwall runs ssh without prompts: use a key or an ssh agent that ${where} accepts, and check that \`ssh ${where} true\` works.`);
  }
  if (/Could not resolve|Connection refused|timed out|No route to host|Network is unreachable|Connection closed|Connection reset/i.test(said)) {
    return new RemoteError(`ssh could not reach ${where} (${said}). Check the host name and port, and that \`ssh ${where} true\` works.`);
  }
  const detail = said || `ssh exited with ${code === null ? "a signal" : `code ${code}`} and said nothing`;
  return new RemoteError(`ssh to ${where} failed (${detail}). Check that \`ssh ${where} true\` works.`);
}

/** ssh running `script`, with what it says on stderr; undefined (and `reject` told why) when it cannot be run. */
function startSsh(sshCommand: string, target: RemoteTarget, script: string, reject: (error: Error) => void): { child: ChildProcessWithoutNullStreams; stderr: () => string } | undefined {
  try {
    const { file, args } = sshArgv(sshCommand, target, script);
    const launched = launch(file, args);
    const child = spawn(launched.file, launched.args, { stdio: ["pipe", "pipe", "pipe"] });
    return { child, stderr: stderrOf(child) };
  } catch (error) {
    reject(new RemoteError(`Could not run ssh (${(error as Error).message}): check sshCommand or PITWALL_SSH_COMMAND.`));
    return undefined;
  }
}

/** Collects the last few kilobytes ssh writes to stderr. */
function stderrOf(child: ChildProcessWithoutNullStreams): () => string {
  let text = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => (text = (text + chunk).slice(-STDERR_KEEP)));
  return () => text;
}

/**
 * Runs `script` on the target and waits for its first line. With `ready`, the rest of the
 * connection is a stream; with any other status the ssh process has been ended.
 */
export function openLink(sshCommand: string, target: RemoteTarget, script: string): Promise<LinkOutcome> {
  return new Promise((resolve, reject) => {
    const started = startSsh(sshCommand, target, script, reject);
    if (!started) return;
    const { child, stderr } = started;
    child.stdin.on("error", () => undefined);
    let head = Buffer.alloc(0);
    let settled = false;
    const onData = (chunk: Buffer): void => {
      head = Buffer.concat([head, chunk]);
      const newline = head.indexOf(10);
      if (newline < 0) {
        if (head.length > 4096) fail(new RemoteError(`${target.destination} answered with something that is not pitwall: ${head.subarray(0, 200).toString("utf8")}`));
        return;
      }
      const line = head.subarray(0, newline).toString("utf8");
      const rest = head.subarray(newline + 1);
      child.stdout.off("data", onData);
      if (!line.startsWith(`${STATUS_PREFIX} `)) {
        // A login script printing to stdout breaks any protocol over ssh: say which line.
        return fail(new RemoteError(`${target.destination} printed "${line.slice(0, 200)}" before pitwall could start there. Something in the remote's shell startup (.bashrc, .profile) writes to stdout in non-interactive sessions: make it quiet.`));
      }
      const [word = "", ...words] = line.slice(STATUS_PREFIX.length + 1).split(" ");
      settled = true;
      if (word !== "ready") {
        child.kill("SIGTERM");
        return resolve({ kind: "status", status: { word, rest: words.join(" ") } });
      }
      resolve({ kind: "ready", stream: linkStream(child, rest), folder: words.join(" ") });
    };
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      child.kill("SIGTERM");
      reject(error);
    };
    child.stdout.on("data", onData);
    child.once("error", (error) => fail(new RemoteError(`Could not run ssh (${error.message}): check sshCommand or PITWALL_SSH_COMMAND.`)));
    child.once("close", (code) => {
      if (settled) return;
      if (code === 255 || code === null) return fail(sshFailure(target, stderr(), code));
      const said = stderr().trim().split(/\r?\n/).filter(Boolean).slice(-3).join(" ");
      fail(new RemoteError(`pitwall could not start on ${target.destination} (exit ${code}${said ? `: ${said}` : ""}).`));
    });
  });
}

/** The ssh process's stdin and stdout as one stream; destroying it ends ssh. */
function linkStream(child: ChildProcessWithoutNullStreams, first: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      child.stdout.resume();
    },
    write(chunk: Buffer | string, encoding, callback) {
      if (child.stdin.destroyed) return callback();
      child.stdin.write(chunk, encoding, () => callback());
    },
    final(callback) {
      child.stdin.end();
      callback();
    },
    destroy(error, callback) {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      callback(error);
    },
  });
  if (first.length > 0) stream.push(first);
  child.stdout.on("data", (chunk: Buffer) => {
    if (!stream.push(chunk)) child.stdout.pause();
  });
  child.stdout.once("end", () => stream.push(null));
  child.once("close", () => stream.destroy());
  return stream;
}

/** Runs `script` with `input` on its stdin; resolves with its status line, rejects with what went wrong. */
export function runWithInput(sshCommand: string, target: RemoteTarget, script: string, input: Readable): Promise<RemoteStatus> {
  return new Promise((resolve, reject) => {
    const started = startSsh(sshCommand, target, script, reject);
    if (!started) return;
    const { child, stderr } = started;
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (out = (out + chunk).slice(-STDERR_KEEP)));
    child.stdin.on("error", () => undefined);
    input.pipe(child.stdin);
    child.once("error", (error) => reject(new RemoteError(`Could not run ssh (${error.message}).`)));
    child.once("close", (code) => {
      const line = out.split("\n").find((l) => l.startsWith(`${STATUS_PREFIX} `));
      if (code === 0 && line) {
        const [word = "", ...words] = line.slice(STATUS_PREFIX.length + 1).split(" ");
        return resolve({ word, rest: words.join(" ") });
      }
      if (code === 255) return reject(sshFailure(target, stderr(), code));
      const said = stderr().trim().split(/\r?\n/).filter(Boolean).slice(-3).join(" ");
      reject(new RemoteError(said || `exit ${code}`));
    });
  });
}
