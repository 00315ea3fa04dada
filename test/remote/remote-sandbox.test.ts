// The sandbox in a remote session (`--remote … --sandbox workspace`): the remote's job host fences the
// model's commands and file tools under the person's rules made that machine's own (its home's
// ~/.ssh hidden, its ~/.pitwall read-only), and what the fence stops reaches the model and the
// person as it does locally. A remote that cannot fence says so once and runs the commands;
// `--sandbox required` refuses them there. The remote is this machine under the test sshd's HOME;
// every target is a folder the test made.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecordedRequest } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { assertBuilt, cliEnv, runCli, type CliResult } from "../helpers/cli-process.js";
import { startTestSshd, type TestSshd } from "../helpers/test-sshd.js";
import { tempDir } from "../helpers/temp-dir.js";
import { FAKE_KEY, requireBubblewrap } from "../sandbox/sandbox-fixture.js";

const llm = useFakeLlm();
let sshd: TestSshd;
/** A remote whose bubblewrap is a program that is not there (PITWALL_BWRAP in its ssh login's environment). */
let bare: TestSshd;

beforeAll(async () => {
  assertBuilt();
  await requireBubblewrap();
  sshd = await startTestSshd();
  bare = await startTestSshd({ withoutBwrap: true });
});
afterAll(async () => {
  await sshd?.stop();
  await bare?.stop();
});

interface Call {
  name: string;
  arguments: Record<string, unknown>;
}

/** The first tool result after the last tool call in a request: what the model read of that call. */
function lastResult(request: RecordedRequest): string {
  const transcript = request.transcript;
  const result = transcript.indexOf("(tool_result)", transcript.lastIndexOf("(tool_use "));
  return result < 0 ? "" : transcript.slice(result);
}

/** `pitwall -p` on the remote, one tool call a turn; returns what the model read of each call, in order. */
async function remoteRun(remote: TestSshd, folder: string, calls: Call[], extraArgs: string[] = []): Promise<{ results: string[]; cli: CliResult }> {
  const results: string[] = [];
  const steps = calls.map((call, index) => (request: RecordedRequest) => {
    if (index > 0) results.push(lastResult(request));
    return { kind: "reply" as const, text: `Step ${index + 1}.`, toolCalls: [call] };
  });
  llm.enqueue(...steps, (request: RecordedRequest) => {
    results.push(lastResult(request));
    return { kind: "reply" as const, text: "Done." };
  });
  const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { PITWALL_SSH_COMMAND: remote.sshCommand } });
  const cli = await runCli(["-p", "do it", "--remote", `box:${folder}`, ...extraArgs], env, { cwd: tempDir("local") });
  expect(cli.code, cli.stderr).toBe(0);
  expect(results).toHaveLength(calls.length);
  return { results, cli };
}

const bash = (command: string): Call => ({ name: "bash", arguments: { command } });

function occurrences(text: string, piece: string): number {
  return text.split(piece).length - 1;
}

describe("--remote with --sandbox workspace", () => {
  it("fences the remote's commands and file tools against the remote's home; the same work inside the folder succeeds", async () => {
    const home = sshd.remoteHome;
    const project = join(sshd.remoteProject, "fenced");
    mkdirSync(project, { recursive: true });
    mkdirSync(join(home, ".ssh"), { recursive: true });
    writeFileSync(join(home, ".ssh", "id_rsa"), `${FAKE_KEY}\n`);
    const { results, cli } = await remoteRun(
      sshd,
      project,
      [
        bash(`echo escaped > ${home}/escaped.txt`),
        bash("cat ~/.ssh/id_rsa"),
        { name: "read", arguments: { file_path: join(home, ".ssh", "id_rsa") } },
        { name: "write", arguments: { file_path: join(home, "written.txt"), content: "out\n" } },
        bash("echo kept > inside.txt && cat inside.txt && echo profile=$PITWALL_SANDBOX"),
        { name: "write", arguments: { file_path: "written-inside.txt", content: "in\n" } },
        { name: "bash_stream", arguments: { command: `echo job > ${home}/job.txt; echo finished`, yieldMs: 20_000 } },
      ],
      ["--sandbox", "workspace"],
    );
    const [escape, catKey, readKey, writeOut, inside, writeIn, job] = results as [string, string, string, string, string, string, string];

    // A write outside the remote folder fails as the fence's, and the model reads that it was.
    expect(escape).toContain("Read-only file system");
    expect(escape).toContain(`[sandbox] The sandbox (profile workspace) stopped writing ${home}/escaped.txt (outside the writable roots)`);
    expect(existsSync(join(home, "escaped.txt"))).toBe(false);
    // The remote's own ~/.ssh is hidden, to bash and to read.
    expect(catKey).not.toContain(FAKE_KEY);
    expect(catKey).toContain(`stopped reaching ${home}/.ssh/id_rsa (hidden: secrets`);
    expect(readKey).not.toContain(FAKE_KEY);
    expect(readKey).toContain("the sandbox (profile workspace) hides it");
    // write outside the roots is refused, naming the profile.
    expect(writeOut).toContain(`Cannot write ${home}/written.txt: the sandbox (profile workspace) keeps it read-only (outside the writable roots)`);
    expect(existsSync(join(home, "written.txt"))).toBe(false);
    // Inside the folder the same work succeeds, fenced.
    expect(inside).toContain("kept\nprofile=workspace");
    expect(inside).not.toContain("[sandbox]");
    expect(readFileSync(join(project, "inside.txt"), "utf8")).toBe("kept\n");
    expect(writeIn).not.toContain("sandbox");
    expect(readFileSync(join(project, "written-inside.txt"), "utf8")).toBe("in\n");
    // A job there the fence stopped: the model reads it with the job's result.
    expect(job).toContain(`stopped writing ${home}/job.txt (outside the writable roots)`);
    expect(existsSync(join(home, "job.txt"))).toBe(false);

    // The person hears of each thing the fence stopped once, as locally; nothing ran unfenced.
    expect(occurrences(cli.stderr, `pitwall: The sandbox (workspace) stopped the agent's bash call: writing ${home}/escaped.txt (outside the writable roots)`)).toBe(1);
    expect(cli.stderr).toContain(`stopped the agent's write call`);
    expect(cli.stderr.match(new RegExp(`pitwall: The sandbox \\(workspace\\) stopped job 1 \\(echo job > .*\\): writing ${home}/job\\.txt \\(outside the writable roots\\)`, "g")), cli.stderr).toHaveLength(1);
    expect(cli.stderr).not.toContain("unfenced");
  });

  it("keeps the remote's ~/.pitwall read-only and its job hosts' sockets hidden, even with the remote's home as the folder", async () => {
    const home = sshd.remoteHome;
    const { results } = await remoteRun(
      sshd,
      home,
      [bash("echo evil > .pitwall/evil.txt"), bash("ls -A .pitwall/hosts | wc -l"), bash("echo fine > home-note.txt && cat home-note.txt")],
      ["--sandbox", "workspace"],
    );
    const [protectedWrite, hosts, inside] = results as [string, string, string];
    expect(protectedWrite).toContain(`[sandbox] The sandbox (profile workspace) stopped writing ${home}/.pitwall/evil.txt (pitwall's own files`);
    expect(existsSync(join(home, ".pitwall", "evil.txt"))).toBe(false);
    // The host of this very session is there, outside; inside the folder is empty.
    expect(hosts).toMatch(/^\(tool_result\) 0\b/);
    expect(inside).toContain("fine");
    expect(readFileSync(join(home, "home-note.txt"), "utf8")).toBe("fine\n");
  });
});

describe("a remote that cannot fence", () => {
  it("says once that the remote's commands run unfenced and how to fix it there, and runs them", async () => {
    const project = join(bare.remoteProject, "unfenced");
    mkdirSync(project, { recursive: true });
    const outside = tempDir("remote-outside");
    const { results, cli } = await remoteRun(bare, project, [bash(`echo one > ${outside}/unfenced.txt`), bash(`echo two >> ${outside}/unfenced.txt`)], ["--sandbox", "workspace"]);
    for (const result of results) expect(result).not.toContain("[sandbox]");
    expect(readFileSync(join(outside, "unfenced.txt"), "utf8")).toBe("one\ntwo\n");
    expect(occurrences(cli.stderr, "pitwall: Commands on box run unfenced, with the ssh login's permissions there: the bubblewrap program")).toBe(1);
    expect(cli.stderr).toContain("To fence them, on box: install bubblewrap (Debian and Ubuntu: apt install bubblewrap");
  });

  it("refuses the remote's commands under --sandbox required", async () => {
    const project = join(bare.remoteProject, "required");
    mkdirSync(project, { recursive: true });
    const { results } = await remoteRun(bare, project, [bash("echo ran > ran.txt")], ["--sandbox", "required"]);
    expect(results[0]).toContain("Not run: the sandbox is required (--sandbox required)");
    expect(results[0]).toContain("install bubblewrap");
    // The machine without bubblewrap is named as the status bar names it, not "here" (this machine has it).
    expect(results[0]).toContain("cannot be made on box: the bubblewrap program");
    expect(results[0]).toContain("To fix it, on box: install bubblewrap");
    expect(results[0]).not.toContain("cannot be made here");
    expect(existsSync(join(project, "ran.txt"))).toBe(false);
  });
});
