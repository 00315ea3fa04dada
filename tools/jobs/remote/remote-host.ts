// Opening the job host of a folder on another machine: one ssh command checks the remote (Node 20 or
// newer, this build installed) and runs the bridge (remote-main.ts), which finds or starts the host
// there; the handshake then runs over ssh's stdio as over a local socket. A remote without this
// build gets it first (remote-bundle.ts, copied over ssh and renamed into place), and the person is
// told so. Every failure is a RemoteError that says what to do.
import { HostConnection, type ConnectionOptions } from "../client/host-connection.js";
import type { OpenedHost } from "../client/host-launcher.js";
import type { HostConfig } from "../host/host-config.js";
import type { ClientInfo } from "../wire/handshake.js";
import { bundleArchive, bundleName, localPlatform } from "./remote-bundle.js";
import type { BridgeConfig } from "./remote-main.js";
import type { RemoteTarget } from "./remote-target.js";
import { bridgeScript, installScript } from "./ssh-command.js";
import { openLink, RemoteError, runWithInput, type RemoteStatus } from "./ssh-link.js";

export interface OpenRemoteOptions {
  sshCommand: string;
  target: RemoteTarget;
  client: ClientInfo;
  settings: HostConfig["settings"];
  keepJobsMs: number;
  connection?: ConnectionOptions;
  /** Told what pitwall is doing there that the person should know (installing itself). */
  onStatus?: (text: string) => void;
}

/** The status line as a RemoteError (anything but `ready` and `missing`). */
function statusError(target: RemoteTarget, status: RemoteStatus): RemoteError {
  const where = target.destination;
  switch (status.word) {
    case "no-node":
      return new RemoteError(`${where} has no \`node\`: pitwall needs Node.js 20 or newer there, on the PATH a non-interactive ssh session sees (check with \`ssh ${where} node -v\`).`);
    case "old-node":
      return new RemoteError(`${where} has Node.js ${status.rest || "(unknown version)"}; pitwall needs 20 or newer there. Install a newer Node.js on ${where} (check with \`ssh ${where} node -v\`).`);
    case "no-folder":
      return new RemoteError(`${status.rest} is not a folder on ${where}: create it there, or give the folder that holds your code.`);
    default:
      return new RemoteError(`pitwall could not start on ${where} (${status.word}${status.rest ? ` ${status.rest}` : ""}).`);
  }
}

/** Copies this build to the remote; resolves once it is in place. */
async function install(options: OpenRemoteOptions, platform: string): Promise<void> {
  const { target } = options;
  const here = localPlatform();
  if (platform !== here) {
    throw new RemoteError(`${target.destination} is ${platform}, and this pitwall's terminal support (node-pty) is built for ${here}: pitwall cannot install itself there. Run pitwall on a machine of the same kind.`);
  }
  const name = bundleName();
  options.onStatus?.(`Installing pitwall on ${target.destination} (~/.pitwall/remote/${name}/)…`);
  const archive = bundleArchive();
  let status: RemoteStatus;
  try {
    status = await runWithInput(options.sshCommand, target, installScript(name), archive.stream);
    await archive.done;
  } catch (error) {
    archive.stream.destroy();
    if (error instanceof RemoteError && /^ssh /.test(error.message)) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const full = /No space left|Disk quota/i.test(why) ? " The remote's disk is full: free some space there, then try again." : "";
    throw new RemoteError(`Could not install pitwall on ${target.destination} under ~/.pitwall/remote/${name}/ (${why}).${full} Nothing was left half-installed.`);
  }
  if (status.word !== "installed") throw new RemoteError(`Installing pitwall on ${target.destination} did not finish (${status.word} ${status.rest}).`);
  options.onStatus?.(`Installed pitwall on ${target.destination} (${status.rest}).`);
}

/** Connects to the job host of the target's folder, installing pitwall there first when needed. */
export async function openRemoteHost(options: OpenRemoteOptions): Promise<OpenedHost> {
  const { target } = options;
  const config: BridgeConfig = { cwd: target.path, settings: options.settings, keepJobsMs: options.keepJobsMs };
  const script = bridgeScript(bundleName(), "bridge", JSON.stringify(config));
  let outcome = await openLink(options.sshCommand, target, script);
  if (outcome.kind === "status" && outcome.status.word === "missing") {
    await install(options, outcome.status.rest);
    outcome = await openLink(options.sshCommand, target, script);
  }
  if (outcome.kind === "status") throw statusError(target, outcome.status);
  return HostConnection.over(outcome.stream, options.client, options.connection ?? {});
}
