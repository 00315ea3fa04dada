// Where the job host of a working directory lives: <PITWALL_HOME>/hosts/<hash of the user and the
// folder>/, holding the socket (host.sock), the host's pid (host.pid) and its log (host.log). The
// folder is the access control: mode 0700 and owned by the user, so no other user can reach the
// socket (connect(2) needs search permission on every folder of the path). A folder that is not
// ours, is a symlink, or lets others in is refused, never repaired: someone else may already have
// planted a socket in it. Before a client connects, the socket itself must be ours and closed to
// others (Node cannot ask the kernel for the peer's credentials, SO_PEERCRED; in a folder only we
// can write, the socket's owner is the owner of whoever listens on it).
import { createHash } from "node:crypto";
import { lstatSync, mkdirSync } from "node:fs";
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

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

/** Checks a folder of ours: a real folder, owned by this user, closed to everyone else. */
function checkPrivate(path: string): void {
  const info = lstatSync(path);
  if (!info.isDirectory()) throw new HostDirError(`${path} is not a folder (a symlink or a file is in its place): remove it, then start pitwall again.`);
  if (info.uid !== uid()) throw new HostDirError(`${path} belongs to user ${info.uid}, not to you: the job host will not use it. Remove it, or set PITWALL_HOME to a folder of yours.`);
  if ((info.mode & 0o077) !== 0) {
    throw new HostDirError(
      `${path} lets other users in (mode ${octal(info.mode)}), so a socket in it may not be pitwall's: the job host will not use it. ` +
        `Remove the folder (rm -r ${path}), then start pitwall again; it makes a new one that only you can open.`,
    );
  }
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

/**
 * Checks the socket before a client connects and says anything: it must be a socket, ours, and
 * writable by nobody else (connect(2) needs write permission; a host makes it 0600 as soon as it
 * listens). Throws ENOENT's error as is (no host), a HostDirError otherwise.
 */
export function checkHostSocket(paths: HostPaths): void {
  const info = lstatSync(paths.socket);
  if (!info.isSocket()) throw new HostDirError(`${paths.socket} is not a socket: remove it, then start pitwall again.`);
  if (info.uid !== uid()) {
    throw new HostDirError(`${paths.socket} belongs to user ${info.uid}, not to you: pitwall will not talk to it. Remove it (rm ${paths.socket}), then start pitwall again.`);
  }
  if ((info.mode & 0o022) !== 0) {
    throw new HostDirError(`${paths.socket} lets other users in (mode ${octal(info.mode)}), so it may not be pitwall's: pitwall will not talk to it. Remove it (rm ${paths.socket}), then start pitwall again.`);
  }
}
