// /export and --export: the current branch as Markdown. The person's messages and the agent's text
// as they were, each tool call folded with its result, thinking folded, a compaction marked where
// it happened, other branches left out (and counted), fences that survive backticks in the output.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../agent/event-bus.js";
import type { PitwallEvent } from "../../agent/events.js";
import type { AssistantMessage, Message } from "../../agent/messages.js";
import { emptyUsage } from "../../agent/messages.js";
import { branchItemsFromFile, branchMarkdown, fenced } from "../../agent/sessions/branch-export.js";
import { otherBranchCount } from "../../agent/sessions/session-tree.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import { exportSessionFile } from "../../app/export-command.js";

process.env.TZ = "UTC";
let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "pitwall-export-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const T = Date.parse("2026-11-22T10:05:00Z");
const user = (content: string, origin?: "steer" | "notice"): Message => ({ role: "user", content, ...(origin ? { origin } : {}), timestamp: T });
const reply = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage => ({ role: "assistant", content, provider: "anthropic", model: "claude-sonnet-5-5", usage: emptyUsage(), stopReason, timestamp: T + 60_000 });

async function collect(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

describe("the Markdown export", () => {
  it("writes the current branch: messages, folded tool calls with results, thinking, notices, steers, a watch trigger's message and a marked compaction; the other branch is left out and counted", async () => {
    const store = SessionStore.create({ root, cwd: "/home/me/project", provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0" });
    const bus = new EventBus<PitwallEvent>();
    store.attach(bus);
    const end = (message: Message): void => bus.emit({ type: "message_end", message });
    end(user("fix the login bug"));
    const afterFirst = store.leafId;
    end(reply([{ type: "thinking", thinking: "The form posts to /login." }, { type: "text", text: "Reading the handler." }, { type: "toolCall", id: "call_1", name: "read", arguments: { file_path: "src/login.ts" } }], "toolUse"));
    end({ role: "toolResult", toolCallId: "call_1", toolName: "read", content: "1\tconst x = `a` + ```b```;", isError: false, timestamp: T });
    end(user("also check the tests", "steer"));
    end(user("[pitwall notice]\nJob 2 (npm run dev) exited with code 1.", "notice"));
    end({ role: "user", content: "job 3 printed: FAIL sums", origin: "trigger", trigger: { jobId: "3", triggerId: 1, pattern: "FAIL", ignoreCase: false, action: "steer", setBy: "agent" }, timestamp: T });
    end(reply([{ type: "toolCall", id: "call_2", name: "bash", arguments: { command: "npm test" } }], "toolUse"));
    end({ role: "toolResult", toolCallId: "call_2", toolName: "bash", content: "1 failing", isError: true, timestamp: T });
    bus.emit({ type: "compaction_end", reason: "manual", tokensBefore: 152_000, tokensAfter: 18_000, summary: "The login bug is in src/login.ts.", messagesSummarized: 6, messagesKept: 1 });
    end(reply([{ type: "text", text: "Fixed: the handler now checks the token." }]));
    // An abandoned branch, left out of the export.
    store.moveLeaf(afterFirst, "rewind");
    end(user("something else entirely"));
    store.moveLeaf(store.tree.pathTo().at(-2)!.id, "switch");
    store.close();

    // Back on the first branch: its leaf is the last reply.
    const session = await loadSession(store.path);
    const branchLeaf = [...session.tree.nodes()].find((n) => n.kind === "message" && n.parentId !== null && session.tree.get(n.parentId)?.kind === "compaction")!;
    session.tree.moveLeaf(branchLeaf.id);
    expect(otherBranchCount(session.tree)).toBe(1);
    const markdown = await collect(branchMarkdown(branchItemsFromFile(store.path, session.tree), { header: session.header, path: store.path, otherBranches: otherBranchCount(session.tree), now: new Date("2026-11-22T11:30:00Z") }));
    expect(markdown).toBe(
      [
        "# pitwall session",
        "",
        `- **Session:** \`${session.header.id}\` (\`${store.path}\`)`,
        `- **Started:** ${session.header.timestamp.slice(0, 10)} ${session.header.timestamp.slice(11, 16)} in \`/home/me/project\``,
        "- **Model:** anthropic/claude-sonnet-5-5",
        "- **Exported:** 2026-11-22 11:30: the current branch (1 other branch of this session left out)",
        "",
        "---",
        "",
        "## You · 2026-11-22 10:05",
        "",
        "fix the login bug",
        "",
        "## pitwall · 10:06",
        "",
        "<details>",
        "<summary>Thinking</summary>",
        "",
        "The form posts to /login.",
        "",
        "</details>",
        "",
        "Reading the handler.",
        "",
        "<details>",
        "<summary>✓ read src/login.ts</summary>",
        "",
        "Arguments:",
        "",
        "```json",
        "{",
        '  "file_path": "src/login.ts"',
        "}",
        "```",
        "",
        "Result:",
        "",
        "````",
        "1\tconst x = `a` + ```b```;",
        "````",
        "",
        "</details>",
        "",
        "## You (steering, while the agent worked) · 10:05",
        "",
        "also check the tests",
        "",
        "> **pitwall notice:** Job 2 (npm run dev) exited with code 1.",
        "",
        "## Watch trigger on job 3 (steer) · 10:05",
        "",
        "job 3 printed: FAIL sums",
        "",
        "## pitwall · 10:06",
        "",
        "<details>",
        "<summary>✗ bash npm test</summary>",
        "",
        "Arguments:",
        "",
        "```json",
        "{",
        '  "command": "npm test"',
        "}",
        "```",
        "",
        "Error:",
        "",
        "```",
        "1 failing",
        "```",
        "",
        "</details>",
        "",
        "**⟲ Compacted** (manual, 152k → 18k tokens): from here on the model saw the summary below in place of the 6 messages above.",
        "",
        "<details>",
        "<summary>Summary</summary>",
        "",
        "The login bug is in src/login.ts.",
        "",
        "</details>",
        "",
        "## pitwall · 10:06",
        "",
        "Fixed: the handler now checks the token.",
        "",
        "",
      ].join("\n"),
    );
    expect(markdown).not.toContain("something else entirely");
  });

  it("--export alone writes a session file's current branch, and '-' writes it to stdout", async () => {
    const store = SessionStore.create({ root, cwd: "/p", provider: "anthropic", model: "m", thinkingLevel: "off", pitwallVersion: "0.1.0" });
    store.recordMessage(user("hello <there> & all"));
    store.recordMessage(reply([{ type: "text", text: "Hi." }]));
    store.close();
    const result = await exportSessionFile(store.path, root, "out.md", process.stdout);
    expect(result).toEqual({ path: join(root, "out.md"), messages: 2, replaced: false });
    const text = readFileSync(join(root, "out.md"), "utf8");
    expect(text).toContain("## You · 2026-11-22 10:05\n\nhello <there> & all\n\n## pitwall · 10:06\n\nHi.\n\n");
    // A file that is there is replaced only when asked to.
    await expect(exportSessionFile(store.path, root, "out.md", process.stdout)).rejects.toThrow(`${join(root, "out.md")} exists; it was not replaced`);
    expect((await exportSessionFile(store.path, root, "out.md", process.stdout, { replace: true })).replaced).toBe(true);
    let written = "";
    const sink = new (await import("node:stream")).Writable({ write: (chunk: Buffer, _e, done) => ((written += chunk.toString()), done()) });
    expect((await exportSessionFile(store.path, root, "-", sink)).path).toBe("-");
    const withoutTime = (markdown: string): string => markdown.replace(/\*\*Exported:\*\* [^:]+:\d\d/, "**Exported:** (time)");
    expect(withoutTime(written)).toBe(withoutTime(text));
  });

  it("fences outgrow any run of backticks in the text", () => {
    expect(fenced("no ticks")).toBe("```\nno ticks\n```");
    expect(fenced("a ```` b", "js")).toBe("`````js\na ```` b\n`````");
  });
});
