// End to end: rewinding and branching in the dashboard, in a pseudo-terminal against the fake LLM.
// Esc Esc on an idle, empty input lists your messages; picking one puts it back into the input and
// the model's next request holds exactly the branch before it. With files, what the agent wrote is
// put back and a file changed since is left alone and named. /tree switches to the old branch,
// /export writes it as Markdown, /fork continues in a copy.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { FakeReply, RecordedRequest } from "../fake-llm/index.js";
import { endDashboardsAfterEach, startDashboard } from "../helpers/dashboard-session.js";
import type { PitwallTerminal } from "../helpers/terminal-harness.js";

endDashboardsAfterEach();

const say = (text: string): FakeReply => ({ kind: "reply", text });

/** The messages of an Anthropic request as "role: text" (tool blocks named). */
function conversation(request: RecordedRequest): string[] {
  const body = request.json as { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; name?: string }> }> };
  return body.messages.map((m) => {
    const parts = typeof m.content === "string" ? [m.content] : m.content.map((c) => (c.type === "text" ? c.text : c.type === "tool_use" ? `tool_use ${c.name}` : c.type));
    return `${m.role}: ${parts.join(" | ")}`;
  });
}

async function send(t: PitwallTerminal, text: string, answer: string): Promise<void> {
  t.type(text);
  t.press("Enter");
  await t.waitForText(answer);
  await t.waitForText("● ready");
}

/** Esc, then Esc again while the status line offers the rewind. */
async function escEsc(t: PitwallTerminal): Promise<string> {
  t.press("Escape");
  await t.waitForText("Esc again: rewind");
  t.press("Escape");
  return t.waitForText("rewind: back to before which message?");
}

describe("rewind and branches in the dashboard", () => {
  test("Esc Esc: your message comes back into the input, and the next request holds exactly the branch before it", async () => {
    const { t, llm } = await startDashboard({ replies: [say("Answer one."), say("Answer two."), say("Answer three.")] });
    await send(t, "first question", "Answer one.");
    await send(t, "second question", "Answer two.");

    let screen = await escEsc(t);
    // Newest first.
    expect(screen.indexOf("second question", screen.indexOf("rewind: back"))).toBeLessThan(screen.indexOf("first question", screen.indexOf("rewind: back")));
    t.press("Enter");
    screen = await t.waitForText("rewind: the files too?");
    expect(screen).toContain('Back to before "second question"');
    expect(screen).toContain("The agent wrote or edited no files after that point.");
    expect(screen).toContain("Changes made by bash commands (and by you) are not tracked and are not undone");
    t.press("Enter");
    screen = await t.waitForText("Rewound to before");
    expect(screen).toMatch(/› second question\s+│\n└/);
    expect(screen).not.toContain("Answer two.");

    t.press("Ctrl+U");
    await send(t, "a different question", "Answer three.");
    expect(conversation(llm.requests[2]!)).toEqual(["user: first question", "assistant: Answer one.", "user: a different question"]);
  }, 60_000);

  test("with files: what the agent wrote is put back, what it created removed, a file changed since left alone and named", async () => {
    const { t, cwd } = await startDashboard({
      replies: [
        say("Hello."),
        { kind: "reply", text: "Writing.", toolCalls: [{ name: "write", arguments: { file_path: "made.txt", content: "new\n" } }, { name: "edit", arguments: { file_path: "notes.txt", old_string: "hello", new_string: "goodbye" } }, { name: "write", arguments: { file_path: "mine.txt", content: "agent's\n" } }] },
        say("Wrote them."),
      ],
    });
    writeFileSync(join(cwd, "notes.txt"), "hello world\n");
    writeFileSync(join(cwd, "mine.txt"), "mine\n");
    await send(t, "hi", "Hello.");
    await send(t, "write the files", "Wrote them.");
    writeFileSync(join(cwd, "mine.txt"), "changed by the person\n");

    await escEsc(t);
    t.press("Enter");
    const screen = await t.waitForText("The agent wrote or edited 3 files after that point: made.txt, notes.txt, mine.txt.");
    expect(screen).toContain("Conversation and files (undo the agent's writes and edits since)");
    t.press("Down");
    t.press("Enter");
    await t.waitForText("Put back 1 file: notes.txt.");
    await t.waitForText("Removed 1 file the agent had created: made.txt.");
    await t.waitForText("Left alone: mine.txt (changed since the agent last wrote it).");
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("hello world\n");
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    expect(readFileSync(join(cwd, "mine.txt"), "utf8")).toBe("changed by the person\n");
  }, 60_000);

  test("/tree shows the branches and switches to the old one, whose next request holds it; /export and /fork (at 80x24)", async () => {
    const { t, llm, cwd } = await startDashboard({ cols: 80, rows: 24, replies: [say("Answer one."), say("Answer two."), say("Answer three."), say("Answer four.")] });
    await send(t, "first question", "Answer one.");
    await send(t, "second question", "Answer two.");
    await escEsc(t);
    t.press("Enter");
    await t.waitForText("rewind: the files too?");
    t.press("Enter");
    await t.waitForText("Rewound to before");
    t.press("Ctrl+U");
    await send(t, "another try", "Answer three.");

    t.type("/tree");
    t.press("Enter");
    let screen = await t.waitForText("tree: your messages and the branches");
    expect(screen).toMatch(/● first question/);
    expect(screen).toMatch(/├─○ second question/);
    expect(screen).toMatch(/└─● another try {2}◀ now/);
    t.press("Up");
    t.press("Enter");
    screen = await t.waitForText("Switched to the branch of");
    await t.waitForText("Answer two.");
    await send(t, "third question", "Answer four.");
    expect(conversation(llm.requests[3]!)).toEqual(["user: first question", "assistant: Answer one.", "user: second question", "assistant: Answer two.", "user: third question"]);

    t.type("/export shared.md");
    t.press("Enter");
    await t.waitForText(/Exported the current branch \(6 messages\)/);
    const markdown = readFileSync(join(cwd, "shared.md"), "utf8");
    expect(markdown).toContain("## You · ");
    expect(markdown).toContain("second question");
    expect(markdown).not.toContain("another try");
    expect(markdown).toContain("(1 other branch of this session left out)");

    // Again to the same file: the person is asked, and keeping it (the default) writes nothing.
    writeFileSync(join(cwd, "shared.md"), "kept by the person\n");
    t.type("/export shared.md");
    t.press("Enter");
    await t.waitForText(/export: .*shared\.md exists/);
    t.press("Enter");
    await t.waitForText("kept as it was.");
    expect(readFileSync(join(cwd, "shared.md"), "utf8")).toBe("kept by the person\n");
    t.type("/export shared.md");
    t.press("Enter");
    await t.waitForText(/export: .*shared\.md exists/);
    t.press("Up");
    t.press("Enter");
    await t.waitForText("that was there).");
    expect(readFileSync(join(cwd, "shared.md"), "utf8")).toContain("second question");

    t.type("/fork");
    t.press("Enter");
    await t.waitForText("Forked: this branch goes on in");
    const folder = join(t.home, "sessions");
    const files = readdirSync(folder, { recursive: true }).map(String).filter((name) => name.endsWith(".jsonl"));
    expect(files).toHaveLength(2);
  }, 60_000);
});
