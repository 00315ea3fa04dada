// End to end, the comforts people bring from other agents: Ctrl+G puts the input in $EDITOR and
// the saved text back (unsent); a notification is written when a turn ends while the terminal has
// lost focus, and not while it has it; a project with skills of its own is asked about once.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { endDashboardsAfterEach, startDashboard, tempFolder } from "../helpers/dashboard-session.js";

endDashboardsAfterEach();

function script(folder: string, name: string, body: string): string {
  const path = join(folder, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

describe("Ctrl+G", () => {
  test("opens the input in $EDITOR; the saved text comes back into the input, unsent", async () => {
    const folder = tempFolder("editor");
    const seen = join(folder, "seen.txt");
    const editor = script(folder, "editor.sh", `cp "$1" '${seen}'\nprintf 'rewritten by the editor\\nwith a second line\\n' > "$1"`);
    const { t, llm } = await startDashboard({ env: { EDITOR: editor, VISUAL: "" } });
    t.type("a draft to polish");
    t.press("Ctrl+G");
    await t.waitForText("with a second line");
    expect(readFileSync(seen, "utf8")).toBe("a draft to polish");
    expect(t.screenText()).toContain("rewritten by the editor");
    expect(t.screenText()).not.toContain("a draft to polish");
    // Unsent: nothing reached the model, and the chat has no message of the person's.
    expect(llm.requests).toHaveLength(0);
    expect(t.screenText()).not.toMatch(/you: rewritten/);
    // The dashboard has the keyboard again.
    t.type(" and more");
    await t.waitForText("with a second line and more");
  }, 40_000);

  test("an editor that exits non-zero leaves the input as it was", async () => {
    const folder = tempFolder("editor");
    const editor = script(folder, "editor.sh", `printf 'thrown away' > "$1"\nexit 3`);
    const { t, llm } = await startDashboard({ env: { VISUAL: editor } });
    t.type("keep this text");
    t.press("Ctrl+G");
    await t.waitForText("exited with 3: the input is as it was");
    expect(t.screenText()).toContain("keep this text");
    expect(t.screenText()).not.toContain("thrown away");
    expect(llm.requests).toHaveLength(0);
  }, 40_000);
});

describe("notifications", () => {
  const notification = "\x1b]9;pitwall: turn done\x07";
  const count = (text: string): number => text.split(notification).length - 1;

  test("a turn that ends after focus-out writes OSC 9; one that ends with focus does not", async () => {
    const { t } = await startDashboard({
      env: { TERM_PROGRAM: "WezTerm" },
      replies: [
        { kind: "reply", text: "first answer" },
        { kind: "reply", text: "second answer" },
        { kind: "reply", text: "third answer" },
      ],
    });
    t.press("Focus out");
    t.type("one");
    t.press("Enter");
    await t.waitForText("first answer");
    await t.waitFor(() => count(t.rawOutput) === 1, 10_000, "the first notification");

    t.press("Focus in");
    t.type("two");
    t.press("Enter");
    await t.waitForText("second answer");

    // The third turn ends without focus again: its notification is the second one written, so the
    // turn that ended with focus wrote none.
    t.press("Focus out");
    t.type("three");
    t.press("Enter");
    await t.waitForText("third answer");
    await t.waitFor(() => count(t.rawOutput) >= 2, 10_000, "the third turn's notification");
    expect(count(t.rawOutput)).toBe(2);
    // Focus reporting is asked for, and given back on the way out.
    expect(t.rawOutput).toContain("\x1b[?1004h");
    t.press("Ctrl+D");
    await t.waitForExit();
    expect(t.rawOutput).toContain("\x1b[?1004l");
  }, 60_000);

  test("notify: bell sends a bell instead of OSC 9", async () => {
    const { t } = await startDashboard({ env: { TERM_PROGRAM: "WezTerm", PITWALL_NOTIFY: "bell" }, replies: [{ kind: "reply", text: "done here" }] });
    t.press("Focus out");
    const before = t.rawOutput.length;
    t.type("go");
    t.press("Enter");
    await t.waitForText("done here");
    await t.waitFor(() => t.rawOutput.slice(before).includes("\x07"), 10_000, "the bell");
    expect(t.rawOutput).not.toContain("\x1b]9;");
  }, 40_000);
});

describe("prompt templates", () => {
  test("Tab completes a template, its first line in the status line; Enter sends it filled", async () => {
    const home = tempFolder("home");
    mkdirSync(join(home, "prompts"), { recursive: true });
    writeFileSync(join(home, "prompts", "review.md"), "Review $1 for bugs and say what you would change.\n");
    const { t, llm } = await startDashboard({ home, replies: [{ kind: "reply", text: "reviewed it" }] });
    t.type("/rev");
    t.press("Tab");
    await t.waitForText("/review · Review $1 for bugs");
    t.type("src/app.ts");
    t.press("Enter");
    await t.waitForText("reviewed it");
    const messages = llm.requests[0]!.json.messages as Array<{ role: string; content: string | Array<{ text?: string }> }>;
    const last = messages.at(-1)!;
    const text = typeof last.content === "string" ? last.content : last.content.map((p) => p.text ?? "").join("");
    expect(text).toBe("Review src/app.ts for bugs and say what you would change.");
  }, 40_000);
});

describe("project trust", () => {
  test("a project with skills of its own is asked about once; trusting it loads them now and next time", async () => {
    const home = tempFolder("home");
    const cwd = tempFolder("project");
    mkdirSync(join(cwd, ".agents", "skills", "deploy"), { recursive: true });
    writeFileSync(join(cwd, ".agents", "skills", "deploy", "SKILL.md"), "---\nname: deploy\ndescription: Deploy this project\n---\nDEPLOY-BODY\n");
    const first = await startDashboard({ home, cwd, waitReady: false, replies: [{ kind: "reply", text: "noted" }] });
    await first.t.waitForText("trust this project?");
    expect(first.t.screenText()).toContain("1 skill of its own (.agents/skills)");
    first.t.press("Enter");
    await first.t.waitForText(/● ready/);
    first.t.type("hi");
    first.t.press("Enter");
    await first.t.waitForText("noted");
    const system = first.llm.requests[0]!.json.system as Array<{ text: string }>;
    expect(system.map((b) => b.text).join("\n")).toContain("<name>deploy</name>");
    expect(JSON.parse(readFileSync(join(home, "trust.json"), "utf8"))).toMatchObject({ projects: { [cwd]: { trusted: true } } });
    first.t.press("Ctrl+D");
    await first.t.waitForExit();
    await first.done();

    // Next time: no question; /skills lists it and /context counts it.
    const second = await startDashboard({ home, cwd });
    expect(second.t.screenText()).not.toContain("trust this project?");
    second.t.type("/skills");
    second.t.press("Enter");
    await second.t.waitForText("/skill:deploy");
    // /context shows what the list of skills costs.
    second.t.type("/context");
    second.t.press("Enter");
    await second.t.waitForText(/skills \(1\)\s+\d+/);
  }, 60_000);
});
