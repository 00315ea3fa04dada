// End to end: several agents in one dashboard. `/agent new tests` starts a second agent with its own
// conversation (its first request carries nothing of the first agent's) and its own session file;
// the status bar names the agent in the chat; Alt+, and Alt+. switch the chat between them, each
// showing only its own conversation. The overview (Alt+A) lists every agent with its state, cost,
// context and last line; from it the person steers an agent that is not in the chat and stops one;
// an agent that finishes unseen is counted in the status bar as waiting for the person. Agents share
// the folder's jobs: one owns the dev server, the other reads its log and lists it with its owner,
// is refused when it tries to stop it, and is woken by the watch trigger it set on it. `pitwall -c`
// brings back every agent of the last dashboard, each with its own conversation. Two agents editing
// one file: the second, which read it before the first changed it, is refused and reads it again;
// nothing of either edit is lost. `/agent new <name> --worktree` makes a git worktree on a new branch
// where the agent works; closing the agent offers to remove it, and asks before losing changes. An
// agent may get a sandbox profile of its own (`--sandbox strict`): its commands run under it, the
// other agents' under the dashboard's.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, sessionFiles, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

function send(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("several agents in one dashboard", () => {
  test("/agent new starts an agent with its own conversation and session file; keys switch the chat between them", async () => {
    const { t, llm } = await startDashboard({ cols: 150, rows: 40, replies: [{ kind: "reply", text: "Main here, fixing the parser." }, { kind: "reply", text: "Tests agent here, writing tests." }] });
    send(t, "fix the parser");
    await t.waitForText("Main here, fixing the parser.");

    send(t, "/agent new tests");
    await t.waitForText("Agent tests started: its own conversation, queue and session file");
    let screen = await t.waitForText("agent tests");
    expect(screen).not.toContain("Main here, fixing the parser.");

    send(t, "write the tests");
    const second = await llm.waitForRequest(2, 20_000);
    expect(second.transcript).toContain("write the tests");
    expect(second.transcript).not.toContain("fix the parser");
    await t.waitForText("Tests agent here, writing tests.");

    // Back to the first agent: its conversation, not the other's.
    t.press("Alt+,");
    screen = await t.waitForText("Agent main is in the chat");
    expect(screen).toContain("Main here, fixing the parser.");
    expect(screen).not.toContain("Tests agent here, writing tests.");
    expect(screen).toContain("agent main");
    t.press("Alt+.");
    screen = await t.waitForText("Agent tests is in the chat");
    expect(screen).toContain("Tests agent here, writing tests.");
    expect(screen).not.toContain("Main here, fixing the parser.");

    // Two session files, one conversation each.
    const files = sessionFiles(t.home);
    const main = files.find((file) => file.text.includes("fix the parser"));
    const tests = files.find((file) => file.text.includes("write the tests"));
    expect(main && tests && main.path !== tests.path).toBe(true);
    expect(main!.text).not.toContain("write the tests");
    expect(tests!.text).not.toContain("fix the parser");
  }, 60_000);

  test("the overview steers an agent that is not in the chat, counts the one waiting, and stops another", async () => {
    // The suite runs until the test has steered it (the flag file), however slow the machine.
    const cwd = tempFolder("cwd");
    writeFileSync(join(cwd, "suite.sh"), "until [ -e steered ]; do sleep 0.05; done; echo suite done\n");
    const { t, llm } = await startDashboard({
      cwd,
      cols: 160,
      rows: 44,
      // The steer's grace (1 s) lets the suite finish once steered; a loaded machine may take longer
      // than that to run the flag's loop, and the suite would become a job instead.
      env: { PITWALL_STEER_GRACE_MS: "30000" },
      replies: [
        { kind: "reply", text: "Main is ready." },
        { kind: "reply", text: "Running the suite.", toolCalls: [{ name: "bash", arguments: { command: "sh suite.sh" } }] },
        { kind: "reply", text: "Suite passed; the linter too." },
        { kind: "reply", text: "Thinking about it for a long while", delayMs: 200, holdOpen: true },
      ],
    });
    send(t, "hello");
    await t.waitForText("Main is ready.");
    send(t, "/agent new tests");
    await t.waitForText("Agent tests started");
    send(t, "run the suite");
    await llm.waitForRequest(2, 20_000);
    await t.waitForText("Running the suite.");

    // Back to main while tests works; the overview shows both.
    t.press("Alt+,");
    await t.waitForText("Agent main is in the chat");
    t.press("Alt+A");
    let screen = await t.waitForText(/agents \(2\)/);
    expect(screen).toMatch(/● main +idle · \$[\d.]+ · ctx \d+% · 0 files changed · Main is ready\./);
    expect(screen).toMatch(/tests +working · \$[\d.]+ · ctx \d+% · 0 files changed · ⏵ bash sh suite\.sh/);

    // A steer for tests, without switching to it.
    t.press("Down");
    t.type("s");
    await t.waitForText("steer agent tests");
    t.type("also run the linter");
    t.press("Enter");
    await t.waitForText("steer queued for agent tests");
    writeFileSync(join(cwd, "steered"), "");
    const steered = await llm.waitForRequest(3, 20_000);
    expect(steered.transcript).toContain("also run the linter");
    expect(steered.transcript).toContain("suite done");
    // It finished while main was in the chat: it waits for the person, and the status bar says so.
    screen = await t.waitForText(/tests +waiting for you · .* · Suite passed; the linter too\./);
    expect(screen).toContain("⚑ 1 waiting for you: tests");
    t.press("Escape");
    screen = await t.waitForNoText(/agents \(2\)/);
    expect(screen).toContain("Main is ready.");
    expect(screen).not.toContain("Suite passed");

    // main works; the overview stops it.
    send(t, "think hard");
    await t.waitForText("Thinking about it");
    t.press("Alt+A");
    await t.waitForText(/● main +working/);
    t.type("x");
    await t.waitForText(/● main +idle: stopped/);
    // Switching to tests: it is seen, nobody waits any more.
    t.press("Down");
    t.press("Enter");
    screen = await t.waitForText("Agent tests is in the chat");
    expect(screen).not.toContain("waiting for you");
    expect(screen).toContain("Suite passed; the linter too.");
  }, 90_000);

  test("two agents share a dev server: the other reads it, is refused a kill, and its trigger wakes it", async () => {
    const { t, llm, cwd } = await startDashboard({
      cols: 170,
      rows: 44,
      replies: [
        { kind: "reply", text: "Starting the server.", toolCalls: [{ name: "bash_stream", arguments: { command: "sh server.sh", readyPattern: "listening on", yieldMs: 20_000 } }] },
        { kind: "reply", text: "The server is up." },
        {
          kind: "reply",
          text: "Looking at the server.",
          toolCalls: [
            { name: "list_processes", arguments: {} },
            { name: "get_process_log", arguments: { jobId: "1" } },
            { name: "kill_process", arguments: { jobId: "1" } },
            { name: "watch_process", arguments: { jobId: "1", add: [{ pattern: "ERROR", action: "wake" }] } },
          ],
        },
        { kind: "reply", text: "I may not stop it; watching it instead." },
        { kind: "reply", text: "Tests agent saw the error." },
      ],
    });
    writeFileSync(join(cwd, "server.sh"), 'echo "listening on 3000"\nwhile true; do\n  if [ -f boom ]; then rm boom; echo "ERROR boom in /api"; fi\n  sleep 0.05\ndone\n');
    send(t, "start the dev server");
    await t.waitForText("The server is up.");

    send(t, "/agent new tests");
    await t.waitForText("Agent tests started");
    // The jobs pane says who started the job.
    await t.waitForText(/1 @main sh server\.sh/);
    send(t, "check the server");
    const looked = await llm.waitForRequest(4, 20_000);
    expect(looked.transcript).not.toContain("start the dev server");
    expect(looked.transcript).toMatch(/job 1: running, .*started by agent main \(read it, do not stop it\).*sh server\.sh/);
    expect(looked.transcript).toContain("listening on 3000");
    expect(looked.transcript).toContain("Refused: job 1 belongs to agent main, not to you; only its owner or the person may stop it.");
    await t.waitForText("I may not stop it; watching it instead.");
    await t.waitForText(/1 @main sh server\.sh +⚑ up/);

    // The trigger tests set wakes tests, not main (which owns the job).
    writeFileSync(join(cwd, "boom"), "");
    const woken = await llm.waitForRequest(5, 20_000);
    expect(woken.transcript).toContain("check the server");
    expect(woken.transcript).not.toContain("start the dev server");
    expect(woken.transcript).toContain("ERROR boom in /api");
    await t.waitForText("Tests agent saw the error.");
    expect(llm.requests).toHaveLength(5);
  }, 90_000);

  test("pitwall -c brings back both agents of the last dashboard, each with its conversation", async () => {
    const home = tempFolder("home");
    const cwd = tempFolder("cwd");
    const first = await startDashboard({ home, cwd, cols: 150, rows: 40, replies: [{ kind: "reply", text: "Main remembers the parser." }, { kind: "reply", text: "Tests remembers the fixtures." }] });
    send(first.t, "about the parser");
    await first.t.waitForText("Main remembers the parser.");
    send(first.t, "/agent new tests");
    await first.t.waitForText("Agent tests started");
    send(first.t, "about the fixtures");
    await first.t.waitForText("Tests remembers the fixtures.");
    first.t.press("Ctrl+D");
    expect(await first.t.waitForExit()).toBe(0);
    await first.done();

    const again = await startDashboard({ home, cwd, cols: 150, rows: 40, args: ["-c"], replies: [{ kind: "reply", text: "Main goes on." }, { kind: "reply", text: "Tests goes on." }] });
    let screen = await again.t.waitForText("Brought back agent tests (");
    expect(screen).not.toContain("never written");
    expect(screen).toContain("Main remembers the parser.");
    expect(screen).not.toContain("Tests remembers the fixtures.");
    send(again.t, "and now?");
    const mainRequest = await again.llm.waitForRequest(1, 20_000);
    expect(mainRequest.transcript).toContain("about the parser");
    expect(mainRequest.transcript).not.toContain("about the fixtures");
    await again.t.waitForText("Main goes on.");
    again.t.press("Alt+.");
    screen = await again.t.waitForText("Agent tests is in the chat");
    expect(screen).toContain("Tests remembers the fixtures.");
    send(again.t, "and you?");
    const testsRequest = await again.llm.waitForRequest(2, 20_000);
    expect(testsRequest.transcript).toContain("about the fixtures");
    expect(testsRequest.transcript).not.toContain("about the parser");
  }, 90_000);

  test("two agents edit one file: the one that read it before the other's change is refused, reads again, and both edits stay", async () => {
    const { t, llm, cwd } = await startDashboard({
      cols: 150,
      rows: 40,
      replies: [
        { kind: "reply", text: "Reading notes.", toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }] },
        { kind: "reply", text: "Main read the notes." },
        { kind: "reply", text: "Tests edits alpha.", toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }, { name: "edit", arguments: { file_path: "notes.txt", old_string: "alpha", new_string: "ALPHA" } }] },
        { kind: "reply", text: "Tests edited alpha." },
        { kind: "reply", text: "Main edits beta.", toolCalls: [{ name: "edit", arguments: { file_path: "notes.txt", old_string: "beta", new_string: "BETA" } }] },
        { kind: "reply", text: "Reading again.", toolCalls: [{ name: "read", arguments: { file_path: "notes.txt" } }, { name: "edit", arguments: { file_path: "notes.txt", old_string: "beta", new_string: "BETA" } }] },
        { kind: "reply", text: "Main edited beta." },
      ],
    });
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
    send(t, "read the notes");
    await t.waitForText("Main read the notes.");
    send(t, "/agent new tests");
    await t.waitForText("Agent tests started");
    send(t, "capitalise alpha");
    await t.waitForText("Tests edited alpha.");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("ALPHA\nbeta\n");

    t.press("Alt+,");
    await t.waitForText("Agent main is in the chat");
    send(t, "capitalise beta");
    const refused = await llm.waitForRequest(6, 20_000);
    expect(refused.transcript).toContain("Refused: notes.txt was changed by agent tests after you last read it");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("ALPHA\nbeta\n");
    await t.waitForText("Main edited beta.");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("ALPHA\nBETA\n");
  }, 90_000);

  test("an agent in its own git worktree: made on a new branch, its files there, removed (after asking) when it closes", async () => {
    const folder = tempFolder("worktrees");
    const repo = join(folder, "app");
    mkdirSync(repo);
    const git = (...args: string[]): string => execFileSync("git", ["-c", "user.email=t@example.com", "-c", "user.name=t", ...args], { cwd: repo, encoding: "utf8" });
    git("init", "-q");
    writeFileSync(join(repo, "README.md"), "app\n");
    git("add", "README.md");
    git("commit", "-qm", "first");
    const { t } = await startDashboard({
      cwd: repo,
      cols: 170,
      rows: 44,
      replies: [{ kind: "reply", text: "Writing it.", toolCalls: [{ name: "write", arguments: { file_path: "fix.txt", content: "fixed\n" } }] }, { kind: "reply", text: "Wrote fix.txt." }],
    });
    const worktree = join(folder, "app.pitwall-fix");
    send(t, "/agent new fix --worktree");
    await t.waitForText("Agent fix started");
    await t.waitForText("on the branch pitwall/fix");
    expect(existsSync(join(worktree, "README.md"))).toBe(true);
    expect(git("branch", "--list", "pitwall/fix")).toContain("pitwall/fix");

    send(t, "write the fix");
    await t.waitForText("Wrote fix.txt.");
    expect(readFileSync(join(worktree, "fix.txt"), "utf8")).toBe("fixed\n");
    expect(existsSync(join(repo, "fix.txt"))).toBe(false);
    t.press("Alt+A");
    let screen = await t.waitForText(/● fix +\(worktree pitwall\/fix\) +idle/);
    expect(screen).toContain("1 file changed");
    t.press("Escape");

    // Closing it: the worktree has an uncommitted file, so keeping it comes first; removing is asked.
    send(t, "/agent close fix");
    screen = await t.waitForText("remove the agent's worktree?");
    expect(screen).toContain("has uncommitted changes:");
    expect(screen).toContain("?? fix.txt");
    expect(screen).toMatch(/▶ Keep the worktree/);
    t.press("Down");
    t.press("Enter");
    await t.waitForText("Removed the worktree");
    expect(existsSync(worktree)).toBe(false);
    expect(git("branch", "--list", "pitwall/fix")).toContain("pitwall/fix");
    expect(git("worktree", "list")).not.toContain("app.pitwall-fix");
  }, 90_000);

  test("an agent started with --sandbox strict runs its commands under it; the first agent's stay under the dashboard's", async () => {
    const { t, llm } = await startDashboard({
      cols: 170,
      rows: 44,
      // These jobs never end by themselves: bash_stream returns after 100 ms, its 1 s floor lowered for the test.
      env: { PITWALL_BASH_MIN_YIELD_MS: "100" },
      replies: [
        { kind: "reply", text: "Main starts a job.", toolCalls: [{ name: "bash_stream", arguments: { command: "sleep 31.71", yieldMs: 100 } }] },
        { kind: "reply", text: "Main's job runs." },
        { kind: "reply", text: "Locked starts a job.", toolCalls: [{ name: "bash_stream", arguments: { command: "sleep 31.72", yieldMs: 100 } }, { name: "list_processes", arguments: {} }] },
        { kind: "reply", text: "Locked listed them." },
      ],
    });
    send(t, "start a job");
    await t.waitForText("Main's job runs.");
    send(t, "/agent new locked --sandbox strict");
    await t.waitForText("Agent locked started");
    send(t, "start yours");
    const listed = await llm.waitForRequest(4, 20_000);
    expect(listed.transcript).toMatch(/job 1: running, .*started by agent main \(read it, do not stop it\), sandbox workspace[^\n]*: sleep 31\.71/);
    expect(listed.transcript).toMatch(/job 2: running, .*started by you, sandbox strict[^\n]*: sleep 31\.72/);
    await t.waitForText("Locked listed them.");
    t.press("Alt+A");
    await t.waitForText(/● locked +\(sandbox strict\) +idle/);
    t.press("Escape");
    await t.waitForNoText(/agents \(2\)/);
    send(t, "/agent new loose --sandbox everything");
    await t.waitForText('"everything" is not a sandbox profile.');
  }, 90_000);
});
