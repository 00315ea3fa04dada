// pitwall -p has no status line or chat: what the sandbox has to tell the person goes to stderr,
// once each (commands running unfenced; a path the fence stopped), while stdout keeps the answer alone.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";
import { requireBubblewrap } from "./sandbox-fixture.js";

const llm = useFakeLlm();

function occurrences(text: string, piece: string): number {
  return text.split(piece).length - 1;
}

/** Two bash calls, one after the other, then an answer. */
function twoCalls(first: string, second: string): void {
  llm.enqueue(
    { kind: "reply", text: "First.", toolCalls: [{ name: "bash", arguments: { command: first } }] },
    { kind: "reply", text: "Second.", toolCalls: [{ name: "bash", arguments: { command: second } }] },
    { kind: "reply", text: "Done." },
  );
}

describe("pitwall -p and the sandbox", () => {
  it("says once on stderr what the fence stopped at one path, and what the person can do; stdout holds the answer", async () => {
    await requireBubblewrap();
    const home = tempDir("home");
    const project = tempDir("project");
    twoCalls(`echo one > "$HOME/escaped.txt"`, `echo two > "$HOME/escaped.txt"; echo three > inside.txt`);
    const result = await runCli(["-p", "write them", "--cwd", project], cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("First.\nSecond.\nDone.\n");
    const told = `pitwall: The sandbox (workspace) stopped the agent's bash call: writing ${home}/escaped.txt (outside the writable roots). To allow it: add the folder to sandboxWritable`;
    expect(result.stderr).toContain(told);
    expect(occurrences(result.stderr, told)).toBe(1);
    expect(result.stderr).not.toContain("unfenced");
    expect(existsSync(join(home, "escaped.txt"))).toBe(false);
    expect(readFileSync(join(project, "inside.txt"), "utf8")).toBe("three\n");
  });

  it("says on stderr what the fence stopped a job doing", async () => {
    await requireBubblewrap();
    const home = tempDir("home");
    const project = tempDir("project");
    llm.enqueue(
      { kind: "reply", text: "Starting.", toolCalls: [{ name: "bash_stream", arguments: { command: `echo job > "$HOME/job.txt"; echo finished`, yieldMs: 20_000 } }] },
      { kind: "reply", text: "Done." },
    );
    const result = await runCli(["-p", "run it", "--cwd", project], cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Starting.\nDone.\n");
    expect(occurrences(result.stderr, `pitwall: The sandbox (workspace) stopped job 1 (echo job > "$HOME/job.txt"; echo finished): writing ${home}/job.txt (outside the writable roots)`)).toBe(1);
    expect(existsSync(join(home, "job.txt"))).toBe(false);
  });

  it("without bubblewrap, says once on stderr that commands run unfenced and how to fix it, and runs them", async () => {
    const home = tempDir("home");
    const project = tempDir("project");
    twoCalls(`echo one > "$HOME/unfenced.txt"`, `echo two >> "$HOME/unfenced.txt"`);
    const env = cliEnv({ home, apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl, extra: { PITWALL_BWRAP: join(home, "no-bwrap") } });
    const result = await runCli(["-p", "write it", "--cwd", project], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("First.\nSecond.\nDone.\n");
    expect(occurrences(result.stderr, "pitwall: Commands run unfenced, with your permissions")).toBe(1);
    expect(result.stderr).toContain("install bubblewrap (Debian and Ubuntu: apt install bubblewrap");
    expect(readFileSync(join(home, "unfenced.txt"), "utf8")).toBe("one\ntwo\n");
  });
});
