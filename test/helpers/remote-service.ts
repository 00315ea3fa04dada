// A RemoteJobService on the test sshd's `box`, as the remote tests and the bench make it: a local
// folder and home of their own (temp-dir.ts), no environment, no secrets. `jobs` is the module it
// comes from (a test imports the built one from dist/), so the code under test is the code built.
import type * as Jobs from "../../tools/jobs/index.js";
import type { TestSshd } from "./test-sshd.js";
import { tempDir } from "./temp-dir.js";

export interface RemoteServiceOptions {
  kind?: Jobs.HostClientKind;
  /** The remote folder (the sshd's remote project by default). */
  folder?: string;
  /** The local side's sandbox (none by default). */
  sandbox?: Jobs.JobServiceInputs["sandbox"];
}

export function remoteServiceOn(jobs: Pick<typeof Jobs, "RemoteJobService" | "parseRemote">, sshd: TestSshd, options: RemoteServiceOptions = {}): Jobs.RemoteJobService {
  return new jobs.RemoteJobService(
    { cwd: tempDir("local-cwd"), env: {}, settings: {}, marker: undefined, secrets: [], ...(options.sandbox ? { sandbox: options.sandbox } : {}) },
    { home: tempDir("local-home"), kind: options.kind ?? "print", keepJobsMs: 60_000, sshCommand: sshd.sshCommand, target: jobs.parseRemote(`box:${options.folder ?? sshd.remoteProject}`) },
  );
}
