// What a person reads when a remote cannot be used: an unreachable host, a refused key, an unknown
// host key, no Node.js there, a full disk there. Each is one sentence saying what happened and what
// to do; nothing is left half done (a failed install leaves no build folder behind).
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Jobs from "../../tools/jobs/index.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";
import { freePort, startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { mountSmallFilesystem } from "../helpers/small-filesystem.js";
import { tempDir } from "../helpers/temp-dir.js";

let jobs: typeof Jobs;
let sshd: TestSshd;

beforeAll(async () => {
  assertBuilt();
  jobs = (await import(join(REPO_ROOT, "dist", "tools", "jobs", "index.js"))) as typeof Jobs;
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

async function bashOn(sshCommand: string, spec: string): Promise<string> {
  const service = new jobs.RemoteJobService(
    { cwd: tempDir("local-cwd"), env: {}, settings: {}, marker: undefined, secrets: [] },
    { home: tempDir("local-home"), kind: "print", keepJobsMs: 1000, sshCommand, target: jobs.parseRemote(spec) },
  );
  try {
    const result = await service.runTool({
      tool: "bash",
      toolCallId: "c",
      params: { command: "echo reached" },
      signal: new AbortController().signal,
      onUpdate: () => undefined,
      context: { yieldSignal: new AbortController().signal },
    });
    return `ran: ${result.content}`;
  } catch (error) {
    return (error as Error).message;
  } finally {
    await service.shutdown().catch(() => undefined);
  }
}

describe("a remote that cannot be used says why", () => {
  it("an unreachable host", async () => {
    const port = await freePort();
    const config = sshd.clientConfig("closed-port", [`  Port ${port}`]);
    expect(await bashOn(`ssh -F ${config}`, `box:${sshd.remoteProject}`)).toMatch(/^ssh could not reach box \(.*Connection refused.*\)\. Check the host name and port/);
  });

  it("a key the remote does not accept", async () => {
    const config = sshd.clientConfig("wrong-key", [`  IdentityFile ${join(sshd.root, "server", "host_key")}`]);
    expect(await bashOn(`ssh -F ${config}`, `box:${sshd.remoteProject}`)).toMatch(/^ssh could not log in to box \(.*Permission denied.*\)\. pitwall runs ssh without prompts/);
  });

  it("a host key that is not known: refused, never accepted on its own", async () => {
    const config = sshd.clientConfig("unknown-key", ["  UserKnownHostsFile /dev/null"]);
    expect(await bashOn(`ssh -F ${config}`, `box:${sshd.remoteProject}`)).toMatch(/^ssh could not verify box's host key \(.*\)\. .*pitwall never turns host key checking off\.$/);
  });

  it("a folder that is not there", async () => {
    expect(await bashOn(sshd.sshCommand, `box:${sshd.remoteProject}/missing`)).toBe(`${sshd.remoteProject}/missing is not a folder on box: create it there, or give the folder that holds your code.`);
  });

  it("no Node.js on the remote", async () => {
    const bare = await startTestSshd({ remoteEnv: { PATH: "/nonexistent" } });
    try {
      expect(await bashOn(bare.sshCommand, `box:${bare.remoteProject}`)).toMatch(/^box has no `node`: pitwall needs Node\.js 20 or newer there/);
    } finally {
      await bare.stop();
    }
  });

  it("a full disk on the remote: the install fails saying so, and leaves nothing half installed", async (context) => {
    const small = mountSmallFilesystem(256);
    if ("reason" in small) return context.skip(small.reason);
    const full = await startTestSshd({ remoteEnv: { PITWALL_HOME: small.path } });
    try {
      expect(await bashOn(full.sshCommand, `box:${full.remoteProject}`)).toMatch(/^Could not install pitwall on box under ~\/\.pitwall\/remote\/[^/]+\/ \(.*No space left on device.*\)\. The remote's disk is full/);
      const installed = existsSync(join(small.path, "remote")) ? readdirSync(join(small.path, "remote")) : [];
      expect(installed).toEqual([]);
    } finally {
      await full.stop();
      small.unmount();
    }
  });
});
