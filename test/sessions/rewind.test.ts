// Rewinding a coding agent's session (the library side of Esc Esc and /rewind): the conversation
// goes back to before one of the person's messages and the next request holds exactly that branch;
// with files, what the agent wrote and edited after that point is put back (created files removed),
// a file changed since by someone else is left alone and listed, and contents pitwall could not
// keep are named. Also: switching branches, forking, and the refusals.
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createCodingAgent, type CodingAgent } from "../../agent/coding-agent.js";
import type { PitwallEvent } from "../../agent/events.js";
import { resolveModel } from "../../agent/models.js";
import { AgentBusyError } from "../../agent/agent.js";
import { BranchError } from "../../agent/session-control.js";
import { snapshotFolderOf } from "../../agent/sessions/file-snapshots.js";
import { loadSession } from "../../agent/sessions/session-load.js";
import { SessionStore } from "../../agent/sessions/session-store.js";
import type { FakeReply } from "../fake-llm/index.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { tempDir } from "../helpers/temp-dir.js";
import { waitFor } from "../helpers/conditions.js";

const llm = useFakeLlm();
const KEY = "sk-test-0123456789abcdef";

function codingAgent(options: { session?: boolean } = {}): { coding: CodingAgent; events: PitwallEvent[]; cwd: string; file: (name: string) => string } {
  const cwd = tempDir("rewind");
  const session =
    options.session === false
      ? undefined
      : SessionStore.create({ root: join(cwd, ".sessions"), cwd, provider: "anthropic", model: "claude-sonnet-5-5", thinkingLevel: "off", pitwallVersion: "0.1.0", secrets: [KEY] });
  const coding = createCodingAgent({
    cwd,
    model: resolveModel(undefined, "anthropic", "anthropic"),
    connections: { anthropic: { apiKey: KEY, baseUrl: llm.anthropicBaseUrl }, openai: {} },
    pitwallHome: join(cwd, ".pitwall-home"),
    settings: { retry: { baseDelayMs: 5 } },
    session,
  });
  const events: PitwallEvent[] = [];
  coding.bus.subscribe((e) => events.push(e));
  return { coding, events, cwd, file: (name) => join(cwd, name) };
}

const write = (file_path: string, content: string): FakeReply => ({ kind: "reply", toolCalls: [{ name: "write", arguments: { file_path, content } }] });
const edit = (file_path: string, old_string: string, new_string: string): FakeReply => ({ kind: "reply", toolCalls: [{ name: "edit", arguments: { file_path, old_string, new_string } }] });
const say = (text: string): FakeReply => ({ kind: "reply", text });

/** The messages of a recorded Anthropic request, as role: text lines. */
function conversation(index: number): string[] {
  const body = llm.requests[index]!.json as { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; name?: string; content?: unknown }> }> };
  return body.messages.map((m) => {
    const parts = typeof m.content === "string" ? [m.content] : m.content.map((c) => (c.type === "text" ? c.text : c.type === "tool_use" ? `tool_use ${c.name}` : c.type === "tool_result" ? "tool_result" : c.type));
    return `${m.role}: ${parts.join(" | ")}`;
  });
}

describe("rewind", () => {
  it("with files: puts back what the agent wrote and edited after that point, removes what it created, and the next request holds exactly the branch", async () => {
    const { coding, events, file } = codingAgent();
    writeFileSync(file("b.txt"), "original b\n");
    llm.enqueue(write("a.txt", "A1\n"), say("Wrote a."));
    await coding.agent.prompt("make a");
    llm.enqueue(edit("b.txt", "original", "changed"), write("a.txt", "A2\n"), write("c.txt", "new c\n"), say("Changed things."));
    await coding.agent.prompt("change things");
    expect(readFileSync(file("b.txt"), "utf8")).toBe("changed b\n");
    expect(events.filter((e) => e.type === "file_change").map((e) => (e as { path: string }).path)).toEqual([file("a.txt"), file("b.txt"), file("a.txt"), file("c.txt")]);

    const change = await coding.rewind({ prompt: 1 }, { files: true });
    expect(change.prompt?.text).toBe("change things");
    expect(change.files).toEqual({ restored: [file("b.txt"), file("a.txt")], removed: [file("c.txt")], unchanged: [], refused: [], failed: [] });
    expect(readFileSync(file("a.txt"), "utf8")).toBe("A1\n");
    expect(readFileSync(file("b.txt"), "utf8")).toBe("original b\n");
    expect(existsSync(file("c.txt"))).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: "branch_change", reason: "rewind" });

    const before = llm.requests.length;
    llm.enqueue(say("Something else, then."));
    await coding.agent.prompt("something else");
    expect(conversation(before)).toEqual(["user: make a", "assistant: tool_use write", "user: tool_result", "assistant: Wrote a.", "user: something else"]);
    // Both branches are in the file; the new one is current.
    const loaded = await loadSession(coding.session!.path);
    expect(loaded.stats.userMessages).toBe(3);
    expect(loaded.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant"]);
    await coding.dispose();
    coding.session?.close();
  });

  it("refuses, listing them, files changed since the agent last wrote them, and restores the rest", async () => {
    const { coding, file } = codingAgent();
    writeFileSync(file("mine.txt"), "mine v1\n");
    llm.enqueue(say("Hello."));
    await coding.agent.prompt("hello");
    llm.enqueue(write("mine.txt", "agent's version\n"), write("other.txt", "agent's other\n"), say("Done."));
    await coding.agent.prompt("write both");
    // Someone else changes mine.txt after the agent.
    writeFileSync(file("mine.txt"), "the person's own edit\n");
    const change = await coding.rewind({ prompt: 1 }, { files: true });
    expect(change.files).toEqual({ restored: [], removed: [file("other.txt")], unchanged: [], refused: [{ path: file("mine.txt"), reason: "changed since the agent last wrote it" }], failed: [] });
    expect(readFileSync(file("mine.txt"), "utf8")).toBe("the person's own edit\n");
    expect(existsSync(file("other.txt"))).toBe(false);
    await coding.dispose();
    coding.session?.close();
  });

  it("a content holding the API key is never kept (the change is recorded, the restore says why not); conversation only leaves files alone", async () => {
    const { coding, file } = codingAgent();
    writeFileSync(file(".env"), `ANTHROPIC_API_KEY=${KEY}\n`);
    llm.enqueue(say("Hi."));
    await coding.agent.prompt("hi");
    llm.enqueue(write(".env", "EMPTY=1\n"), say("Cleared."));
    await coding.agent.prompt("clear the env file");
    const folder = snapshotFolderOf(coding.session!.path);
    for (const name of existsSync(folder) ? readdirSync(folder) : []) expect(readFileSync(join(folder, name), "utf8")).not.toContain(KEY);

    const onlyTalk = await coding.rewind({ prompt: 1 });
    expect(onlyTalk.files).toBeUndefined();
    expect(readFileSync(file(".env"), "utf8")).toBe("EMPTY=1\n");
    // Back on the branch with the change, then with files.
    await coding.switchBranch(onlyTalk.previousLeafId);
    const withFiles = await coding.rewind({ prompt: 1 }, { files: true });
    expect(withFiles.files?.failed).toEqual([{ path: file(".env"), reason: "its content at that point holds an API key in use, which pitwall never writes to disk" }]);
    expect(readFileSync(file(".env"), "utf8")).toBe("EMPTY=1\n");
    await coding.dispose();
    coding.session?.close();
  });

  it("to a record id: before one of the person's messages, after any other record; switching back continues the old branch", async () => {
    const { coding } = codingAgent();
    llm.enqueue(say("One."));
    await coding.agent.prompt("first");
    llm.enqueue(say("Two."));
    await coding.agent.prompt("second");
    const tree = coding.sessionTree()!;
    const [reply] = tree.pathTo().filter((n) => n.kind === "message" && !n.person);
    const oldLeaf = tree.leafId;
    const change = await coding.rewind({ to: reply!.id });
    expect(change.prompt).toBeUndefined();
    expect(change.leafId).toBe(reply!.id);
    expect(coding.agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    await coding.switchBranch(oldLeaf);
    expect(coding.agent.state.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    const before = llm.requests.length;
    llm.enqueue(say("Three."));
    await coding.agent.prompt("third");
    expect(conversation(before)).toEqual(["user: first", "assistant: One.", "user: second", "assistant: Two.", "user: third"]);
    await coding.dispose();
    coding.session?.close();
  });

  it("refuses with a message a person can act on: no session, a prompt number out of range, an unknown id, files on another branch, a move while another runs", async () => {
    const bare = codingAgent({ session: false });
    await expect(bare.coding.rewind({ prompt: 1 })).rejects.toThrow(/--no-session/);
    await bare.coding.dispose();

    const { coding } = codingAgent();
    llm.enqueue(say("One."));
    await coding.agent.prompt("first");
    await expect(coding.rewind({ prompt: 2 })).rejects.toThrow(new BranchError('"prompt" must be a whole number from 1 (your last message) to 1 (your first on this branch), not 2.'));
    await expect(coding.rewind({ to: "nope" })).rejects.toThrow(/There is no record "nope" in this session/);
    const first = await coding.rewind({ prompt: 1 });
    expect(first.leafId).toBeNull();
    expect(coding.agent.state.messages).toEqual([]);
    await expect(coding.rewind({ to: first.previousLeafId! }, { files: true })).rejects.toThrow(/only to a point on the current branch/);
    // One move at a time: a second one asked for while the first runs is refused, the first goes through.
    const switching = coding.switchBranch(first.previousLeafId);
    await expect(coding.fork()).rejects.toThrow(new BranchError("Another rewind, branch switch or fork is under way: try again once it is done."));
    expect((await switching).leafId).toBe(first.previousLeafId);
    expect(coding.agent.state.messages).toHaveLength(2);
    await coding.dispose();
    coding.session?.close();
  });

  it("holds the agent while it moves: a prompt is refused and a watch trigger's wake starts its run on the new branch", async () => {
    const { coding } = codingAgent();
    llm.enqueue(say("One."), say("Two."));
    await coding.agent.prompt("first");
    await coding.agent.prompt("second");
    const rewinding = coding.rewind({ prompt: 1 });
    await expect(coding.agent.prompt("too early")).rejects.toThrow(AgentBusyError);
    llm.enqueue(say("Woken."));
    coding.agent.deliverTriggered({ text: "job 2 printed: FAIL", fromLine: 1, toLine: 1, at: Date.now() }, { jobId: "2", triggerId: 1, pattern: "FAIL", ignoreCase: false, action: "wake", setBy: "agent" });
    expect(llm.requests).toHaveLength(2);
    await rewinding;
    await waitFor(() => llm.requests.length === 3 && !coding.agent.state.isStreaming, "the woken run");
    expect(conversation(2)).toEqual(["user: first", "assistant: One.", "user: job 2 printed: FAIL"]);
    await coding.dispose();
    coding.session?.close();
  });

  it("fork: the current branch goes on in a new session file whose header names the original", async () => {
    const { coding, events } = codingAgent();
    llm.enqueue(say("One."));
    await coding.agent.prompt("first");
    const original = coding.session!.path;
    const forked = await coding.fork();
    expect(forked).toMatchObject({ type: "session_forked", forkedFrom: original });
    expect(events.at(-1)).toEqual(forked);
    expect(coding.session!.path).toBe(forked.path);
    llm.enqueue(say("Two."));
    await coding.agent.prompt("second");
    const copy = await loadSession(forked.path);
    expect(copy.header.forkedFrom).toBe(original);
    expect(copy.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect((await loadSession(original)).messages).toHaveLength(2);
    await coding.dispose();
    coding.session?.close();
  });
});
