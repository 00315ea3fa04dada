// End to end: starting without an API key, resuming a session with --resume (and the picker),
// starting a new conversation with /new, and the files the benchmarks read.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { sessionFolder } from "../../agent/sessions/session-file.js";
import { waitFor } from "../helpers/conditions.js";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

describe("setup", () => {
  test("without an API key the dashboard opens, says how to configure a provider, and a prompt gets that message", async () => {
    session = await startDashboard({ noKey: true });
    const { t, llm } = session;
    await t.waitForText("No API key for Anthropic");
    expect(t.screenText()).toContain("ANTHROPIC_API_KEY");
    // The status line does not claim to be ready; nothing was spent with a model whose prices pitwall knows.
    expect(t.screenText()).toContain("○ no model configured");
    expect(t.screenText()).not.toContain("● ready");
    await t.waitForText(/claude-sonnet-5-5 · \d+% of 1M · 0 tok · \$0\.00/);
    expect(t.screenText()).not.toContain("cost unknown");
    t.type("hello anyway");
    t.press("Enter");
    await t.waitForText("Not sent: No API key");
    expect(t.screenText()).not.toMatch(/at .*\.js:\d+/);
    expect(llm.requests).toHaveLength(0);
    t.press("Ctrl+D");
    expect(await t.waitForExit()).toBe(0);
  }, 40_000);

  test("--resume offers the directory's sessions and shows the picked conversation; /new starts another file", async () => {
    const home = tempFolder("pitwall-home-");
    const cwd = tempFolder("pitwall-cwd-");
    session = await startDashboard({ home, cwd, replies: [{ kind: "reply", text: "The capital is Paris." }] });
    session.t.type("what is the capital of France?");
    session.t.press("Enter");
    await session.t.waitForText("The capital is Paris.");
    session.t.press("Ctrl+D");
    await session.t.waitForExit();
    await session.done();

    session = await startDashboard({ home, cwd, args: ["--resume"], waitReady: false, replies: [{ kind: "reply", text: "Lyon is second." }] });
    const { t, llm } = session;
    const picker = await t.waitForText("resume a session (1)");
    expect(picker).toMatch(/2 msgs .*what is the capital of France\?/);
    t.press("Enter");
    await t.waitForText("● ready");
    let screen = await t.waitForText("The capital is Paris.");
    expect(screen).toContain("› what is the capital of France?");
    expect(screen).toContain("Resumed");
    t.type("and the second city?");
    t.press("Enter");
    await t.waitForText("Lyon is second.");
    expect((await llm.waitForRequest(1)).transcript).toContain("The capital is Paris.");

    t.type("/new");
    t.press("Enter");
    screen = await t.waitForText("New conversation.");
    expect(screen).not.toContain("Lyon is second.");
    expect(readdirSync(sessionFolder(join(home, "sessions"), cwd))).toHaveLength(1);
    t.press("Ctrl+D");
    await t.waitForExit();
    await session.done();

    // --continue opens the newest session straight away; prompts on the command line are sent.
    session = await startDashboard({ home, cwd, args: ["--continue", "one more question"], replies: [{ kind: "reply", text: "Marseille is third." }] });
    screen = await session.t.waitForText("Marseille is third.");
    expect(screen).toContain("Lyon is second.");
    expect((await session.llm.waitForRequest(1)).transcript).toContain("one more question");
  }, 60_000);

  test("keys typed the moment pitwall starts are kept, and the prompt they make is sent", async () => {
    session = await startDashboard({ waitReady: false, replies: [{ kind: "reply", text: "Answered the early one." }] });
    const { t, llm } = session;
    // Typed at once: the terminal holds the keys until pitwall reads them (early-prompt.test.ts
    // covers a prompt sent while the agent is still loading).
    t.type("typed at launch");
    await t.waitForText("› typed at launch");
    t.press("Enter");
    const screen = await t.waitForText("Answered the early one.");
    expect(screen).toContain("› typed at launch");
    expect((await llm.waitForRequest(1)).transcript).toContain("typed at launch");
  });

  test("for the benchmarks: PITWALL_STARTUP_TRACE gets the startup milestones, PITWALL_FRAME_STATS the frame times at the end", async () => {
    const folder = tempFolder("pitwall-bench-files-");
    const trace = join(folder, "startup.trace");
    const frames = join(folder, "frames.json");
    session = await startDashboard({ env: { PITWALL_STARTUP_TRACE: trace, PITWALL_FRAME_STATS: frames } });
    const { t } = session;
    // "first frame" is measured before the settings load; it is written once they say where.
    await waitFor(() => existsSync(trace) && readFileSync(trace, "utf8").includes("ready"), "the ready milestone");
    expect(readFileSync(trace, "utf8")).toMatch(/^first frame [\d.]+ [\d.]+\nagent loaded [\d.]+ [\d.]+\nready [\d.]+ [\d.]+\n$/);
    expect(existsSync(frames)).toBe(false);
    t.press("Ctrl+D");
    expect(await t.waitForExit()).toBe(0);
    const stats = JSON.parse(readFileSync(frames, "utf8")) as { frames: number };
    expect(stats.frames).toBeGreaterThan(0);
  }, 40_000);

  test("what a library prints with console (the SDK's deprecation warning) shows in the chat, not over the frame", async () => {
    session = await startDashboard({ args: ["--model", "claude-sonnet-4-5"], replies: [{ kind: "reply", text: "Old model answering." }] });
    const { t } = session;
    t.type("hello");
    t.press("Enter");
    const screen = await t.waitForText("Old model answering.");
    expect(screen).toMatch(/claude-sonnet-4-5' is deprecated/);
    // Every row still ends with the right border: nothing was printed across the frame.
    const rows = screen.split("\n").slice(0, -1);
    expect(rows.filter((row) => !/[│┤┐┘]\s*$/.test(row))).toEqual([]);
  }, 40_000);
});
