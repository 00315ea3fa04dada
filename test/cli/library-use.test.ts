// agent/ and tools/ work as a library: a headless agent runs and streams events without blessed.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
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
});
