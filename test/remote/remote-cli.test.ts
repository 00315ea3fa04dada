// `pitwall --remote` through the real CLI: the model's tools act on the remote's folder, the session
// file records the remote and -c and --session return to it, no key crosses to the remote, and
// `pitwall jobs --remote` lists, tails and stops the remote's jobs.
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as Jobs from "../../tools/jobs/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { assertBuilt, cliEnv, REPO_ROOT, runCli } from "../helpers/cli-process.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { tempDir } from "../helpers/temp-dir.js";

const llm = useFakeLlm();
const KEY = "sk-test-remote-0123456789";
let sshd: TestSshd;

beforeAll(async () => {
  assertBuilt();
  sshd = await startTestSshd();
});
afterAll(async () => {
  await sshd?.stop();
});

function sessionFiles(home: string): string[] {
  const root = join(home, ".pitwall", "sessions");
  return readdirSync(root).flatMap((folder) => readdirSync(join(root, folder)).filter((f) => f.endsWith(".jsonl")).map((f) => join(root, folder, f)));
}

describe("pitwall --remote", () => {
  it("runs the model's tools on the remote, records the remote, and -c and --session go back there", async () => {
    const spec = `box:${sshd.remoteProject}`;
    writeFileSync(join(sshd.remoteProject, "notes.txt"), "remote word: harbour\n");
    const local = tempDir("local-project");
    writeFileSync(join(local, "notes.txt"), "local word: meadow\n");
    const home = tempDir("home");
    const env = cliEnv({ apiKey: KEY, anthropicBaseUrl: llm.anthropicBaseUrl, home, extra: { PITWALL_SSH_COMMAND: sshd.sshCommand } });
    llm.enqueue(
      { kind: "reply", text: "Reading.", toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }, { name: "bash", arguments: { command: "pwd; echo key=${ANTHROPIC_API_KEY:-none}" } }] },
      (request) => ({ kind: "reply", text: request.transcript.includes("harbour") && request.transcript.includes(sshd.remoteProject) ? "It is harbour." : "Wrong place." }),
    );
    const first = await runCli(["-p", "what is the word?", "--remote", spec], env, { cwd: local });
    expect(first.stdout).toContain("It is harbour.");
    expect(first.stdout).not.toContain("Wrong place.");
    expect(first.code).toBe(0);
    // The model is told where it works, and given the file tools that run there.
    expect(JSON.stringify(llm.requests[0]!.json.system)).toContain(sshd.remoteProject);
    expect(llm.requests[1]!.transcript).toContain("key=none");
    // The session file records the remote as where it ran.
    const [file] = sessionFiles(home);
    const header = JSON.parse(readFileSync(file!, "utf8").split("\n")[0]!) as { cwd: string };
    expect(header.cwd).toBe(spec);

    // -c with the remote continues that session; --session alone goes back to the remote too.
    llm.enqueue((request) => ({ kind: "reply", text: request.transcript.includes("It is harbour.") ? "Still harbour." : "No memory." }));
    const again = await runCli(["-p", "and again?", "-c", "--remote", spec], env, { cwd: local });
    expect(again.stdout).toContain("Still harbour.");
    llm.enqueue({ kind: "reply", text: "Where?", toolCalls: [{ name: "bash", arguments: { command: "pwd" } }] }, (request) => ({
      kind: "reply",
      text: request.transcript.includes(sshd.remoteProject) ? "Back on the remote." : "Local.",
    }));
    const resumed = await runCli(["-p", "where are you?", "--session", file!], env, { cwd: local });
    expect(resumed.stdout).toContain("Back on the remote.");
    // --resume lists the remote's sessions, not this folder's.
    const listed = await runCli(["-p", "--resume", "--remote", spec], env, { cwd: local });
    expect(listed.stdout).toContain("what is the word?");
    expect((await runCli(["-p", "--resume"], env, { cwd: local })).stdout).not.toContain("what is the word?");
    // The key never reached the remote: not in its files, not in its host's log.
    const grep = spawnSync("grep", ["-rl", KEY, sshd.remoteHome, sshd.remoteProject], { encoding: "utf8" });
    expect(grep.stdout).toBe("");
    expect(grep.status).toBe(1);
  });

  it("pitwall jobs --remote lists, tails and stops the remote's jobs", async () => {
    const jobs = (await import(join(REPO_ROOT, "dist", "tools", "jobs", "index.js"))) as typeof Jobs;
    const project = join(sshd.remoteProject, "jobs-project");
    execFileSync("mkdir", ["-p", project]);
    const spec = `box:${project}`;
    const service = new jobs.RemoteJobService(
      { cwd: tempDir("local-cwd"), env: {}, settings: {}, marker: undefined, secrets: [] },
      { home: tempDir("local-home"), kind: "dashboard", keepJobsMs: 60_000, sshCommand: sshd.sshCommand, target: jobs.parseRemote(spec) },
    );
    const job = await service.start("echo serving-on-remote; sleep 60");
    await service.detach();
    const env = cliEnv({ extra: { PITWALL_SSH_COMMAND: sshd.sshCommand } });
    const list = await runCli(["jobs", "--remote", spec], env);
    expect(list.stdout).toMatch(new RegExp(`^${job.id}\\s+running .*serving-on-remote`, "m"));
    const tail = await runCli(["jobs", "--remote", spec, "tail", job.id], env);
    expect(tail.stdout).toContain("serving-on-remote");
    const stop = await runCli(["jobs", "--remote", spec, "stop", "all"], env);
    expect(stop.stdout).toMatch(new RegExp(`job ${job.id}: killed`));
    expect(stop.code).toBe(0);
  });
});
