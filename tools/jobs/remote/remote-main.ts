// The program pitwall runs on a remote over ssh (remote.cjs in ~/.pitwall/remote/<build>/ there):
// `node remote.cjs bridge <pitwall home> '<json: BridgeConfig>' [bwrap]` (the home is PITWALL_HOME
// there, else ~/.pitwall, and bwrap PITWALL_BWRAP there, as the ssh script works them out) finds or starts the remote's job host for the
// folder exactly as a local pitwall does (a detached process with its own socket and grace period),
// says `pitwall-remote: ready` and then only pipes: ssh's stdin to the host's socket, the socket to
// ssh's stdout. The job-host protocol runs end to end between the two pitwalls. When the link drops,
// only this bridge ends; the host and its jobs stay, and a reconnect is a new bridge to the same host.
import { homedir } from "node:os";
import { join } from "node:path";
import { statSync } from "node:fs";
import { Type, type Static } from "@sinclair/typebox";
import { connectHostSocket } from "../client/host-launcher.js";
import { HostConfigSchema } from "../host/host-config.js";
import { checker } from "../wire/checker.js";
import { STATUS_PREFIX } from "./ssh-command.js";

export const BridgeConfigSchema = Type.Object(
  {
    /** The folder: absolute, or `~`/`~/…` under this machine's home. */
    cwd: Type.String(),
    settings: HostConfigSchema.properties.settings,
    keepJobsMs: Type.Number({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type BridgeConfig = Static<typeof BridgeConfigSchema>;

function say(line: string): void {
  process.stdout.write(`${STATUS_PREFIX} ${line}\n`);
}

/** `~` and `~/x` under this machine's home; anything else as given. */
export function expandHome(path: string, home: string = homedir()): string {
  if (path === "~") return home;
  if (path.startsWith("~/")) return join(home, path.slice(2));
  return path;
}

async function bridge(home: string | undefined, raw: string | undefined, bwrap: string | undefined): Promise<void> {
  let config: unknown;
  try {
    config = JSON.parse(raw ?? "");
  } catch {
    config = undefined;
  }
  const check = checker<BridgeConfig>(BridgeConfigSchema);
  if (!check.check(config)) {
    say(`bad-config ${check.problem(config)}`);
    process.exit(2);
  }
  const cwd = expandHome(config.cwd);
  try {
    if (!statSync(cwd).isDirectory()) throw new Error("not a folder");
  } catch {
    say(`no-folder ${cwd}`);
    process.exit(0);
  }
  if (!home) {
    say("bad-config no pitwall home");
    process.exit(2);
  }
  const socket = await connectHostSocket(home, cwd, { settings: config.settings, keepJobsMs: config.keepJobsMs, env: process.env, ...(bwrap ? { bwrap } : {}) });
  say(`ready ${cwd}`);
  process.stdin.pipe(socket);
  socket.pipe(process.stdout);
  // The link dropped (ssh closed our stdin) or the host went: this bridge's work is done.
  process.stdin.once("end", () => socket.end());
  process.stdout.on("error", () => socket.destroy());
  socket.once("close", () => process.exit(0));
  socket.once("error", (error) => {
    say(`failed ${error.message}`);
    process.exit(1);
  });
}

async function main(): Promise<void> {
  const [mode, home, config, bwrap] = process.argv.slice(2);
  if (mode === "bridge") return bridge(home, config, bwrap);
  process.stderr.write("pitwall remote: usage: remote.cjs bridge <pitwall home> '<json>' (pitwall runs this over ssh)\n");
  process.exit(2);
}

main().catch((error: unknown) => {
  say(`failed ${(error instanceof Error ? error.message : String(error)).replace(/\n/g, " ")}`);
  process.exit(1);
});
