// No key, but a local model server: the usual ports on loopback are asked for /v1/models, within
// 150 ms in all, and a server that answers is offered with its models and the exact flags; pitwall
// never switches to it by itself.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { localServerOffer, PROBE_DEADLINE_MS, probeLocalServers } from "../../agent/providers/local-servers.js";
import { cliEnv, runCli } from "../helpers/cli-process.js";
import { tempDir } from "../helpers/temp-dir.js";

const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A fake OpenAI-compatible server on loopback that lists `models` (or never answers, when hang). */
async function fakeServer(models: string[], options: { port?: number; hang?: boolean } = {}): Promise<{ port: number; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    if (options.hang) return;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ object: "list", data: models.map((id) => ({ id, object: "model" })) }));
  });
  servers.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", resolve);
  });
  return { port: (server.address() as AddressInfo).port, asked };
}

describe("the local server probe", () => {
  it("finds a server answering /v1/models and leaves out one that is silent, within the deadline", async () => {
    const answering = await fakeServer(["qwen2.5-coder:7b", "openai/gpt-oss-20b"]);
    const silent = await fakeServer(["never"], { hang: true });
    // A deadline a loaded machine's answering server always meets; the silent one is cut off at it.
    const deadlineMs = 2_000;
    const started = performance.now();
    const found = await probeLocalServers({
      deadlineMs,
      servers: [
        { name: "Silent", port: silent.port },
        { name: "Ollama", port: answering.port },
      ],
    });
    expect(performance.now() - started).toBeLessThan(deadlineMs + 1_000);
    // By default a server that does not answer costs 150 ms, never more (a timer may fire late on a busy machine).
    const alone = performance.now();
    expect(await probeLocalServers({ servers: [{ name: "Silent", port: silent.port }] })).toEqual([]);
    expect(performance.now() - alone).toBeLessThan(PROBE_DEADLINE_MS + 1_000);
    expect(found).toEqual([{ name: "Ollama", baseUrl: `http://127.0.0.1:${answering.port}/v1`, models: ["qwen2.5-coder:7b", "openai/gpt-oss-20b"] }]);
    expect(answering.asked).toEqual(["GET /v1/models"]);
    expect(localServerOffer(found)).toBe(
      `A local model server is running (pitwall does not switch to it by itself): Ollama answers at http://127.0.0.1:${answering.port}/v1 with qwen2.5-coder:7b, openai/gpt-oss-20b: pitwall --provider openai --base-url http://127.0.0.1:${answering.port}/v1 --model qwen2.5-coder:7b.`,
    );
    // An id that would read as provider/id gets the provider in front of it.
    expect(localServerOffer([{ name: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1", models: ["openai/gpt-oss-20b"] }])).toContain("--model openai/openai/gpt-oss-20b.");
  });

  it("print mode without a key offers LM Studio on its port 1234, and sends it nothing else", async () => {
    // The port is LM Studio's own, so a second `npm test` on the machine may hold it for the second
    // its copy of this test takes: wait for it to be free (a condition, up to 30 s), not for a time.
    let lmStudio: Awaited<ReturnType<typeof fakeServer>> | undefined;
    const deadline = Date.now() + 30_000;
    while (lmStudio === undefined) {
      try {
        lmStudio = await fakeServer(["llama-3.2-3b-instruct"], { port: 1234 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || Date.now() > deadline) {
          throw new Error(`this test needs 127.0.0.1:1234 free, to play LM Studio there: ${(error as Error).message}`, { cause: error });
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    // The probe's deadline is long here: a loaded machine can take more than the default 150 ms to
    // start the answer; the cut-off itself is tested above.
    const result = await runCli(["-p", "hello", "--no-session", "--cwd", tempDir("project")], cliEnv({ extra: { PITWALL_LOCAL_PROBE_MS: "10000" } }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("pitwall: No API key for Anthropic");
    expect(result.stderr).toContain(
      "LM Studio answers at http://127.0.0.1:1234/v1 with llama-3.2-3b-instruct: pitwall --provider openai --base-url http://127.0.0.1:1234/v1 --model llama-3.2-3b-instruct",
    );
    // Offered, never used: the only request was the list of models.
    expect(lmStudio.asked).toEqual(["GET /v1/models"]);
  });
});
