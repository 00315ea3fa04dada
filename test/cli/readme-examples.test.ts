// The README's library examples, run as written (only the import of "pitwall" is pointed at dist/).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { waitFor } from "../helpers/conditions.js";
import { describe, expect, it } from "vitest";
import { useFakeLlm } from "../helpers/fake-llm-fixture.js";
import { assertBuilt, cliEnv, REPO_ROOT } from "../helpers/cli-process.js";

const llm = useFakeLlm();

function readmeExamples(): string[] {
  const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
  return [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]!.replaceAll('from "pitwall"', `from ${JSON.stringify(join(REPO_ROOT, "dist/agent/index.js"))}`));
}

function runModule(source: string, env: NodeJS.ProcessEnv) {
  assertBuilt();
  const child = spawn(process.execPath, ["--input-type=module", "-e", source], { env, cwd: REPO_ROOT });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, closed, output: () => ({ stdout, stderr }) };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("README examples", () => {
  it("has the two library examples", () => {
    expect(readmeExamples()).toHaveLength(2);
  });

  it("the headless agent prints its events as JSON lines", async () => {
    llm.enqueue({ kind: "reply", text: "It is a terminal cockpit." });
    const env = cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl });
    const run = runModule(readmeExamples()[0]!, env);
    expect(await run.closed).toBe(0);
    const events = run.output().stdout.trim().split("\n").map((l) => JSON.parse(l) as { type: string });
    expect(events[0]!.type).toBe("agent_start");
    expect(events.at(-1)!.type).toBe("agent_end");
    expect(run.output().stdout).toContain("It is a terminal cockpit.");
  });

  it("the HTTP server streams the events as server-sent events", async () => {
    llm.enqueue({ kind: "reply", text: "Streamed over SSE." });
    const port = await freePort();
    const env = { ...cliEnv({ apiKey: "sk-test-0123456789", anthropicBaseUrl: llm.anthropicBaseUrl }), PORT: String(port) };
    const run = runModule(readmeExamples()[1]!, env);
    try {
      const response = await waitFor(
        () => fetch(`http://127.0.0.1:${port}/?prompt=hi`).catch(() => undefined),
        "the example server to listen",
      );
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const body = await response.text();
      const events = body.split("\n\n").filter(Boolean).map((chunk) => JSON.parse(chunk.replace(/^data: /, "")) as { type: string });
      expect(events.map((e) => e.type)).toContain("message_update");
      expect(body).toContain("Streamed over SSE.");
    } finally {
      run.child.kill("SIGTERM");
      await run.closed;
    }
  });
});
