// Finding the job host of a working directory, and starting it when it is needed and not there: a
// detached node process (its own session, no descriptor of ours, stdout and stderr in host.log)
// whose environment carries none of this pitwall's process markers, so this pitwall's watchdog
// never touches it or its jobs. After starting it, we connect as soon as its socket answers.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync, statSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { fileURLToPath } from "node:url";
import { HostConnection, NoHostError, type ConnectionOptions, type Handshake } from "./host-connection.js";
import { startAndReach } from "./host-start.js";
import type { HostConfig } from "../host/host-config.js";
import { checkHostDir, checkHostSocket, hostPaths, prepareHostDir, type HostPaths } from "../host/host-paths.js";
import type { ClientInfo } from "../wire/handshake.js";
import { launch } from "../../process/child-launch.js";
import { JOB_MARKER_VARIABLE, RUN_MARKER_VARIABLE } from "../../process/marked-processes.js";

/** How long a new host may take to answer on its socket. */
const START_TIMEOUT_MS = 15_000;
const RETRY_MS = 20;
/** host.log is started afresh when it has grown past this. */
const MAX_LOG_BYTES = 1024 * 1024;
/**
 * The most V8 may grow the host's young generation to, in MB a half. The host lets it grow only
 * while output floods, and gives it back after (process/young-generation.ts), so that a flood's
 * chunks die young and the host's memory over a day stays where it starts. 8 rather than V8's 16:
 * taking turns in the local flood, the host spent 16.3–16.8 ms of CPU a MiB with 8 against
 * 17.2–17.9 with 16 (the larger one also doubles what a flood holds).
 */
const HOST_SEMI_SPACE_MB = 8;

export interface OpenHostOptions {
  home: string;
  cwd: string;
  client: ClientInfo;
  /** Start a host when none answers, with this configuration and environment; without it, none is started. */
  /** `bwrap`: the bubblewrap program of a remote client's commands (the remote bridge's PITWALL_BWRAP there). */
  start?: { settings: HostConfig["settings"]; keepJobsMs: number; env: NodeJS.ProcessEnv; bwrap?: string };
  /** How long the host may say nothing while a call waits, and has to greet (HostConnection's defaults otherwise). */
  connection?: ConnectionOptions;
}

export type OpenedHost = Handshake | { kind: "none" };

function isMissing(error: unknown): boolean {
  return error instanceof NoHostError || (error as NodeJS.ErrnoException).code === "ENOENT";
}

async function tryOpen(paths: HostPaths, client: ClientInfo, options: ConnectionOptions): Promise<OpenedHost> {
  try {
    checkHostDir(paths);
    // Nothing is sent (not even the hello) to a socket that is not ours.
    checkHostSocket(paths);
    return await HostConnection.open(paths.socket, client, options);
  } catch (error) {
    if (isMissing(error)) return { kind: "none" };
    throw error;
  }
}

/** Connects to the host of `cwd`; starts it first when asked to and none answers. */
export async function openHost(options: OpenHostOptions): Promise<OpenedHost> {
  const paths = hostPaths(options.home, options.cwd);
  const connection = options.connection ?? {};
  const open = (): Promise<OpenedHost | undefined> => tryOpen(paths, options.client, connection).then((opened) => (opened.kind === "none" ? undefined : opened));
  const found = await open();
  if (found || !options.start) return found ?? { kind: "none" };
  return startAndReachHost(paths, options.cwd, options.home, options.start, open);
}

/** Starts hosts for `paths` until one answers `reach()` (host-start.ts says when to start another). */
function startAndReachHost<T>(paths: HostPaths, cwd: string, home: string, start: NonNullable<OpenHostOptions["start"]>, reach: () => Promise<T | undefined>): Promise<T> {
  return startAndReach({
    start: () => startHost(paths, cwd, home, start),
    reach,
    folderExists: () => existsSync(paths.dir),
    failure: (why) => new Error(`The job host ${why}. Its log: ${paths.log}\n${logTail(paths.log)}`),
    timeoutMs: START_TIMEOUT_MS,
    retryMs: RETRY_MS,
  });
}

/**
 * A connection to the host of `cwd`'s socket, starting the host when none answers; nothing is sent
 * on it. A remote host's bridge uses it (remote/remote-main.ts): the handshake then comes from the
 * pitwall at the other end of ssh. (The connection is kept, not probed and closed: a host with no
 * job whose only client leaves ends itself.)
 */
export async function connectHostSocket(home: string, cwd: string, start: NonNullable<OpenHostOptions["start"]>): Promise<Socket> {
  const paths = hostPaths(home, cwd);
  const attempt = async (): Promise<Socket | undefined> => {
    try {
      checkHostDir(paths);
      checkHostSocket(paths);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    return new Promise((resolve) => {
      const socket = connect(paths.socket);
      socket.once("connect", () => {
        socket.removeAllListeners("error");
        resolve(socket);
      });
      socket.once("error", () => resolve(undefined));
    });
  };
  const found = await attempt();
  if (found) return found;
  return startAndReachHost(paths, cwd, home, start, attempt);
}

/** Starts the host process; resolves with why once it exits (it normally outlives this process). */
function startHost(paths: HostPaths, cwd: string, home: string, start: NonNullable<OpenHostOptions["start"]>): Promise<string> {
  prepareHostDir(paths);
  let size = 0;
  try {
    size = statSync(paths.log).size;
  } catch {
    size = 0;
  }
  const log = openSync(paths.log, size > MAX_LOG_BYTES ? "w" : "a", 0o600);
  const config: HostConfig = { cwd, home, settings: start.settings, keepJobsMs: start.keepJobsMs, ...(start.bwrap ? { bwrap: start.bwrap } : {}) };
  // The host and its jobs must not carry this process's markers: our watchdog would end them with us.
  const env = Object.fromEntries(
    Object.entries(start.env).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[0] !== RUN_MARKER_VARIABLE && entry[0] !== JOB_MARKER_VARIABLE),
  );
  const { file, args } = launch(process.execPath, [`--max-semi-space-size=${HOST_SEMI_SPACE_MB}`, hostProgram(), JSON.stringify(config)]);
  try {
    const child = spawn(file, args, { cwd, env, detached: true, stdio: ["ignore", log, log] });
    child.unref();
    return new Promise((resolve) => {
      child.once("error", (error) => resolve(error.message));
      child.once("exit", (code, signal) => resolve(signal ? `killed by ${signal}` : `exit code ${code}`));
    });
  } finally {
    closeSync(log);
  }
}

/**
 * The host's program: host/host-main.js as tsc compiled it, beside this module's folder (library
 * users, tests importing dist/), or job-host.cjs next to the bundle `pitwall` runs, which holds this
 * module too (app/build/bundle-cli.ts).
 */
export function hostProgram(here: string = import.meta.url): string {
  const candidates = ["../host/host-main.js", "./job-host.cjs"].map((name) => fileURLToPath(new URL(name, here)));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`The job host's program is missing: none of ${candidates.join(", ")} exists. Reinstall pitwall (or run npm run build).`);
  return found;
}

function logTail(path: string): string {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-12).join("\n");
  } catch {
    return "";
  }
}
