// JSON mode's rewind and fork commands: run in order with the messages, their results as
// branch_change and session_forked events, the next request holding exactly the branch, and what
// cannot be done said as an error event.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSession } from "../../agent/sessions/session-load.js";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { cliEnv, startCli } from "../helpers/cli-process.js";
import { JsonLineReader } from "../helpers/json-lines.js";
import { tempDir } from "../helpers/temp-dir.js";

type Event = { type: string; [key: string]: unknown };

const llm = useFakeLlm();

function startJson(cwd: string) {
  const child = startCli(["--json", "--cwd", cwd], cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }), cwd);
  const events = new JsonLineReader<Event>(child.stdout);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const send = (value: unknown): void => {
    child.stdin.write(`${typeof value === "string" ? value : JSON.stringify(value)}\n`);
  };
  return { child, events, exited, send };
}

function roles(index: number): string[] {
  const body = llm.requests[index]!.json as { messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }> };
  return body.messages.map((m) => `${m.role}: ${typeof m.content === "string" ? m.content : m.content.map((c) => c.text ?? c.type).join(" | ")}`);
}

describe("pitwall --json: rewind and fork", () => {
  it("rewinds (with files) and forks in order with the messages; the next request holds exactly the branch", async () => {
    const cwd = tempDir("json-branches");
    writeFileSync(join(cwd, "notes.txt"), "hello\n");
    llm.enqueue(
      { kind: "reply", text: "One." },
      { kind: "reply", toolCalls: [{ name: "write", arguments: { file_path: "made.txt", content: "x\n" } }, { name: "edit", arguments: { file_path: "notes.txt", old_string: "hello", new_string: "bye" } }] },
      { kind: "reply", text: "Two." },
      { kind: "reply", text: "Three." },
      { kind: "reply", text: "Four." },
    );
    const { child, events, exited, send } = startJson(cwd);
    send({ type: "message", content: "first" });
    send({ type: "message", content: "second" });
    send({ type: "rewind", prompt: 1, files: true });
    send({ type: "message", content: "other" });
    send({ type: "fork" });
    send({ type: "message", content: "in the fork" });
    child.stdin.end();
    expect(await exited).toBe(0);

    const change = events.items.find((e) => e.type === "branch_change")!;
    expect(change).toMatchObject({ reason: "rewind", prompt: { text: "second" }, files: { restored: [join(cwd, "notes.txt")], removed: [join(cwd, "made.txt")], refused: [], failed: [] } });
    expect((change["messages"] as Array<{ role: string }>).map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("hello\n");
    expect(existsSync(join(cwd, "made.txt"))).toBe(false);
    expect(roles(3)).toEqual(["user: first", "assistant: One.", "user: other"]);

    const forked = events.items.find((e) => e.type === "session_forked")!;
    expect(forked["forkedFrom"]).toEqual(expect.stringMatching(/\.jsonl$/));
    const copy = await loadSession(forked["path"] as string);
    expect(copy.header.forkedFrom).toBe(forked["forkedFrom"]);
    expect(copy.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual(["first", "assistant", "other", "assistant", "in the fork", "assistant"]);
    expect(events.items.filter((e) => e.type === "error")).toEqual([]);
  });

  it("says what is wrong with a rewind it cannot do, and keeps going", async () => {
    llm.enqueue({ kind: "reply", text: "One." }, { kind: "reply", text: "Still here." });
    const { child, events, exited, send } = startJson(tempDir("json-branches"));
    send({ type: "rewind", prompt: 0 });
    send({ type: "rewind", to: "a", prompt: 1 });
    send({ type: "rewind", prompt: 1, files: "yes" });
    send({ type: "message", content: "first" });
    send({ type: "rewind", prompt: 3 });
    send({ type: "rewind", to: "nope" });
    send({ type: "message", content: "second" });
    child.stdin.end();
    expect(await exited).toBe(0);
    const errors = events.items.filter((e) => e.type === "error").map((e) => [e["source"], e["message"]]);
    expect(errors).toEqual([
      ["input", expect.stringMatching(/^Input line 1 has type "rewind" but neither "prompt" \(1 for your last message/)],
      ["input", 'Input line 2 has type "rewind" with both "to" and "prompt": give one.'],
      ["input", 'Input line 3 has type "rewind" but "files" is not true or false.'],
      ["input", '"prompt" must be a whole number from 1 (your last message) to 1 (your first on this branch), not 3.'],
      ["input", 'There is no record "nope" in this session; sessionTree() lists them.'],
    ]);
    expect(JSON.stringify(events.items)).toContain("Still here.");
  });
});
