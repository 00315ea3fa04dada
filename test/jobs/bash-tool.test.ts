import { existsSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBashTool } from "../../tools/jobs/model-tools/bash-tool.js";
import { processTempFolder } from "../../tools/process/temp-folder.js";
import { signalGroup } from "../../tools/process-group.js";
import { resolveShell } from "../../tools/shell.js";
import { callTool, makeTempDir } from "../tools/harness.js";
import { waitFor } from "../helpers/conditions.js";
import { liveGroupMembers } from "../helpers/processes.js";

const groupsToReap: number[] = [];
const filesToRemove: string[] = [];

afterEach(async () => {
  for (const pgid of groupsToReap.splice(0)) signalGroup(pgid, "SIGKILL");
  for (const file of filesToRemove.splice(0)) await rm(file, { force: true });
});

async function readPgid(file: string): Promise<number> {
  await waitFor(async () => existsSync(file) && (await readFile(file, "utf8")).trim() !== "", "the pid file");
  const pgid = Number((await readFile(file, "utf8")).trim());
  groupsToReap.push(pgid);
  return pgid;
}

describe("bash", () => {
  it("gives the model the plain text a terminal would show: no colour codes, a progress bar's last frame, erased lines gone", async () => {
    const cwd = await makeTempDir();
    const command = "printf '\\033[32mgreen\\033[0m text\\n'; for i in 1 2 3; do printf '\\rprogress %d%%' $i; done; printf '\\n'; printf 'abc\\r\\033[Kdone\\n'; printf 'no newline'";
    const result = await callTool(createBashTool(cwd), { command });
    expect(result.content).toBe("green text\nprogress 3%\ndone\nno newline");
  });

  it("says exactly how many lines were left out, and that they are in the middle", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createBashTool(cwd, { maxOutputChars: 2_000 }), { command: "seq 1 200000" });
    const [shown, note] = result.content.split("\n\n[Output truncated: ");
    const marker = /\n\.\.\. \[(\d+) characters, (\d+) lines omitted\] \.\.\.\n/.exec(shown ?? "");
    expect(marker).not.toBeNull();
    const shownLines = (shown ?? "").replace(marker![0], "\n").split("\n").length;
    expect(Number(marker![2]) + shownLines).toBe(200_000);
    expect(note).toContain(`(${marker![2]} lines) omitted in the middle`);
    expect(note).not.toContain("omitted above");
    const path = (result.details as { fullOutputPath?: string } | undefined)?.fullOutputPath;
    if (path) filesToRemove.push(path);
  });

  it("runs a command in the working directory and returns its output", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createBashTool(cwd), { command: "pwd; echo hello" });
    expect(result.content).toBe(`${cwd}\nhello`);
    expect(result.isError).toBeUndefined();
    expect(result.details).toMatchObject({ command: "pwd; echo hello", exitCode: 0, truncated: false, timedOut: false, aborted: false });
    expect(result.details?.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("uses the user's $SHELL", async () => {
    const cwd = await makeTempDir();
    const tool = createBashTool(cwd, { env: { ...process.env, SHELL: "/bin/sh" } });
    expect((await callTool(tool, { command: "echo $0" })).content).toBe("/bin/sh");
  });

  it("combines stdout and stderr in the order they were written", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createBashTool(cwd), { command: "echo one; sleep 0.3; echo two >&2; sleep 0.3; echo three" });
    expect(result.content).toBe("one\ntwo\nthree");
  });

  it("a non-zero exit is an error result ending with the exit code", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createBashTool(cwd), { command: "echo oops; exit 3" });
    expect(result.isError).toBe(true);
    expect(result.content).toBe("oops\n\nCommand exited with code 3");
    expect(result.details).toMatchObject({ exitCode: 3 });
    expect(result.command).toEqual({ exitCode: 3, timedOut: false, aborted: false });
  });

  it("says when there was no output", async () => {
    const cwd = await makeTempDir();
    expect((await callTool(createBashTool(cwd), { command: "true" })).content).toBe("(no output)");
  });

  it("fails clearly when the working directory is gone", async () => {
    const cwd = join(await makeTempDir(), "removed");
    await expect(callTool(createBashTool(cwd), { command: "echo hi" })).rejects.toThrow(
      `The working directory ${cwd} does not exist`,
    );
  });

  it("bounds the full-output file of a flood (`yes`) to about 8 MB, keys redacted, in the process's temp folder", async () => {
    const cwd = await makeTempDir();
    const key = "sk-test-flood-0123456789";
    const tool = createBashTool(cwd, { secrets: [key], env: { ...process.env, FLOOD_KEY: key } });
    const result = await callTool(tool, { command: 'echo "key=$FLOOD_KEY"; yes | head -c 30000000; echo; echo "end key=$FLOOD_KEY"' });
    const path = result.details!.fullOutputPath!;
    filesToRemove.push(path);
    expect(path.startsWith(processTempFolder())).toBe(true);
    const saved = await readFile(path, "utf8");
    expect(saved.length).toBeLessThan(8.5 * 1024 * 1024);
    expect(saved.startsWith("key=[redacted]\ny\ny\n")).toBe(true);
    expect(saved.endsWith("y\n\nend key=[redacted]\n")).toBe(true);
    expect(saved).toMatch(/\[\.\.\. pitwall dropped \d+ characters/);
    expect(saved).not.toContain(key);
  });

  it("caps `seq 1 1000000` to head and tail, states the omission, and saves the full output", async () => {
    const cwd = await makeTempDir();
    const tool = createBashTool(cwd, { maxOutputChars: 30_000 });
    let streamed = 0;
    const result = await callTool(tool, { command: "seq 1 1000000" }, { onUpdate: ({ chunk }) => (streamed += chunk.length) });
    const path = result.details?.fullOutputPath;
    expect(path).toBeDefined();
    if (path === undefined) return;
    filesToRemove.push(path);
    const full = await readFile(path, "utf8");
    const expected = Array.from({ length: 1_000_000 }, (_, i) => String(i + 1)).join("\n") + "\n";
    expect(full.length).toBe(expected.length);
    expect(full === expected).toBe(true);
    expect(streamed).toBe(expected.length);

    expect(result.details).toMatchObject({ truncated: true, exitCode: 0 });
    expect(result.isError).toBeUndefined();
    const [shown, note] = result.content.split("\n\n[Output truncated: ");
    expect(shown).toBeDefined();
    expect(shown?.length).toBeLessThan(30_200);
    expect(shown?.startsWith("1\n2\n3\n")).toBe(true);
    expect(shown?.endsWith("999999\n1000000")).toBe(true);
    expect(shown).toMatch(/\n\.\.\. \[\d+ characters, \d+ lines omitted\] \.\.\.\n/);
    const headLines = (shown ?? "").split("\n... [")[0]?.split("\n") ?? [];
    const lastHead = Number(headLines.at(-1));
    expect(note).toContain(`Full output: ${path}.`);
    expect(note).toContain(`read(file_path=${JSON.stringify(path)}, offset=${lastHead + 1})`);
    const omitted = Number(/(\d+) characters, \d+ lines omitted/.exec(shown ?? "")?.[1]);
    expect(note).toContain(`${expected.length} chars in all, ${omitted} chars`);
  });

  it("streams output that has no newline as it arrives", async () => {
    const cwd = await makeTempDir();
    const chunks: string[] = [];
    let settled = false;
    const pending = callTool(
      createBashTool(cwd),
      { command: "printf start; while [ ! -f gate ]; do sleep 0.05; done; printf end" },
      { onUpdate: ({ chunk }) => chunks.push(chunk) },
    ).finally(() => (settled = true));
    await waitFor(() => chunks.join("").includes("start"), "the first chunk");
    expect(settled).toBe(false);
    await writeFile(join(cwd, "gate"), "");
    const result = await pending;
    expect(chunks.join("")).toBe("startend");
    expect(result.content).toBe("startend");
  }, 20_000);

  it("decodes multi-byte characters split across chunks", async () => {
    const cwd = await makeTempDir();
    const result = await callTool(createBashTool(cwd, { maxOutputChars: 150_000 }), {
      command: "i=0; while [ $i -lt 400 ]; do printf 'é€😀%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; i=$((i+1)); done",
    });
    expect(result.content).toBe("é€😀".repeat(8000));
  }, 20_000);

  it("returns when the shell exits, even though `sleep 100 &` still holds the output pipe", async () => {
    const cwd = await makeTempDir();
    // Waiting for the pipe to close would take 100 s, far past the test's time.
    const result = await callTool(createBashTool(cwd), { command: "echo $$ > pgid; sleep 100 & echo started" });
    expect(result.content).toBe("started");
    const pgid = await readPgid(join(cwd, "pgid"));
    // The background job is left running, as a shell would leave it; the test reaps it.
    expect(liveGroupMembers(pgid).some((row) => row.args.startsWith("sleep 100"))).toBe(true);
  }, 20_000);

  it("a timeout kills the whole process group, even a child that ignores TERM", async () => {
    const cwd = await makeTempDir();
    const tool = createBashTool(cwd, { killGraceMs: 500 });
    const command = "echo $$ > pgid; (trap '' TERM; sleep 101) & sleep 102; echo never";
    const pending = callTool(tool, { command, timeout: 1 });
    const pgid = await readPgid(join(cwd, "pgid"));
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ timedOut: true, aborted: false, exitCode: null });
    expect(result.content).toContain("Command timed out after 1 s and was killed with its whole process group.");
    expect(result.content).toContain("raise timeout");
    expect(result.content).toContain("bash_stream");
    expect(liveGroupMembers(pgid)).toEqual([]);
  }, 20_000);

  it("an abort kills the whole process group and keeps the output so far", async () => {
    const cwd = await makeTempDir();
    const controller = new AbortController();
    const tool = createBashTool(cwd, { killGraceMs: 500 });
    const pending = callTool(tool, { command: "echo $$ > pgid; echo working; sleep 103 & sleep 104" }, { signal: controller.signal });
    const pgid = await readPgid(join(cwd, "pgid"));
    await waitFor(() => liveGroupMembers(pgid).some((row) => row.args.startsWith("sleep 104")), "the sleeps to start");
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.details).toMatchObject({ aborted: true, timedOut: false });
    expect(result.content).toMatch(/^working\n\nCommand aborted after \d+\.\d s; its whole process group was killed\.$/);
    expect(liveGroupMembers(pgid)).toEqual([]);
  }, 20_000);
});

describe("the shell bash runs", () => {
  it("is $SHELL when that is an executable absolute path, else bash from PATH, else sh", () => {
    expect(resolveShell({ SHELL: "/bin/sh", PATH: "/usr/bin:/bin" })).toBe("/bin/sh");
    expect(resolveShell({ SHELL: "zsh-not-absolute", PATH: "/usr/bin:/bin" })).toMatch(/\/bash$/);
    expect(resolveShell({ PATH: "/usr/bin:/bin" })).toMatch(/\/bash$/);
    expect(resolveShell({ SHELL: "/nonexistent/shell", PATH: "" })).toMatch(/^\/bin\/(ba)?sh$/);
  });
});
