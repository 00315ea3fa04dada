// The two JobService implementations the job tests run against: the jobs in this process
// (LocalJobService), and a client of a job host (HostJobService) talking over a real Unix socket to
// a JobHostServer that runs in the test process, so the tests see both through the same interface.
import { JobRegistry } from "../../tools/jobs/registry/job-registry.js";
import type { JobService } from "../../tools/jobs/service.js";
import { LocalJobService } from "../../tools/jobs/local/local-job-service.js";
import { HostJobService, type HostClientKind } from "../../tools/jobs/client/host-job-service.js";
import { hostPaths, prepareHostDir } from "../../tools/jobs/host/host-paths.js";
import { JobHostServer } from "../../tools/jobs/host/host-server.js";
import { pitwallVersion } from "../../tools/pitwall-version.js";
import { tempDir } from "./helpers.js";
import type { JobSettings } from "../../tools/jobs/settings.js";

export type Where = "local" | "host";

export interface TestJobs {
  jobs: JobService;
  /** The registry behind the jobs (in this process either way). */
  registry: JobRegistry;
  cwd: string;
  /** Another client of the same job host (host only): closed with the rest. */
  another?(kind: HostClientKind): HostJobService;
  close(): Promise<void>;
}

export async function makeJobs(where: Where, settings: Partial<JobSettings> = {}, env: NodeJS.ProcessEnv = process.env): Promise<TestJobs> {
  const cwd = tempDir();
  if (where === "local") {
    const jobs = new LocalJobService({ cwd, env, settings });
    return { jobs, registry: jobs.registry, cwd, close: () => jobs.shutdown() };
  }
  const home = tempDir();
  const paths = hostPaths(home, cwd);
  prepareHostDir(paths);
  const registry = new JobRegistry({ cwd, env, settings });
  const server = new JobHostServer({ cwd, socketPath: paths.socket, registry, version: pitwallVersion(), keepJobsMs: 60_000, onIdle: () => undefined });
  await server.listen();
  const client = (kind: HostClientKind) => new HostJobService({ cwd, env, settings, marker: undefined, secrets: [] }, { home, kind, keepJobsMs: 60_000 });
  const jobs = client("json");
  const others: HostJobService[] = [];
  return {
    jobs,
    registry,
    cwd,
    another: (kind) => {
      const other = client(kind);
      others.push(other);
      return other;
    },
    close: async () => {
      await Promise.all(others.map((other) => other.shutdown()));
      await jobs.shutdown();
      await server.close();
      await registry.shutdown();
    },
  };
}
