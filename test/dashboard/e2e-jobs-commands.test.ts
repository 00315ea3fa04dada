// End to end: the job slash commands (/run, /tail, /kill, /restart, /jobs), removing a finished job, the person's one-off
// `!command` (its output in the tool-output pane, Esc stops it, the model told in one line), and the
// files pane's preview (highlighted file, coloured last diff, Enter opens it in the tool-output pane).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";
import { waitFor } from "../helpers/conditions.js";
import { countLive } from "../helpers/processes.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

function command(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

describe("job commands", () => {
  test("/run, /tail, /kill, /restart, /jobs and !command; the model hears what the person did", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Noted." }] });
    const { t, llm } = session;
    command(t, "/run seq -f 'out %g' 1 80; sleep 64.11");
    await t.waitForText(/▶ 1 seq -f 'out %g' 1 80; sl.*up/);
    await t.waitForText(/[│┤] out 80\s+│/);

    command(t, "/tail 1 5");
    let screen = await t.waitForText("/tail 1: last 5 lines of job 1");
    // In the tool-output pane (the left column; the job's terminal on the right shows more).
    expect(screen).toMatch(/^│ out 76\s/m);
    expect(screen).toMatch(/^│ out 80\s/m);
    expect(screen).not.toMatch(/^│ out 75\s/m);
    command(t, "/tail 9");
    await t.waitForText('No job "9". Jobs: 1.');
    command(t, "/tail 1 many");
    await t.waitForText("Usage: /tail <job id> [lines]");

    command(t, "/kill 1");
    await t.waitForText(/1 seq -f 'out %g' 1 8.*killed TERM/);
    await waitFor(() => countLive("sleep 64.11") === 0, "job 1 to end");
    command(t, "/restart 1");
    await t.waitForText(/1 seq -f 'out %g' 1 8.*↻1 up/);

    command(t, "!echo bang-$((6*7))");
    screen = await t.waitForText(/── exit 0/);
    expect(screen).toContain("! echo bang-$((6*7))");
    expect(screen).toMatch(/│ bang-42\s/);
    // Esc stops the person's command while the agent is idle.
    command(t, "!echo started-sleeping; sleep 64.12");
    await t.waitForText("started-sleeping");
    await waitFor(() => countLive("sleep 64.12") === 1, "the command to run");
    t.press("Escape");
    screen = await t.waitForText(/── killed by SIGTERM · aborted/);
    expect(screen).toMatch(/! echo started-sleeping; sleep 64\.12 ─+ ■ stopped ─/);
    await waitFor(() => countLive("sleep 64.12") === 0, "the command to end");

    // /jobs focuses the list: X there kills the selected job at once.
    command(t, "/jobs");
    t.type("X");
    await t.waitForText(/1 seq -f 'out %g' 1 8.*killed KILL/);
    // d removes a finished job from the list.
    t.type("d");
    await t.waitForText("No jobs yet");

    command(t, "anything new?");
    await t.waitForText("Noted.");
    const request = (await llm.waitForRequest(1)).transcript;
    expect(request).toContain("The person started job 1: seq -f 'out %g' 1 80; sleep 64.11");
    expect(request).toContain("The person stopped job 1 (seq -f 'out %g' 1 80; sleep 64.11).");
    expect(request).toContain("The person restarted job 1:");
    expect(request).toContain("The person removed job 1 (seq -f 'out %g' 1 80; sleep 64.11) from the list.");
    expect(request).toContain("The person ran a shell command of their own (its output is not in the conversation): echo bang-$((6*7)) (exit 0).");
    expect(request).toContain("echo started-sleeping; sleep 64.12 (stopped by the person).");
    // The command's output is the person's: it is not in the conversation.
    expect(request).not.toContain("bang-42");
    // In the order the person acted: the ! commands came after /restart and before X and d.
    const order = ["The person started job 1", "The person restarted job 1", "echo bang-", "echo started-sleeping", "The person removed job 1"].map((text) => request.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  }, 60_000);

  test("the files pane previews the selected file highlighted, or its last diff coloured; Enter opens it in the tool-output pane", async () => {
    session = await startDashboard({ waitReady: false });
    const { t, cwd, llm } = session;
    mkdirSync(join(cwd, "src"));
    writeFileSync(join(cwd, "src", "app.ts"), "export const answer = 41;\nexport function twice(n: number): number {\n  return n * 2;\n}\n");
    writeFileSync(join(cwd, "big.txt"), Array.from({ length: 400 }, (_, i) => `big line ${i + 1}`).join("\n") + "\n");
    llm.enqueue(
      {
        kind: "reply",
        text: "Working on it.",
        toolCalls: [
          { name: "read", arguments: { file_path: "src/app.ts" } },
          { name: "edit", arguments: { file_path: "src/app.ts", old_string: "41", new_string: "42" } },
          { name: "write", arguments: { file_path: "notes/plan.md", content: "- ship it\n" } },
          { name: "read", arguments: { file_path: "big.txt" } },
        ],
      },
      { kind: "reply", text: "All done." },
    );
    await t.waitForText("● ready", 20_000);
    t.type("go");
    t.press("Enter");
    await t.waitForText("All done.");
    // Newest first; the newest file is previewed until another is picked.
    let screen = await t.waitForText(/R big\.txt[\s\S]*W notes\/plan\.md[\s\S]*M src\/app\.ts\s+\+1 −1/);
    await t.waitForText("── preview: big.txt");
    await t.waitForText(/│\s*1 big line 1\s/);

    // The edited file shows its last diff, coloured.
    t.press("Alt+4");
    t.type("j");
    t.type("j");
    screen = await t.waitForText("── last edit: src/app.ts");
    const added = t.findCell("+export const answer = 42;")!;
    expect(added.fg).toBe(2);
    expect(t.findCell("-export const answer = 41;")!.fg).toBe(1);

    // d previews the file itself, highlighted.
    t.type("d");
    await t.waitForText("── preview: src/app.ts");
    await t.waitForText(/│ 1 export const answer = 42;/);
    await t.waitFor(() => {
      const cell = t.findCell(/\d export const answer = 42;/);
      const keyword = cell ? t.findCell("export const answer = 42;") : undefined;
      return keyword && keyword.fg >= 0 ? keyword : undefined;
    }, 10_000, "the preview to be highlighted");

    // Enter opens the whole file in the tool-output pane; with diffs preferred again, the diff.
    t.press("Enter");
    screen = await t.waitForText("─ file src/app.ts");
    expect(screen).toMatch(/│ 3\s+return n \* 2;/);
    t.type("d");
    await t.waitForText("── last edit: src/app.ts");
    t.press("Enter");
    screen = await t.waitForText("─ last edit of src/app.ts");
    expect(screen).toMatch(/│ \+export const answer = 42;/);

    // A long file's preview scrolls with PageDown.
    t.type("k");
    t.type("k");
    await t.waitForText("── preview: big.txt");
    await t.waitForText(/│\s*1 big line 1\s/);
    t.press("PageDown");
    // The first line scrolls out of view; later ones show.
    screen = await t.waitFor(() => {
      const s = t.screenText();
      return /│\s*\d+ big line (1[0-9]|[2-9]\d)\s/.test(s) && !/│\s+1 big line 1\s/.test(s) ? s : undefined;
    }, 10_000, "the preview to scroll past its first line");
    expect(screen).not.toMatch(/│\s+1 big line 1\s/);
  }, 60_000);
});
