// The job host trusts no one but its owner, and pitwall trusts no host but its own: a host folder
// others can write to is refused and left as it is (never repaired: a socket may already be planted
// in it), and a socket another user listens on gets nothing at all, not even the hello, let alone
// a tool call carrying the environment and the keys.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hostPaths, prepareHostDir } from "../../tools/jobs/host/host-paths.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { waitFor } from "../helpers/conditions.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { tempDir } from "./helpers.js";

const llm = useFakeLlm();
const KEY = "sk-ant-trust-test-0123456789";
const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

const planted: ChildProcess[] = [];
afterEach(() => {
  for (const child of planted.splice(0)) child.kill("SIGKILL");
});

/** Runs print mode once with a bash call; returns what the model was told of it. */
async function bashResult(home: string, cwd: string): Promise<string> {
  llm.enqueue({ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "echo ran" } }] }, { kind: "reply", text: "done" });
  const env = cliEnv({ anthropicBaseUrl: llm.anthropicBaseUrl, home, extra: { ANTHROPIC_API_KEY: KEY } });
  const result = await runCli(["-p", "run it", "--no-session"], env, { cwd });
  expect(result.code, result.stderr).toBe(0);
  const transcript = llm.requests.at(-1)!.transcript;
  return transcript.slice(transcript.indexOf("(tool_result)"));
}

describe("the job host's folder and socket", () => {
  it("a folder others can write to is refused with what to do, and left as it was", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const paths = hostPaths(join(home, ".pitwall"), cwd);
    prepareHostDir(paths);
    chmodSync(paths.dir, 0o777);
    const seen = await bashResult(home, cwd);
    expect(seen).toContain(`${paths.dir} lets other users in (mode 0777)`);
    expect(seen).toContain(`rm -r ${paths.dir}`);
    expect(seen).not.toContain("ran");
    expect(statSync(paths.dir).mode & 0o777).toBe(0o777);
    expect(existsSync(paths.socket)).toBe(false);
  }, 30_000);

  it.skipIf(!isRoot)("a socket another user planted in it gets nothing, not even the hello (needs root to run a process as uid 65534)", async () => {
    const home = tempDir();
    const cwd = tempDir();
    const paths = hostPaths(join(home, ".pitwall"), cwd);
    prepareHostDir(paths);
    // Let the other user through to the folder, and into it for a moment: as if it had been open.
    for (let dir = dirname(dirname(paths.dir)); dir !== "/"; dir = dirname(dir)) if (statSync(dir).uid === 0) chmodSync(dir, statSync(dir).mode | 0o011);
    chmodSync(dirname(paths.dir), 0o711);
    chmodSync(paths.dir, 0o777);
    const listener = spawn(
      process.execPath,
      [
        "-e",
        `const net = require("net");
         net.createServer((s) => s.on("data", (d) => process.stdout.write("GOT " + d))).listen(${JSON.stringify(paths.socket)}, () => {
           require("fs").chmodSync(${JSON.stringify(paths.socket)}, 0o600);
           process.stdout.write("LISTENING\\n");
         });`,
      ],
      { uid: NOBODY, gid: NOBODY, stdio: ["ignore", "pipe", "inherit"] },
    );
    planted.push(listener);
    let heard = "";
    listener.stdout!.on("data", (chunk: Buffer) => (heard += chunk.toString()));
    await waitFor(() => heard.includes("LISTENING"), "the planted socket to listen");
    // The folders are private again: only the socket in them is not ours.
    chmodSync(paths.dir, 0o700);
    chmodSync(dirname(paths.dir), 0o700);
    expect(statSync(paths.socket).uid).toBe(NOBODY);
    const seen = await bashResult(home, cwd);
    expect(seen).toContain(`${paths.socket} belongs to user ${NOBODY}, not to you`);
    expect(seen).not.toContain("ran");
    expect(heard).not.toContain("GOT");
    expect(heard).not.toContain(KEY);
  }, 30_000);
});
