// Where the job host of a working directory lives: <PITWALL_HOME>/hosts/<hash of the user and the
// folder>/, holding the socket (host.sock), the host's pid (host.pid) and its log (host.log). The
// folder is the access control: mode 0700 and owned by the user, so no other user can reach the
// socket (connect(2) needs search permission on every folder of the path). A folder that is not
// ours, is a symlink, or lets others in is refused rather than used.
import { createHash } from "node:crypto";
import { chmodSync, lstatSync, mkdirSync } from "node:fs";
import { join, resolve } from "node:path";

export interface HostPaths {
  dir: string;
  socket: string;
  pidFile: string;
  log: string;
}

/** sun_path holds 108 bytes with its terminating NUL. */
export const MAX_SOCKET_PATH_BYTES = 107;

export class HostDirError extends Error {}

function uid(): number {
  return process.getuid?.() ?? 0;
}

export function hostPaths(home: string, cwd: string): HostPaths {
  const hash = createHash("sha256").update(`${uid()}\0${resolve(cwd)}`).digest("hex").slice(0, 16);
  const dir = join(home, "hosts", hash);
  return { dir, socket: join(dir, "host.sock"), pidFile: join(dir, "host.pid"), log: join(dir, "host.log") };
}

/** Checks a folder of ours: a real folder, owned by this user, closed to everyone else (fixed if ours). */
function checkPrivate(path: string): void {
  const info = lstatSync(path);
  if (!info.isDirectory()) throw new HostDirError(`${path} is not a folder (a symlink or a file is in its place): remove it, then start pitwall again.`);
  if (info.uid !== uid()) throw new HostDirError(`${path} belongs to user ${info.uid}, not to you: the job host will not use it. Remove it, or set PITWALL_HOME to a folder of yours.`);
  if ((info.mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/** Makes the host's folder (and <home>/hosts) private to this user; throws HostDirError when it cannot be trusted. */
export function prepareHostDir(paths: HostPaths): void {
  const hosts = resolve(paths.dir, "..");
  mkdirSync(hosts, { recursive: true, mode: 0o700 });
  checkPrivate(hosts);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  checkPrivate(paths.dir);
  const bytes = Buffer.byteLength(paths.socket);
  if (bytes > MAX_SOCKET_PATH_BYTES) {
    throw new HostDirError(`The job host's socket path is ${bytes} bytes long; Unix sockets allow ${MAX_SOCKET_PATH_BYTES}: set PITWALL_HOME to a shorter folder (${paths.socket}).`);
  }
}

/** Checks the folder of an existing host before connecting: it must be ours and private. */
export function checkHostDir(paths: HostPaths): void {
  checkPrivate(resolve(paths.dir, ".."));
  checkPrivate(paths.dir);
}
