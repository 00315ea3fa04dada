// End to end: the real CLI in a pseudo-terminal against the fake LLM. A prompt streams its answer
// with a tool line; a steer typed while a tool runs reaches the next request; Esc aborts; the queue
// shows above the input and comes back for editing.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { waitFor } from "../helpers/conditions.js";
import { countLive } from "../helpers/processes.js";
import { endDashboardsAfterEach, startDashboard, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

/** Processes (zombies aside) whose command line is exactly `args`. */


/** A bash command that runs until the test creates the file `release` in the working folder. */
const WAIT_FOR_RELEASE = "while [ ! -f release ]; do sleep 0.05; done; echo released";

describe("the dashboard in a terminal", () => {
  test("a prompt streams its answer and a tool line with its result", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Let me **look** at the files.", toolCalls: [{ name: "bash", arguments: { command: "echo tool-said-hello" } }], usage: { input: 12_000, output: 3000 } },
        { kind: "reply", text: "All done: the answer is 42.", usage: { input: 15_000, output: 200 } },
      ],
    });
    const { t, llm } = session;
    t.type("what is the answer?");
    t.press("Enter");
    await t.waitForText("the answer is 42");
    // The status line counts tokens and cost once the reply has ended.
    const screen = await t.waitForText("30k tok · $0.09");
    expect(screen).toContain("› what is the answer?");
    expect(screen).toMatch(/▸ bash echo tool-said-hello\s+✓ \d+\.\ds/);
    // The tool-output pane shows it (its right border may be the joint where the files pane starts).
    expect(screen).toMatch(/│ tool-said-hello\s+[│├]/);
    expect((await llm.waitForRequest(1)).transcript).toContain("what is the answer?");
    expect((await llm.waitForRequest(2)).transcript).toContain("tool-said-hello");
  }, 40_000);

  test("a steer typed while a slow tool runs is shown queued and reaches the next request", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Running the suite.", toolCalls: [{ name: "bash", arguments: { command: WAIT_FOR_RELEASE } }] },
        { kind: "reply", text: "Linter ran too." },
      ],
    });
    const { t, llm, cwd } = session;
    t.type("run the tests");
    t.press("Enter");
    await t.waitForText(/▸ bash while .*⠋|▸ bash while .*\d\.\ds/);
    await t.waitForText("working");
    t.type("also run the linter");
    t.press("Enter");
    await t.waitForText("↳ steer: also run the linter");
    expect(llm.requests.length).toBe(1);
    writeFileSync(join(cwd, "release"), "");
    const second = await llm.waitForRequest(2, 20_000);
    expect(second.transcript).toContain("also run the linter");
    expect(second.transcript).toContain("released");
    await t.waitForText("Linter ran too.");
    await t.waitForNoText("↳ steer:");
    expect(t.screenText()).toContain("› steer: also run the linter");
  }, 40_000);

  test("Up takes back the last queued message whichever its kind, and sent again it keeps its kind; Esc puts the queue back into the input", async () => {
    session = await startDashboard({
      replies: [{ kind: "reply", text: "Working on it.", toolCalls: [{ name: "bash", arguments: { command: WAIT_FOR_RELEASE } }] }, { kind: "reply", text: "Finished." }],
    });
    const { t, cwd, llm } = session;
    t.type("start");
    t.press("Enter");
    await t.waitForText("working");
    await t.waitForText("▸ bash while");
    t.type("then commit");
    t.press("Alt+Enter");
    await t.waitForText("↳ follow-up: then commit");
    t.type("steer me");
    t.press("Enter");
    await t.waitForText("↳ steer: steer me");
    // Up takes back the last one queued (the steer), not the first steer or the follow-up.
    t.press("Up");
    await t.waitForText("› steer me");
    await t.waitForNoText("↳ steer: steer me");
    expect(t.screenText()).toContain("editing a queued steer");
    t.press("Enter");
    await t.waitForText("↳ steer: steer me");
    t.type("and push");
    t.press("Alt+Enter");
    await t.waitForText("↳ follow-up: and push");
    // A follow-up taken back and sent with Enter stays a follow-up.
    t.press("Up");
    await t.waitForText("editing a queued follow-up");
    t.type(" now");
    t.press("Enter");
    await t.waitForText("↳ follow-up: and push now");
    expect(t.screenText()).not.toContain("↳ steer: and push");
    // Esc aborts; the queue comes back into the input, in the order it was queued, kinds said.
    t.press("Escape");
    await t.waitForText("Aborted");
    let screen = await t.waitForText("3 queued messages are back in the input (1 steer, 2 follow-ups)");
    expect(screen).not.toContain("↳ ");
    expect(screen).toMatch(/› then commit\s+│\n│\s+│\n│ {3}steer me\s+│\n│\s+│\n│ {3}and push now/);
    writeFileSync(join(cwd, "release"), "");
    t.press("Enter");
    screen = await t.waitForText("Finished.");
    const request = (await llm.waitForRequest(2)).transcript;
    expect(request).toContain("then commit\n\nsteer me\n\nand push now");
    expect(request.match(/steer me/g)).toHaveLength(1);
  }, 40_000);

  test("Esc aborts a streaming reply: the partial text stays, marked aborted, and the agent is idle again", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "This answer is partial", holdOpen: true }] });
    const { t } = session;
    t.type("write an essay");
    t.press("Enter");
    await t.waitForText("This answer is partial");
    await t.waitForText("working");
    t.press("Escape");
    const screen = await t.waitForText("Aborted");
    expect(screen).toContain("This answer is partial");
    await t.waitForText("● ready");
  }, 40_000);

  test("Esc aborts a running tool and its process group ends", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "Sleeping.", toolCalls: [{ name: "bash", arguments: { command: "sleep 37.25; touch never" } }] }] });
    const { t, cwd } = session;
    t.type("sleep");
    t.press("Enter");
    await t.waitForText("▸ bash sleep 37.25");
    await waitFor(() => countLive("sleep 37.25") > 0, "the sleep to start");
    t.press("Escape");
    await t.waitForText(/▸ bash sleep 37\.25.*✗/);
    await t.waitForText("Aborted: the running tool was stopped");
    await t.waitForText("● ready");
    await waitFor(() => countLive("sleep 37.25") === 0, "the sleep to end");
    expect(existsSync(join(cwd, "never"))).toBe(false);
  }, 40_000);
});
