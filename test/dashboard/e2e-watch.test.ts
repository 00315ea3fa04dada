// End to end: the person watches a job from the dashboard. /watch sets a trigger (wake by default)
// and the jobs list marks the job; a failing test run wakes the idle agent, the chat names the
// trigger and shows its lines, and the fake model's request carries them; `w` in the jobs pane asks
// for a pattern and an action; bad patterns get a clear error; /unwatch removes the triggers; a
// notify firing reaches the model with the next prompt.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { FakeScript } from "../fake-llm/index.js";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { reapJobHosts } from "../helpers/job-hosts.js";
import { MAX_UNATTENDED_WAKES } from "../../tools/jobs/index.js";
import { wrapped, type PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

const WATCHER = `echo "watching for changes"
while true; do
  if [ -f rerun-fail ]; then rm rerun-fail; printf "%s\\n" " RUN  v4" " ✓ adds" " ✓ subtracts" " FAIL test/sum.test.ts > sums" "   expected 2, received 3" " Tests: 1 failed, 2 passed"; fi
  if [ -f rerun-pass ]; then rm rerun-pass; printf "%s\\n" " RUN  v4" " ✓ adds" " ✓ subtracts" " ✓ sums" " Tests: 3 passed"; fi
  sleep 0.05
done
`;

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("watching a job from the dashboard", () => {
  test("/watch wakes the idle agent with the lines; w sets a notify trigger; bad patterns are refused; /unwatch clears them", async () => {
    // Wide enough that the chat (half the width beside a job) shows each notice on one row.
    const session = await startDashboard({ cols: 200, rows: 48, replies: [{ kind: "reply", text: "Woken: sums fails, fixing it." }, { kind: "reply", text: "The tests passed once." }] });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "watcher.sh"), WATCHER);
    command(t, "/run sh watcher.sh");
    await t.waitForText(/▶ 1 sh watcher\.sh +up/);
    await t.waitForText(/│ ?watching for changes/);

    command(t, "/watch 1 FAIL");
    await t.waitForText("Watching job 1 for /FAIL/ → wake: matching lines start a turn when the agent is idle");
    await t.waitForText(/▶ 1 sh watcher\.sh +⚑ up/);

    writeFileSync(join(cwd, "rerun-fail"), "");
    const woken = await llm.waitForRequest(1, 20_000);
    expect(woken.transcript).toContain("The person started job 1: sh watcher.sh");
    expect(woken.transcript).toContain("The person set watch trigger 1 on job 1: /FAIL/ → wake");
    expect(woken.transcript).toContain("job 1 printed (watch trigger 1 /FAIL/, set by the person, on: sh watcher.sh):");
    expect(woken.transcript).toMatch(/> \d+ \|  FAIL test\/sum\.test\.ts > sums\n +\d+ \|    expected 2, received 3/);
    let screen = await t.waitForText("Woken: sums fails, fixing it.");
    expect(screen).toContain("⚑ job 1 woke the agent · trigger 1 /FAIL/ (yours)");
    expect(screen).toMatch(/> \d+ \|  FAIL test\/sum\.test\.ts > sums/);

    // w in the jobs pane: a prompt for the pattern and the action.
    t.press("Alt+3");
    t.type("w");
    await t.waitForText("watch job 1: pattern [action]");
    t.type("Tests: \\d+ passed notify");
    t.press("Enter");
    await t.waitForText("Watching job 1 for /Tests: \\d+ passed/ → notify");
    await t.waitForText(/▶ 1 sh watcher\.sh +⚑2 up/);
    writeFileSync(join(cwd, "rerun-pass"), "");
    screen = await t.waitForText("⚑ job 1 printed · trigger 2 /Tests: \\d+ passed/ (yours; the agent hears it");
    expect(screen).toMatch(/> \d+ \|  Tests: 3 passed/);
    await t.waitForText(/⚑ job 1: Tests: 3 passed \(trigger 2 → notify\)/);

    // Patterns that cannot be used are refused with what to do instead.
    command(t, "/watch 1 FAIL (");
    await t.waitForText(/Not watching: The pattern "FAIL \(" is not a valid regular expression \(missing closing \)/);
    command(t, "/watch 1 (?<!not )ok");
    screen = await t.waitForText('Not watching: The pattern "(?<!not )ok" uses lookahead or lookbehind, which is not supported:');
    expect(screen).toContain("Watch for the main part");

    command(t, "/unwatch 1");
    await t.waitForText("Stopped watching job 1 for /FAIL/, /Tests: \\d+ passed/.");
    await t.waitForText(/▶ 1 sh watcher\.sh +up/);
    expect(llm.requests).toHaveLength(1);

    // The notify firing reaches the model whole with the next prompt; the chat, which showed its
    // lines when it fired, names it only.
    t.press("Alt+0");
    t.type("what printed?");
    t.press("Enter");
    const next = await llm.waitForRequest(2, 20_000);
    expect(next.transcript).toMatch(/job 1 printed \(watch trigger 2 \/Tests: \\d\+ passed\/, set by the person, on: sh watcher\.sh\):\n[^]*> \d+ \|  Tests: 3 passed/);
    screen = await t.waitForText("The tests passed once.");
    // The person's own trigger is "yours" on the screen (the model reads "set by the person").
    expect(screen).toContain("set by you, on: sh watcher.sh): 4 lines,");
    expect(screen).toContain("shown above when it fired");
    expect(screen.match(/> \d+ \|  Tests: 3 passed/g)).toHaveLength(1);
  }, 60_000);

  test("the chat names the agent's trigger as the agent's in the notice that told the model of its firing", async () => {
    const session = await startDashboard({
      cols: 160,
      rows: 48,
      replies: [
        { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "sh watcher.sh", readyPattern: "watching", watch: [{ pattern: "FAIL", action: "notify" }] } }] },
        { kind: "reply", text: "Watching the tests." },
        { kind: "reply", text: "Seen the failure." },
      ],
    });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "watcher.sh"), WATCHER);
    command(t, "watch the tests");
    await t.waitForText("Watching the tests.");
    writeFileSync(join(cwd, "rerun-fail"), "");
    await t.waitForText(/⚑ job 1 printed · trigger 1 \/FAIL\/ \(the agent's/);
    command(t, "what failed?");
    // The model reads its own trigger as set by "you".
    expect((await llm.waitForRequest(3, 20_000)).transcript).toContain("job 1 printed (watch trigger 1 /FAIL/, set by you, on: sh watcher.sh):");
    const screen = await t.waitForText("Seen the failure.");
    expect(screen).toMatch(wrapped("job 1 printed (watch trigger 1 /FAIL/, set by the agent, on: sh watcher.sh): 6 lines, shown above"));
    expect(screen).not.toContain("set by you");
  }, 60_000);

  test("a job and a trigger the person sets while the agent works reach the model before the trigger's lines", async () => {
    const session = await startDashboard({
      cols: 160,
      rows: 48,
      replies: [{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] }, { kind: "reply", text: "Saw the failure." }],
    });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "watcher.sh"), WATCHER);
    command(t, "wait a moment");
    await t.waitForText(/▸ bash sleep 30/);
    command(t, "/run sh watcher.sh");
    await t.waitForText(/│ ?watching for changes/);
    command(t, "/watch 1 FAIL steer");
    await t.waitForText("Watching job 1 for /FAIL/ → steer");
    writeFileSync(join(cwd, "rerun-fail"), "");
    const next = (await llm.waitForRequest(2, 30_000)).transcript;
    const started = next.indexOf("The person started job 1: sh watcher.sh");
    const set = next.indexOf("The person set watch trigger 1 on job 1: /FAIL/ → steer");
    const fired = next.indexOf("job 1 printed (watch trigger 1 /FAIL/, set by the person, on: sh watcher.sh):");
    expect(started).toBeGreaterThan(-1);
    expect(set).toBeGreaterThan(started);
    expect(fired).toBeGreaterThan(set);
    await t.waitForText("Saw the failure.");
  }, 60_000);

  test("a wake trigger that fires while the agent works steered it: the chat does not say it woke the agent", async () => {
    const session = await startDashboard({
      cols: 160,
      rows: 48,
      replies: [{ kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "sleep 30" } }] }, { kind: "reply", text: "Saw the failure." }],
    });
    const { t, llm, cwd } = session;
    writeFileSync(join(cwd, "watcher.sh"), WATCHER);
    command(t, "/run sh watcher.sh");
    await t.waitForText(/│ ?watching for changes/);
    command(t, "/watch 1 FAIL");
    await t.waitForText("Watching job 1 for /FAIL/ → wake");
    command(t, "wait a moment");
    await t.waitForText(/▸ bash sleep 30/);
    writeFileSync(join(cwd, "rerun-fail"), "");
    expect((await llm.waitForRequest(2, 30_000)).transcript).toContain("job 1 printed (watch trigger 1 /FAIL/, set by the person, on: sh watcher.sh):");
    const screen = await t.waitForText("Saw the failure.");
    expect(screen).toContain("⚑ job 1 steered the agent · trigger 1 /FAIL/ (yours)");
    expect(screen).not.toContain("woke the agent");
  }, 60_000);

  test("a trigger's waiting message speaks to the person: the queue and the chat name the agent as its owner, for a firing merged into it too", async () => {
    const session = await startDashboard({
      cols: 160,
      rows: 48,
      replies: [
        { kind: "reply", toolCalls: [{ name: "bash_stream", arguments: { command: "sh printer.sh", readyPattern: "watching", watch: [{ pattern: "FAIL", action: "follow-up", debounceMs: 1000 }] } }] },
        { kind: "reply", toolCalls: [{ name: "bash", arguments: { command: "while [ ! -f go ]; do sleep 0.05; done; echo released" } }] },
        { kind: "reply", text: "Released." },
        { kind: "reply", text: "Read both failures." },
      ],
    });
    const { t, llm, cwd } = session;
    // Prints what the test puts in `next`, so each firing's line says which one it is. It takes the
    // file away before printing it, and the test puts it there whole (a rename): a loaded machine
    // once ran the printer's rm after the test had written the second line, which was never printed.
    writeFileSync(join(cwd, "printer.sh"), 'echo "watching for changes"\nwhile true; do if mv next shown 2>/dev/null; then cat shown; fi; sleep 0.05; done\n');
    const print = (line: string): void => {
      writeFileSync(join(cwd, "next.tmp"), `${line}\n`);
      renameSync(join(cwd, "next.tmp"), join(cwd, "next"));
    };
    command(t, "watch the tests");
    await t.waitForText(/▸ bash while/);
    print("FAIL first");
    const queued = await t.waitForText("↳ follow-up: job 1 printed (watch trigger 1 /FAIL/, set by the agent, on: sh printer.sh):");
    expect(queued).not.toContain("set by you");
    // A second firing merges into the message still waiting (the status line flashes each firing).
    print("FAIL second");
    await t.waitForText("⚑ job 1: FAIL second (trigger 1 → follow-up)");
    writeFileSync(join(cwd, "go"), "");
    const request = await llm.waitFor((r) => r.transcript.includes("[Trigger 1 fired 2 times"), 20_000);
    expect(request.transcript.match(/set by you, on: sh printer\.sh/g)).toHaveLength(2);
    const screen = await t.waitForText("Read both failures.");
    expect(screen).toMatch(wrapped("⚑ job 1 sent the agent a follow-up · trigger 1 /FAIL/ (the agent's)"));
    expect(screen).toMatch(wrapped("job 1 printed (watch trigger 1 /FAIL/, set by the agent, on: sh printer.sh):"));
    expect(screen).not.toContain("set by you");
  }, 60_000);

  test("the wake cap holds across -c: after five wakes, a resumed session's triggers wait for a message too", async () => {
    const cwd = tempFolder("cwd");
    const home = tempFolder("home");
    // Triggers may fire every 200 ms here (1 s is the floor a person or the model can set).
    const env = { PITWALL_WATCH_MIN_DEBOUNCE_MS: "200", PITWALL_WATCH_DEBOUNCE_MS: "200" };
    try {
      const woken = Array.from({ length: MAX_UNATTENDED_WAKES }, (_, i): FakeScript => ({ kind: "reply", text: `Woken ${i + 1}.` }));
      const first = await startDashboard({ cwd, home, env, cols: 160, rows: 48, replies: woken });
      writeFileSync(join(cwd, "watcher.sh"), WATCHER);
      command(first.t, "/run sh watcher.sh");
      await first.t.waitForText(/│ ?watching for changes/);
      command(first.t, "/watch 1 FAIL");
      await first.t.waitForText("Watching job 1 for /FAIL/ → wake");
      for (let i = 1; i <= MAX_UNATTENDED_WAKES; i++) {
        writeFileSync(join(cwd, "rerun-fail"), "");
        await first.t.waitForText(`Woken ${i}.`, 20_000);
        await first.t.waitForText("● ready");
      }
      writeFileSync(join(cwd, "rerun-fail"), "");
      const held = await first.t.waitForText(/Watch triggers have woken the agent 5 times since your last message/, 20_000);
      // A notice, not an error: nothing failed.
      expect(held).toMatch(/! Watch triggers have woken the agent 5 times/);
      expect(held).not.toContain("✗");
      expect(first.llm.requests).toHaveLength(MAX_UNATTENDED_WAKES);
      // Keep the watcher running in the job host, and continue the session.
      first.t.press("Ctrl+D");
      await first.t.waitForText("k keep it running");
      first.t.type("k");
      await first.t.waitForExit();
      await first.done();

      const second = await startDashboard({ cwd, home, env, cols: 160, rows: 48, args: ["-c"] });
      await second.t.waitForText(/1 job kept running from an earlier pitwall, attached again/);
      writeFileSync(join(cwd, "rerun-fail"), "");
      // The firing waits in the queue for the person's message; no turn starts by itself.
      await second.t.waitForText(/↳ steer: .*job 1 printed \(watch trigger 1 \/FAIL\//, 20_000);
      expect(second.llm.requests).toHaveLength(0);
    } finally {
      reapJobHosts(home);
    }
  }, 120_000);
});
