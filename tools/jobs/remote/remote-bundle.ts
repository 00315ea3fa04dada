// What pitwall copies to a remote: the bridge (remote.cjs, remote/remote-main.ts bundled), the job
// host (job-host.cjs) and the packages the host loads at run time (node-pty with its native addon,
// the headless terminal), in a folder named after this build (version and a hash of the two
// programs), so a remote never runs a host of another build. node-pty's addon is built for this
// machine: a remote of another system or architecture is refused with a message before copying.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { pitwallVersion } from "../../pitwall-version.js";

const PROGRAMS = ["remote.cjs", "job-host.cjs"] as const;
/** The packages job-host.cjs requires at run time (app/build/bundle-cli.ts leaves them out of it). */
const PACKAGES = ["node-pty", "@xterm/headless", "@xterm/addon-unicode11"] as const;

/** dist/bundle/, where the programs are: beside this module in the bundle, or from dist/tools/jobs/remote/. */
export function bundleFolder(here: string = import.meta.url): string {
  const candidates = ["./remote.cjs", "../../../bundle/remote.cjs"].map((name) => fileURLToPath(new URL(name, here)));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`pitwall's remote programs are missing (none of ${candidates.join(", ")}): reinstall pitwall, or run npm run build.`);
  return dirname(found);
}

let cachedName: string | undefined;

/** This build's folder name under ~/.pitwall/remote/ on a remote. */
export function bundleName(): string {
  if (cachedName) return cachedName;
  const folder = bundleFolder();
  const hash = createHash("sha256");
  for (const name of PROGRAMS) hash.update(readFileSync(join(folder, name)));
  return (cachedName = `${pitwallVersion()}-${hash.digest("hex").slice(0, 12)}`);
}

/** `uname -s` and `uname -m` of this machine, as a remote reports its own. */
export function localPlatform(): string {
  const system = process.platform === "linux" ? "Linux" : process.platform === "darwin" ? "Darwin" : process.platform;
  const machine = process.arch === "x64" ? "x86_64" : process.arch === "arm64" ? (process.platform === "darwin" ? "arm64" : "aarch64") : process.arch;
  return `${system} ${machine}`;
}

/**
 * The build as a tar.gz stream (a staging folder in the temp folder, removed once the stream ends).
 * `done` rejects with tar's message when it fails.
 */
export function bundleArchive(): { stream: Readable; done: Promise<void> } {
  const stage = mkdtempSync(join(tmpdir(), "pitwall-remote-bundle-"));
  try {
    const folder = bundleFolder();
    for (const name of PROGRAMS) cpSync(join(folder, name), join(stage, name));
    // What pitwallVersion() reads there: the host's version must be this pitwall's.
    writeFileSync(join(stage, "package.json"), `${JSON.stringify({ name: "pitwall", version: pitwallVersion(), private: true })}\n`);
    const require = createRequire(join(folder, "remote.cjs"));
    for (const name of PACKAGES) {
      const root = dirname(require.resolve(`${name}/package.json`));
      // node-pty: its JavaScript and this machine's addon, not its sources or other systems' builds.
      const keep = name === "node-pty" ? ["package.json", "lib", "build/Release/pty.node"] : ["."];
      for (const part of keep) cpSync(join(root, part), join(stage, "node_modules", name, part), { recursive: true, filter: (path) => !path.endsWith(".map") });
    }
  } catch (error) {
    rmSync(stage, { recursive: true, force: true });
    throw error;
  }
  const tar = spawn("tar", ["czf", "-", "-C", stage, "."], { stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  tar.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const done = new Promise<void>((resolve, reject) => {
    tar.once("error", (error) => reject(error));
    tar.once("close", (code) => {
      rmSync(stage, { recursive: true, force: true });
      if (code === 0) resolve();
      else reject(new Error(`Packing pitwall for the remote failed (tar exit ${code}): ${stderr.trim()}`));
    });
  });
  return { stream: tar.stdout, done };
}
