// End to end: what a person and the model hear about jobs without asking. A job that dies while
// the agent is idle is flashed in the status line and noted in the chat; a resumed session tells
// the model (and the person) that the earlier run's jobs are gone.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

const CRASH_ON_RELEASE = "echo serving; while [ ! -f release ]; do sleep 0.05; done; echo 'Error: the server crashed'; exit 2";

describe("job news", () => {
  test("a job that dies while the agent is idle flashes in the status line and is noted in the chat", async () => {
    session = await startDashboard({
      replies: [
        { kind: "reply", text: "Server started.", toolCalls: [{ name: "bash_stream", arguments: { command: CRASH_ON_RELEASE, readyPattern: "serving" } }] },
        { kind: "reply", text: "It is up." },
      ],
    });
    const { t, cwd } = session;
    t.type("start the server");
    t.press("Enter");
    await t.waitForText("It is up.");
    await t.waitForText("● ready");
    writeFileSync(join(cwd, "release"), "");
    const screen = await t.waitForText(/exited with code 2 after \d+m?s\./);
    expect(screen).toMatch(/! Job 1 \(echo serving/);
    expect(screen).toMatch(/Last line: Error: the server crashed/);
    expect(screen).toMatch(/● ready · job 1 exited with code 2/);
  }, 40_000);

  test("--continue: the model is told the earlier run's jobs are gone, and so is the person", async () => {
    const home = tempFolder("home");
    const cwd = tempFolder("cwd");
    session = await startDashboard({
      home,
      cwd,
      replies: [
        { kind: "reply", text: "Watching.", toolCalls: [{ name: "bash_stream", arguments: { command: "echo watching; sleep 60.5", readyPattern: "watching" } }] },
        { kind: "reply", text: "The watcher runs." },
      ],
    });
    session.t.type("start the watcher");
    session.t.press("Enter");
    await session.t.waitForText("The watcher runs.");
    session.t.press("Ctrl+D");
    await session.t.waitForText("quit and stop it? y/n");
    session.t.type("y");
    await session.t.waitForExit();
    await session.done();

    session = await startDashboard({ home, cwd, args: ["--continue"], replies: [{ kind: "reply", text: "Starting it again." }] });
    const { t, llm } = session;
    await t.waitForText("The earlier run's jobs ended when it quit: job 1 (echo watching;");
    t.type("is the watcher still up?");
    t.press("Enter");
    await t.waitForText("Starting it again.");
    const request = (await llm.waitForRequest(1)).transcript;
    expect(request).toContain("pitwall was restarted: the background jobs of the earlier run ended when it quit (job 1 (echo watching; sleep 60.5))");
  }, 60_000);
});
