// End to end: help, key bindings (and a person's override), slash commands, quitting.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder, type DashboardSession } from "../helpers/dashboard-session.js";

let session: DashboardSession | undefined;
endDashboardsAfterEach();

function tempHome(): string {
  const home = tempFolder("pitwall-home-");
  return home;
}

describe("keys, help and commands", () => {
  test("F1 lists the bindings in force, read from the keymap; Esc closes the help", async () => {
    session = await startDashboard();
    const { t } = session;
    t.press("F1");
    const screen = await t.waitForText("help: keys and commands");
    expect(screen).toMatch(/Ctrl\+D\s+Quit/);
    expect(screen).toMatch(/Esc\s+Abort the turn/);
    // The commands, with what they do, end the help: /quit last, /model among the first (a page or
    // two up, as the list of commands grew).
    t.press("End");
    expect(await t.waitForText("/quit")).toMatch(/\/quit\s+Quit pitwall/);
    for (let page = 0; page < 4 && !t.screenText().includes("/model <id>"); page++) {
      const before = t.screenText();
      t.press("PageUp");
      await t.waitFor(() => t.screenText() !== before, 5_000, "the help to scroll up a page");
    }
    expect(t.screenText()).toMatch(/\/model <id>\s+Switch the model/);
    t.press("Escape");
    await t.waitForNoText("help: keys and commands");
    // `?` outside the input opens it too; inside the input it is just a character.
    t.type("?");
    await t.waitForText("› ?");
    t.press("Backspace");
    t.press("Tab");
    t.press("Tab");
    t.type("?");
    await t.waitForText("help: keys and commands");
  }, 40_000);

  test("a keymap override in PITWALL_HOME takes effect and shows in the help", async () => {
    const home = tempHome();
    writeFileSync(join(home, "keymap.json"), JSON.stringify({ global: { help: ["f2"], quit: ["ctrl+q"] } }));
    session = await startDashboard({ home });
    const { t } = session;
    t.press("F1");
    t.press("F2");
    const screen = await t.waitForText("help: keys and commands");
    expect(screen).toMatch(/F2\s+Show the key bindings/);
    expect(screen).toMatch(/Ctrl\+Q\s+Quit/);
    t.press("Escape");
    await t.waitForNoText("help: keys and commands");
    t.type("\x11");
    expect(await t.waitForExit()).toBe(0);
  }, 40_000);

  test("a malformed keymap gives a warning and the defaults, never a crash", async () => {
    const home = tempHome();
    writeFileSync(join(home, "keymap.json"), "{ not json");
    session = await startDashboard({ home });
    const { t } = session;
    await t.waitForText("is not valid JSON");
    t.press("F1");
    await t.waitForText("help: keys and commands");
  }, 40_000);

  test("slash commands: completion on Tab, /thinking and /model answer in the chat, unknown ones are not sent", async () => {
    session = await startDashboard();
    const { t, llm } = session;
    t.type("/thi");
    t.press("Tab");
    await t.waitForText("› /thinking ");
    t.type("hi");
    t.press("Tab");
    await t.waitForText("› /thinking high");
    t.press("Enter");
    await t.waitForText("Thinking: high.");
    await t.waitForText("thinking high");
    t.type("/model claude-opus-5");
    t.press("Enter");
    await t.waitForText("Model: anthropic/claude-opus-5");
    await t.waitForText("claude-opus-5 · thinking high");
    t.type("/frobnicate now");
    t.press("Enter");
    await t.waitForText("Unknown command /frobnicate");
    t.type("/context");
    t.press("Enter");
    await t.waitForText(/Context: \d+% of \S+ tokens/);
    t.type("/session");
    t.press("Enter");
    await t.waitForText(/Session [0-9a-f-]{36}/);
    expect(llm.requests.length).toBe(0);
    t.type("/quit");
    t.press("Enter");
    expect(await t.waitForExit()).toBe(0);
  }, 40_000);

  test("Ctrl+C clears the input, twice on an empty input quits; Ctrl+D quits", async () => {
    session = await startDashboard();
    const { t } = session;
    t.type("some draft");
    await t.waitForText("› some draft");
    t.press("Ctrl+C");
    await t.waitForNoText("some draft");
    t.press("Ctrl+C");
    await t.waitForText("press Ctrl+C again to quit");
    t.press("Ctrl+C");
    expect(await t.waitForExit()).toBe(0);
    await session.done();
    session = await startDashboard();
    session.t.press("Ctrl+D");
    expect(await session.t.waitForExit()).toBe(0);
  }, 40_000);

  test("Shift+Enter and Ctrl+J add lines; history comes back with Up", async () => {
    session = await startDashboard({ replies: [{ kind: "reply", text: "First answer." }, { kind: "reply", text: "Second answer." }] });
    const { t, llm } = session;
    t.type("line one");
    t.press("Shift+Enter");
    t.type("line two");
    t.press("Ctrl+J");
    t.type("line three");
    await t.waitForText(/› line one\s*│\n│\s+line two\s*│\n│\s+line three/);
    t.press("Enter");
    await t.waitForText("First answer.");
    expect((await llm.waitForRequest(1)).transcript).toContain("line one\nline two\nline three");
    t.press("Up");
    await t.waitForText(/› line one\s*│\n│\s+line two/);
  }, 40_000);
});
