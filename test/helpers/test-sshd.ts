// A private sshd for the remote tests: Debian's openssh-server run from a temp folder on 127.0.0.1 at
// a free port, with its own generated host key, its own config and a user key only it accepts. The
// client side is a test HOME holding an ssh_config and a known_hosts for that key: `ssh -F <config>
// box` reaches it, and nothing of the machine's own ssh setup is read or changed. The tests run as
// root, so the sshd lets root in with that key only, and gives the session a HOME of the test's own
// (the "remote" machine's home, where pitwall installs itself), so the real ~ is never touched.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { join } from "node:path";
import { tempDir } from "./temp-dir.js";

export const SSHD = "/usr/sbin/sshd";

export interface TestSshd {
  /** The folder holding everything (keys, configs, both homes). */
  root: string;
  port: number;
  /** The ssh alias the config defines (`box`). */
  alias: string;
  /** The client's ssh_config: `ssh -F <it> box true` logs in. */
  sshConfig: string;
  /** The ssh command pitwall is told to use (PITWALL_SSH_COMMAND). */
  sshCommand: string;
  /** HOME on the "remote" side (pitwall installs under its .pitwall/remote/). */
  remoteHome: string;
  /** A folder standing for the remote's project. */
  remoteProject: string;
  /** The user sshd logs in. */
  user: string;
  /** Writes another client config (say, with an unknown host key or a wrong identity); returns its path. */
  clientConfig(name: string, lines: string[]): string;
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (the kernel's choice, released before sshd binds it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether this machine can run the test sshd (Debian's openssh-server installed). */
export function sshdAvailable(): boolean {
  return existsSync(SSHD);
}

function keygen(path: string): void {
  execFileSync("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-C", "pitwall-test", "-f", path], { stdio: "ignore" });
}

export interface TestSshdOptions {
  /** Environment the remote's login gets (sshd's SetEnv). */
  remoteEnv?: Record<string, string>;
  /** A remote that cannot fence: its bubblewrap (PITWALL_BWRAP there) is a program that is not there. */
  withoutBwrap?: boolean;
}

/** Starts the sshd; resolves once it accepts a login. */
export async function startTestSshd(options: TestSshdOptions = {}): Promise<TestSshd> {
  const root = tempDir("sshd");
  const user = userInfo().username;
  const serverDir = join(root, "server");
  const clientHome = join(root, "client-home");
  // A temp folder of its own: the cleanup ends the job hosts under its .pitwall/ (test/helpers/job-hosts.ts).
  const remoteHome = tempDir("remote-home");
  const remoteProject = join(root, "remote-project");
  for (const dir of [serverDir, join(clientHome, ".ssh"), remoteHome, remoteProject]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hostKey = join(serverDir, "host_key");
  const userKey = join(clientHome, ".ssh", "id_test");
  keygen(hostKey);
  keygen(userKey);
  const authorized = join(serverDir, "authorized_keys");
  execFileSync("cp", [`${userKey}.pub`, authorized]);
  const port = await freePort();
  // sshd insists on its privilege-separation folder (a system path it creates itself when packaged).
  if (!existsSync("/run/sshd")) mkdirSync("/run/sshd", { mode: 0o755 });
  // The remote's temp folder is the test's too: a remote pitwall the test ends with KILL cannot remove
  // its own (pitwall-<pid>-…), and the machine's /tmp would keep it.
  const remoteTmp = join(remoteHome, "tmp");
  const env = { HOME: remoteHome, TMPDIR: remoteTmp, ...(options.withoutBwrap ? { PITWALL_BWRAP: join(root, "no-bwrap", "bwrap") } : {}), ...options.remoteEnv };
  mkdirSync(remoteTmp, { mode: 0o700 });
  const sshdConfig = join(serverDir, "sshd_config");
  writeFileSync(
    sshdConfig,
    [
      `ListenAddress 127.0.0.1:${port}`,
      `HostKey ${hostKey}`,
      `PidFile ${join(serverDir, "sshd.pid")}`,
      `AuthorizedKeysFile ${authorized}`,
      `AllowUsers ${user}`,
      "PermitRootLogin prohibit-password",
      "PubkeyAuthentication yes",
      "PasswordAuthentication no",
      "KbdInteractiveAuthentication no",
      "UsePAM no",
      // The key files live in a temp folder whose parents are not root's alone.
      "StrictModes no",
      "PrintMotd no",
      "PrintLastLog no",
      "UseDNS no",
      "X11Forwarding no",
      "Subsystem sftp internal-sftp",
      `SetEnv ${Object.entries(env)
        .map(([key, value]) => `${key}=${value}`)
        .join(" ")}`,
    ].join("\n") + "\n",
  );
  const knownHosts = join(clientHome, ".ssh", "known_hosts");
  const hostPub = execFileSync("cat", [`${hostKey}.pub`], { encoding: "utf8" }).trim().split(" ").slice(0, 2).join(" ");
  writeFileSync(knownHosts, `[127.0.0.1]:${port} ${hostPub}\n`);
  const base = [
    `  HostName 127.0.0.1`,
    `  Port ${port}`,
    `  User ${user}`,
    `  IdentityFile ${userKey}`,
    `  IdentitiesOnly yes`,
    `  UserKnownHostsFile ${knownHosts}`,
    `  GlobalKnownHostsFile /dev/null`,
    `  StrictHostKeyChecking yes`,
    `  BatchMode yes`,
    `  ConnectTimeout 5`,
    `  LogLevel ERROR`,
  ];
  const clientConfig = (name: string, lines: string[]): string => {
    const path = join(clientHome, ".ssh", name);
    // A line given replaces the base line of the same keyword (IdentityFile would add up otherwise).
    const keyword = (line: string): string => line.trim().split(/\s+/)[0]!.toLowerCase();
    const given = new Set(lines.map(keyword));
    writeFileSync(path, ["Host box", ...lines, ...base.filter((line) => !given.has(keyword(line)))].join("\n") + "\n", { mode: 0o600 });
    return path;
  };
  const sshConfig = clientConfig("config", []);
  const daemon: ChildProcess = spawn(SSHD, ["-D", "-e", "-f", sshdConfig], { stdio: ["ignore", "ignore", "pipe"] });
  let log = "";
  daemon.stderr?.setEncoding("utf8");
  daemon.stderr?.on("data", (chunk: string) => (log = (log + chunk).slice(-4000)));
  const exited = new Promise<void>((resolve) => daemon.once("exit", () => resolve()));
  const sshd: TestSshd = {
    root,
    port,
    alias: "box",
    sshConfig,
    sshCommand: `ssh -F ${sshConfig}`,
    remoteHome,
    remoteProject,
    user,
    clientConfig,
    async stop() {
      if (daemon.exitCode === null && daemon.signalCode === null) daemon.kill("SIGTERM");
      await exited;
    },
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      execFileSync("ssh", ["-F", sshConfig, "box", "true"], { stdio: "pipe", timeout: 10_000 });
      return sshd;
    } catch (error) {
      if (daemon.exitCode !== null || Date.now() > deadline) {
        await sshd.stop();
        throw new Error(`the test sshd did not let us in: ${(error as Error).message}\n${log}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
