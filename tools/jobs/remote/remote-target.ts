// Where a remote session runs: `[user@]host[:port]:/path`, as `--remote` and config's `remote` give
// it. The destination is handed to ssh as the person wrote it (an alias of their ~/.ssh/config
// works); the folder is absolute or under the remote home (`~/app`), which the remote side expands.
export interface RemoteTarget {
  /** What ssh is given: `host` or `user@host`. */
  destination: string;
  /** A port given in the spec (ssh -p); otherwise ssh's config decides. */
  port?: number;
  /** The folder on the remote: absolute, or starting with `~/` (or `~`). */
  path: string;
  /** How it reads to people: `dev@box:~/app`. */
  label: string;
}

export class RemoteSpecError extends Error {}

const USAGE = "Write it as [user@]host[:port]:/path, for example dev@box:~/app or box:2222:/srv/app.";

/** Parses a remote spec; throws RemoteSpecError saying what is wrong. */
export function parseRemote(spec: string): RemoteTarget {
  const text = spec.trim();
  const match = /^((?:[^@:\s/]+@)?(?:\[[^\]\s]+\]|[^@:\s/[\]]+))(?::(\d{1,5}))?:(.+)$/.exec(text);
  if (!match) throw new RemoteSpecError(`"${spec}" is not a remote. ${USAGE}`);
  const destination = (match[1] ?? "").replace(/\[([^\]]+)\]$/, "$1");
  const path = match[3] ?? "";
  if (destination.startsWith("-")) throw new RemoteSpecError(`"${spec}": a host name cannot start with "-". ${USAGE}`);
  if (!path.startsWith("/") && path !== "~" && !path.startsWith("~/")) {
    throw new RemoteSpecError(`"${spec}": the folder must be absolute (/srv/app) or under the remote home (~/app). ${USAGE}`);
  }
  const port = match[2] !== undefined ? Number(match[2]) : undefined;
  if (port !== undefined && (port < 1 || port > 65535)) throw new RemoteSpecError(`"${spec}": ${port} is not a port. ${USAGE}`);
  return { destination, ...(port !== undefined ? { port } : {}), path, label: `${destination}:${path}` };
}

/** The spec back from a target (what a session file records). */
export function remoteSpec(target: RemoteTarget): string {
  return `${target.destination}${target.port !== undefined ? `:${target.port}` : ""}:${target.path}`;
}
