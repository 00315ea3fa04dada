// End to end: the jobs pane against the fake model. The model starts a server with bash_stream and a
// readyPattern; the list shows it up and its terminal shows its output live; the person stops it,
// restarts it, starts a job of their own, attaches to a job asking y/n, answers and detaches; the
// model hears of all that with its next request; quitting asks once and leaves no process behind.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";
import { waitFor } from "../helpers/conditions.js";
import { countLive } from "../helpers/processes.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

// Distinct sleep lengths name each test's processes in `ps`. The server ticks eight times, then
// idles: its first lines never scroll out of the job's terminal, however slowly the test gets there.
const SERVER = `trap 'echo "winch $(stty size)"' WINCH; echo booting; sleep 0.3; echo "listening on 4321"; i=0; while true; do i=$((i+1)); if [ $i -le 8 ]; then echo "tick $i"; fi; sleep 0.2; done`;
const ASK = `read -r -p "Proceed? [y/n] " a; echo "you said: $a"; read -r -p "Name? " b; printf 'name=%q\\n' "$b"; read -r c; printf 'third=%q\\n' "$c"; sleep 61.37`;

describe("jobs pane", () => {
  test("a server the model starts shows up and live; the person stops it, restarts it, starts and attaches to a job; the model hears it; quitting leaves nothing", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Starting the server.", toolCalls: [{ name: "bash_stream", arguments: { command: "bash server.sh", readyPattern: "listening on", yieldMs: 20_000 } }] },
        { kind: "reply", text: "The server is up." },
        { kind: "reply", text: "Looking.", toolCalls: [{ name: "list_processes", arguments: {} }] },
        { kind: "reply", text: "I see both jobs." },
      ],
    });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "server.sh"), SERVER);
    writeFileSync(join(cwd, "ask.sh"), ASK);
    t.type("start the server");
    t.press("Enter");
    await t.waitForText("The server is up.");
    // The list shows it up, the status line counts it, its terminal shows its output as it comes.
    let screen = await t.waitForText(/▶ 1 bash server\.sh\s+up \d/);
    expect(screen).toContain("1 job up");
    // The call's line in the chat reads as running, not as a finished "✓".
    expect(screen).toMatch(/▸ bash_stream bash server\.sh\s+▶ job 1 up/);
    expect(screen).toContain("─ job 1: bash server.sh");
    // The job's screen comes from the job host, and may be painted a frame after the list.
    await t.waitForText("listening on 4321");
    await t.waitForText("tick 3");
    await t.waitForText("tick 6");
    // The model's job started at the registry's 120x30; shown, its pty takes the pane's size (56 columns inside its border and margins).
    await t.waitForText(/winch \d+ 56\b/);
    expect(countLive("bash server.sh")).toBe(1);

    // The person stops it with x: the list shows it killed and the process is gone.
    t.press("Alt+3");
    t.type("x");
    screen = await t.waitForText(/1 bash server\.sh\s+killed TERM/);
    await waitFor(() => countLive("bash server.sh") === 0, "the server to end");
    expect(screen).not.toContain("1 job up");
    await t.waitForText(/▸ bash_stream bash server\.sh\s+job 1 killed/);

    // r brings it back under the same id, with a restart count, and its new output shows.
    t.type("r");
    await t.waitForText(/1 bash server\.sh\s+↻1 up \d/);
    await t.waitForText(/▸ bash_stream bash server\.sh\s+▶ job 1 up/);
    await t.waitForText("tick 2");
    await waitFor(() => countLive("bash server.sh") === 1, "the server to run again");

    // n asks for a command; the job is the person's, selected, its question on screen.
    t.type("n");
    await t.waitForText("new job: command");
    t.type("bash ask.sh");
    t.press("Enter");
    screen = await t.waitForText(/▶ 2 bash ask\.sh\s+up/);
    await t.waitForText("Proceed? [y/n]");
    expect(t.screenText()).toContain("2 jobs up");

    // a attaches: the border says so; y and Enter answer; Esc reaches the job rather than aborting.
    t.type("a");
    await t.waitForText("job 2 attached — Ctrl+] to detach");
    t.type("y");
    t.press("Enter");
    await t.waitForText("you said: y");
    await t.waitForText("Name?");
    t.type("a");
    t.press("Escape");
    t.type("b");
    t.press("Enter");
    await t.waitForText("name=$'a\\Eb'");
    // Ctrl+] detaches and never reaches the job: its terminal would echo ^] while it reads a line.
    t.press("Ctrl+]");
    await t.waitForText("─ job 2: bash ask.sh");
    expect(t.screenText()).not.toContain("attached");
    // Keys act on the list again: k selects job 1.
    t.type("k");
    await t.waitForText(/▶ 1 bash server\.sh/);
    t.type("j");
    await t.waitForText(/▶ 2 bash ask\.sh/);
    t.type("a");
    await t.waitForText("job 2 attached");
    t.type("z");
    t.press("Enter");
    await t.waitForText("third=z");
    expect(t.screenText()).not.toContain("^]");
    t.press("Ctrl+]");
    await t.waitForNoText("attached —");

    // The model's next request carries what the person did, one line each, and list_processes shows the person's job.
    t.press("Alt+0");
    t.type("what is running?");
    t.press("Enter");
    await t.waitForText("I see both jobs.");
    const request = (await llm.waitForRequest(3)).transcript;
    expect(request).toContain("The person stopped job 1 (bash server.sh).");
    expect(request).toContain("The person restarted job 1: bash server.sh");
    expect(request).toContain("The person started job 2: bash ask.sh");
    expect(request).toContain("The person typed into job 2 (bash ask.sh).");
    const listing = (await llm.waitForRequest(4)).transcript;
    expect(listing).toMatch(/job 2: running, [^\n]*started by the person[^\n]*bash ask\.sh/);
    // The model's job, restarted by the person: still the model's, and who restarted it is said.
    expect(listing).toMatch(/job 1: running, [^\n]*started by you, restarted 1× \(last by the person\)/);

    // Quitting asks once, then ends every job's process group.
    t.press("Ctrl+D");
    await t.waitForText("2 jobs running: quit and stop them? y/n");
    t.type("y");
    expect(await t.waitForExit(20_000)).toBe(0);
    await waitFor(() => countLive("bash server.sh") === 0 && countLive("ask.sh") === 0 && countLive("sleep 61.37") === 0, "every job's processes to end");
  }, 90_000);

  test("quit asks once whichever way it is asked (Ctrl+C twice, /quit, Ctrl+D); n keeps the jobs running", async () => {
    session = await startDashboard({
      // These jobs never end by themselves: bash_stream returns after 100 ms, its 1 s floor lowered for the test.
      env: { PITWALL_BASH_MIN_YIELD_MS: "100" },
      replies: [
        { kind: "reply", text: "Two sleepers.", toolCalls: [{ name: "bash_stream", arguments: { command: "sleep 62.41", yieldMs: 100 } }, { name: "bash_stream", arguments: { command: "sleep 62.42", yieldMs: 100 } }] },
        { kind: "reply", text: "Both sleep." },
      ],
    });
    const { t } = session;
    t.type("sleep");
    t.press("Enter");
    await t.waitForText("Both sleep.");
    await t.waitForText("2 jobs up");
    t.press("Ctrl+C");
    await t.waitForText("press Ctrl+C again to quit");
    t.press("Ctrl+C");
    const asked = await t.waitForText("2 jobs running: quit and stop them? y/n");
    // One prompt at a time: the question replaces the hint that led to it.
    expect(asked.split("\n").at(-1)).not.toContain("press Ctrl+C again to quit");
    t.type("n");
    await t.waitForText("not quitting: the jobs keep running");
    expect(t.hasExited).toBe(false);
    t.type("/quit");
    t.press("Enter");
    await t.waitForText("2 jobs running: quit and stop them? y/n");
    t.press("Escape");
    await t.waitForNoText("quit and stop them?");
    expect(countLive("sleep 62.41")).toBe(1);
    t.press("Ctrl+D");
    await t.waitForText("quit and stop them? y/n");
    // The quit key again answers yes.
    t.press("Ctrl+D");
    expect(await t.waitForExit(20_000)).toBe(0);
    await waitFor(() => countLive("sleep 62.4") === 0, "both jobs to end");
  }, 60_000);
});
