// The job host process: started by the first pitwall of a working directory that needs a job (or a
// bash call), detached into a session of its own, so closing the terminal, quitting the dashboard or
// killing it does not end the jobs. It has its own ProcessGuard: every job carries the host's marker,
// not a dashboard's, and if the host itself is killed its watchdog ends every job's process group
// and every escape. It exits once it has no client and no job (JobHostServer decides when).
//
// Usage (by host-launcher.ts only): node host-main.js '<json: HostConfig>' (dist/bundle/job-host.cjs
// when pitwall runs as its bundle)
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect } from "node:net";
import { HostConfigSchema, type HostConfig } from "./host-config.js";
import { installJobCleanup } from "../registry/job-cleanup.js";
import { JobRegistry } from "../registry/job-registry.js";
import { checkHostDir, hostPaths } from "./host-paths.js";
import { JobHostServer } from "./host-server.js";
import { warmUpEmulator } from "../terminal/job-terminal.js";
import { checker } from "../wire/checker.js";
import { pitwallVersion } from "../../pitwall-version.js";
import { turnOffCoreDumps } from "../../process/core-dumps.js";
import { ProcessGuard } from "../../process/process-guard.js";
import { collectStartupGarbage } from "../../process/startup-garbage.js";
import { YoungGeneration } from "../../process/young-generation.js";
import { removeTree } from "../../process/temp-folder.js";
import { CommandSandbox } from "../../sandbox/index.js";

export { HostConfigSchema, type HostConfig } from "./host-config.js";

/** With no client in this long after starting, the host gives up (its starter died before connecting). */
const FIRST_CLIENT_MS = 10_000;
const PRELOAD_EMULATOR_AFTER_MS = 100;
const STARTUP_GARBAGE_AFTER_MS = 1500;

/** True when a live host answers on the socket. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function main(): Promise<void> {
  // The host receives the provider keys with each tool call (to redact what it writes): no core file.
  turnOffCoreDumps();
  let config: unknown;
  try {
    config = JSON.parse(process.argv[2] ?? "");
  } catch {
    config = undefined;
  }
  const check = checker<HostConfig>(HostConfigSchema);
  if (!check.check(config)) {
    process.stderr.write(`job host: bad configuration (${check.problem(config)}); this program is started by pitwall.\n`);
    process.exit(2);
  }
  const paths = hostPaths(config.home, config.cwd);
  // The client made this folder before starting the host. Gone by now (its home was removed while
  // the host started, as a test's temp folder is): no one is left to serve, and making it again would
  // leave it behind.
  if (!existsSync(paths.dir)) process.exit(0);
  checkHostDir(paths);
  // Another host got here first (two pitwalls started at once): it serves the folder.
  if (await answers(paths.socket)) process.exit(0);
  rmSync(paths.socket, { force: true });

  // bash's full-output files go to the client's temp folder. The sandbox's private /tmp is in the
  // host's own folder (never in TMPDIR, so a client leaves nothing there): made with the first
  // fenced command, removed with the host (after a crash, by its watchdog, or by the next host).
  const guard = ProcessGuard.start();
  const sandboxFolder = join(paths.dir, "sandbox");
  removeTree(sandboxFolder);
  process.once("exit", () => removeTree(sandboxFolder));
  guard.removeAfterCrash(sandboxFolder);
  const sandbox = new CommandSandbox(() => sandboxFolder);
  const registry = new JobRegistry({ cwd: config.cwd, env: process.env, settings: config.settings, marker: guard, sandbox });
  const finish = (): void => {
    rmSync(paths.pidFile, { force: true });
    rmSync(paths.socket, { force: true });
  };
  process.on("exit", finish);
  // Signals (someone stopping the host on purpose) stop every job politely, then exit.
  installJobCleanup(registry, { guard });
  const server: JobHostServer = new JobHostServer({
    cwd: config.cwd,
    socketPath: paths.socket,
    registry,
    marker: guard,
    version: pitwallVersion(),
    keepJobsMs: config.keepJobsMs,
    pitwallHome: config.home,
    ...(config.bwrap ? { bwrap: config.bwrap } : {}),
    onIdle: () => {
      void server.close().finally(() => {
        guard.close();
        process.exit(0);
      });
    },
  });
  try {
    await server.listen();
  } catch (error) {
    // Lost the race for the socket to another host.
    if ((error as NodeJS.ErrnoException).code === "EADDRINUSE") process.exit(0);
    throw error;
  }
  writeFileSync(paths.pidFile, `${process.pid}\n`);
  process.stderr.write(`job host ${process.pid} serving ${config.cwd} (pitwall ${pitwallVersion()})\n`);
  setTimeout(() => server.checkIdle(), FIRST_CLIENT_MS).unref();
  // A host exists to run jobs, and a dashboard starts it before the first one: load and warm the
  // terminal emulator once the greeting is done rather than in the first job's start.
  setTimeout(warmUpEmulator, PRELOAD_EMULATOR_AFTER_MS).unref();
  // What starting and the warm-ups (the emulator's, a dashboard's no-op bash call) left behind goes
  // in one collection before the first command, whose output would otherwise meet it.
  collectStartupGarbage(STARTUP_GARBAGE_AFTER_MS, () => !server.busy());
  // Room for a flood's chunks to die young, only while output floods (process/young-generation.ts).
  const young = new YoungGeneration();
  registry.subscribe((event) => {
    if (event.type === "job_output") young.output(event.chunk.length);
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`job host: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
