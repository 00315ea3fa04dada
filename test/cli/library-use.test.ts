// agent/ and tools/ work as a library: a headless agent runs and streams events without blessed.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { tempDir } from "../helpers/temp-dir.js";
import { assertBuilt, REPO_ROOT } from "../helpers/cli-process.js";

const llm = useFakeLlm();

describe("library use", () => {
  it("imports agent/ and tools/ without loading blessed, and runs a headless agent", async () => {
    assertBuilt();
    llm.enqueue({ kind: "reply", text: "headless hello" });
    const script = `
      import { createRequire } from "node:module";
      import { createCodingAgent, resolveConnections, resolveModel } from ${JSON.stringify(join(REPO_ROOT, "dist/agent/index.js"))};
      const connections = resolveConnections({ provider: "anthropic", apiKey: "sk-test-0123456789", baseUrl: ${JSON.stringify(llm.anthropicBaseUrl)} });
      const coding = createCodingAgent({ cwd: process.cwd(), model: resolveModel(undefined, "anthropic", "anthropic"), connections, pitwallHome: "/nonexistent" });
      const types = [];
      coding.agent.subscribe((event) => types.push(event.type));
      await coding.agent.prompt("hi");
      await coding.dispose();
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({ types, blessed: loaded.some((p) => p.includes("/blessed/")), text: JSON.stringify(coding.agent.state.messages.at(-1)) }));
    `;
    // Asynchronously: the fake server answers from this very process.
    const result = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    const out = JSON.parse(result.stdout.trim()) as { types: string[]; blessed: boolean; text: string };
    expect(out.blessed).toBe(false);
    expect(out.types).toContain("message_update");
    expect(out.text).toContain("headless hello");
  });

  it("rewinds (putting the agent's writes back), switches branches and forks through the package entry", async () => {
    assertBuilt();
    const cwd = tempDir("library-rewind");
    llm.enqueue({ kind: "reply", text: "first answer" });
    llm.enqueue({ kind: "reply", toolCalls: [{ name: "write", arguments: { file_path: "made.txt", content: "by the agent\n" } }] }, { kind: "reply", text: "wrote it" });
    llm.enqueue({ kind: "reply", text: "on the new branch" });
    const script = `
      import { existsSync } from "node:fs";
      import { join } from "node:path";
      import { BranchError, createCodingAgent, resolveConnections, resolveModel, SessionStore } from ${JSON.stringify(join(REPO_ROOT, "dist/agent/index.js"))};
      const cwd = ${JSON.stringify(cwd)};
      const connections = resolveConnections({ provider: "anthropic", apiKey: "sk-test-0123456789", baseUrl: ${JSON.stringify(llm.anthropicBaseUrl)} });
      const model = resolveModel(undefined, "anthropic", "anthropic");
      const session = SessionStore.create({ root: join(cwd, "sessions"), cwd, provider: "anthropic", model: model.id, thinkingLevel: "off", pitwallVersion: "0.0.0" });
      const coding = createCodingAgent({ cwd, model, connections, pitwallHome: join(cwd, "home"), session });
      const events = [];
      coding.bus.subscribe((event) => events.push(event.type));
      await coding.agent.prompt("first");
      await coding.agent.prompt("write a file");
      const made = existsSync(join(cwd, "made.txt"));
      const rewound = await coding.rewind({ prompt: 1 }, { files: true });
      const afterRewind = { made: existsSync(join(cwd, "made.txt")), prompt: rewound.prompt.text, files: rewound.files, messages: coding.agent.state.messages.length };
      await coding.agent.prompt("second try");
      const people = [...coding.sessionTree().nodes()].filter((node) => node.person).map((node) => node.person.preview);
      let refused = "";
      try { await coding.rewind({ prompt: 9 }); } catch (error) { refused = error instanceof BranchError ? error.message : "not a BranchError"; }
      const switched = await coding.switchBranch(rewound.previousLeafId);
      const forked = await coding.fork();
      await coding.dispose();
      coding.session.close();
      console.log(JSON.stringify({ made, afterRewind, people, refused, switched: switched.messages.length, forked: forked.forkedFrom === session.path && forked.path !== session.path && existsSync(forked.path), events: [...new Set(events)] }));
    `;
    const result = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    const out = JSON.parse(result.stdout.trim()) as Record<string, unknown>;
    expect(out).toMatchObject({
      made: true,
      afterRewind: { made: false, prompt: "write a file", files: { removed: [join(cwd, "made.txt")], restored: [], refused: [], failed: [] }, messages: 2 },
      people: ["first", "write a file", "second try"],
      switched: 6,
      forked: true,
    });
    expect(out.refused).toMatch(/must be a whole number from 1/);
    expect(out.events).toEqual(expect.arrayContaining(["file_change", "branch_change", "session_forked"]));
    // The request after the rewind held exactly the branch before the rewound message.
    const messages = (llm.requests[3]!.json as { messages: Array<{ role: string }> }).messages;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  });
  it("a listener may chain the next prompt on agent_end: the agent is idle then, and the prompt is accepted", async () => {
    assertBuilt();
    llm.enqueue({ kind: "reply", text: "first answer" }, { kind: "reply", text: "chained answer" });
    const script = `
      import { createCodingAgent, resolveConnections, resolveModel } from ${JSON.stringify(join(REPO_ROOT, "dist/agent/index.js"))};
      const connections = resolveConnections({ provider: "anthropic", apiKey: "sk-test-0123456789", baseUrl: ${JSON.stringify(llm.anthropicBaseUrl)} });
      const coding = createCodingAgent({ cwd: process.cwd(), model: resolveModel(undefined, "anthropic", "anthropic"), connections, pitwallHome: "/nonexistent" });
      const ends = [];
      let chained;
      coding.agent.subscribe((event) => {
        if (event.type !== "agent_end") return;
        ends.push(coding.agent.state.isStreaming);
        if (!chained) chained = coding.agent.prompt("and then?");
      });
      await coding.agent.prompt("first");
      await chained;
      await coding.dispose();
      const replies = coding.agent.state.messages.filter((m) => m.role === "assistant").map((m) => m.content.map((c) => c.text).join(""));
      console.log(JSON.stringify({ ends, replies }));
    `;
    const result = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", timeout: 30_000 });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout.trim())).toEqual({ ends: [false, false], replies: ["first answer", "chained answer"] });
  });
});
