// End to end: several agents in one dashboard. `/agent new tests` starts a second agent with its own
// conversation (its first request carries nothing of the first agent's) and its own session file;
// the status bar names the agent in the chat; Alt+, and Alt+. switch the chat between them, each
// showing only its own conversation.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

function send(t: PitwallTerminal, text: string): void {
  t.press("Alt+0");
  t.type(text);
  t.press("Enter");
}

/** Every session file pitwall wrote under its home, with its text. */
function sessionFiles(home: string): { path: string; text: string }[] {
  const root = join(home, "sessions");
  return readdirSync(root, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => ({ path: join(root, name), text: readFileSync(join(root, name), "utf8") }));
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
});
