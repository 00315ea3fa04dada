// A job host of "another pitwall version" for the version-skew tests: the real JobHostServer and
// registry, but greeting with version 0.0.1-old, serving <cwd> under <home> with one job running
// (`sleep 63.91`). Started detached by the test (node dist/test/jobs/old-job-host.js <home> <cwd>);
// SIGTERM stops its job and ends it, as a real host does.
import { rmSync, writeFileSync } from "node:fs";
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import { installJobCleanup } from "../../tools/jobs/registry/job-cleanup.js";
import { hostPaths, prepareHostDir } from "../../tools/jobs/host/host-paths.js";
import { JobHostServer } from "../../tools/jobs/host/host-server.js";

const OLD_VERSION = "0.0.1-old";

async function main(): Promise<void> {
  const [home, cwd] = process.argv.slice(2);
  if (!home || !cwd) throw new Error("usage: old-job-host.js <home> <cwd>");
  const paths = hostPaths(home, cwd);
  prepareHostDir(paths);
  // What a host that was stopped left behind (the real host does the same).
  rmSync(paths.socket, { force: true });
  process.on("exit", () => rmSync(paths.socket, { force: true }));
  const registry = new JobRegistry({ cwd, env: process.env, settings: { killGraceMs: 500 } });
  registry.start({ command: "sleep 63.91", startedBy: "person" });
  installJobCleanup(registry);
  const server = new JobHostServer({ cwd, socketPath: paths.socket, registry, version: OLD_VERSION, keepJobsMs: 60_000, onIdle: () => undefined });
  await server.listen();
  writeFileSync(paths.pidFile, `${process.pid}\n`);
  process.stdout.write("READY\n");
}

void main();
