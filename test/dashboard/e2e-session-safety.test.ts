// End to end: the dashboard says at once when the session cannot be saved (chat notice and status
// bar) and when it is saved again; continuing a session another live pitwall writes asks first and
// offers a copy.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { emptyUsage } from "../../agent/messages.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";
import { wrapped } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();
const held: SessionStore[] = [];
afterEach(() => {
  for (const store of held.splice(0)) store.close();
});

describe("session safety in the dashboard", () => {
  test("a session folder that cannot be written shows at once in the chat and the status bar, and recovery too", async () => {
    const home = tempFolder("pitwall-home-");
    const blocker = join(home, "blocked");
    writeFileSync(blocker, "a file where the session folder should be");
    const { t } = await startDashboard({
      home,
      args: ["--session-dir", join(blocker, "sessions")],
      replies: [
        { kind: "reply", text: "First answer." },
        { kind: "reply", text: "Second answer." },
      ],
    });
    t.type("hello");
    t.press("Enter");
    let screen = await t.waitForText("First answer.");
    screen = await t.waitForText("session not saved");
    expect(screen).toMatch(/The session could not be saved to/);
    expect(screen).toMatch(/✗ session not saved: \d+ records? only in memory/);

    rmSync(blocker);
    mkdirSync(blocker);
    t.type("again");
    t.press("Enter");
    screen = await t.waitForText("The session is saved again");
    await t.waitForText("Second answer.");
    expect(t.screenText()).not.toContain("session not saved");
  }, 60_000);

  test("continuing a session another live pitwall writes asks first; the fork continues in a copy", async () => {
    const home = tempFolder("pitwall-home-");
    const cwd = tempFolder("pitwall-cwd-");
    // This test process plays the other pitwall: it writes the session and so holds its lock.
    const other = SessionStore.create({ root: join(home, "sessions"), cwd, provider: "anthropic", model: "claude-sonnet-4-5", thinkingLevel: "off", pitwallVersion: "0.1.0" });
    held.push(other);
    other.recordMessage({ role: "user", content: "what is the capital of Spain?", timestamp: 1 });
    other.recordMessage({ role: "assistant", content: [{ type: "text", text: "Madrid, of course." }], provider: "anthropic", model: "claude-sonnet-4-5", usage: emptyUsage(), stopReason: "stop", timestamp: 2 });
    const before = readFileSync(other.path, "utf8");

    const { t } = await startDashboard({ home, cwd, args: ["--continue"], waitReady: false, replies: [{ kind: "reply", text: "Barcelona is second." }] });
    let screen = await t.waitForText("this session is open in another pitwall");
    expect(screen).toContain("Continue in a copy (fork); the other pitwall keeps the original");
    expect(screen).toContain("Start a new session");
    expect(screen).toMatch(new RegExp(`Another pitwall \\(pid ${process.pid}, since \\d\\d:\\d\\d\\) is writing this session:`));
    t.press("Enter");
    await t.waitForText("● ready");
    // The notice names long temp paths, so where it wraps depends on their length.
    screen = await t.waitForText(wrapped("continues in a copy"));
    expect(screen).toContain("Madrid, of course.");
    t.type("and the second city?");
    t.press("Enter");
    await t.waitForText("Barcelona is second.");
    expect(readFileSync(other.path, "utf8")).toBe(before);
    const folder = dirname(other.path);
    const copies = readdirSync(folder).filter((name) => name.endsWith(".jsonl") && name !== basename(other.path));
    expect(copies).toHaveLength(1);
    const copy = await loadSession(join(folder, copies[0]!));
    expect(copy.header.forkedFrom).toBe(other.path);
    expect(copy.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
  }, 60_000);
});
